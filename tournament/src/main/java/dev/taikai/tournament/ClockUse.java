package dev.taikai.tournament;

import dev.taikai.referee.game.GameRecord;
import dev.taikai.referee.game.MoveRecord;
import dev.taikai.rules.Termination;
import java.util.Collection;

/**
 * How one engine kept to its clock over a set of games: its moves, how many went past their allowance
 * (within the overrun margin, or they would have lost), the largest such overrun, and its games lost on
 * time with the largest overrun among them: the margin that would have saved them is a little more.
 */
public record ClockUse(
        String engine,
        int games,
        int moves,
        int movesOver,
        long largestOverrunNanos,
        int timeLosses,
        long timeLossNanos) {
    /** Above this share of its games lost on time, a run's report says so (and what margin would help). */
    public static final double WARN_SHARE = 0.02;

    /** {@code engine}'s clock use over {@code records}. */
    public static ClockUse of(String engine, Collection<GameRecord> records) {
        int games = 0;
        int moves = 0;
        int over = 0;
        long largest = 0;
        int losses = 0;
        long lossNanos = 0;
        for (GameRecord game : records) {
            boolean sente = game.assignment().sente().equals(engine);
            if (!sente && !game.assignment().gote().equals(engine)) {
                continue;
            }
            games++;
            boolean senteFirst = senteToMove(game.startSfen());
            for (int ply = 0; ply < game.moves().size(); ply++) {
                boolean senteMoved = (ply % 2 == 0) == senteFirst;
                if (senteMoved != sente) {
                    continue;
                }
                MoveRecord move = game.moves().get(ply);
                moves++;
                if (move.overrunNanos() > 0) {
                    over++;
                    largest = Math.max(largest, move.overrunNanos());
                }
            }
            if (game.outcome().termination() == Termination.TIME_FORFEIT && engine.equals(game.loser())) {
                losses++;
                lossNanos = Math.max(lossNanos, game.timeLossOverrunNanos());
            }
        }
        return new ClockUse(engine, games, moves, over, largest, losses, lossNanos);
    }

    /** True when more than {@link #WARN_SHARE} of the engine's games were lost on time. */
    public boolean losesTooOften() {
        return timeLosses > 0 && timeLosses > WARN_SHARE * games;
    }

    /** The smallest margin, in whole tens of milliseconds, under which none of its time losses would have been. */
    public long savingMarginMillis() {
        long millis = timeLossNanos / 1_000_000 + 1;
        return (millis + 9) / 10 * 10;
    }

    /** The side to move in an SFEN: its second field, "b" for sente. */
    private static boolean senteToMove(String sfen) {
        String[] fields = sfen.strip().split("\\s+");
        return fields.length < 2 || fields[1].equals("b");
    }
}
