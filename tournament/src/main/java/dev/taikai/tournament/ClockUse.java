package dev.taikai.tournament;

import dev.taikai.referee.game.GameRecord;
import dev.taikai.rules.Color;
import dev.taikai.rules.Termination;

/**
 * How one engine kept to its clock over a set of games: its moves, how many went past their allowance
 * (within the overrun margin, or they would have lost), the largest such overrun, and its games lost on
 * time with the largest overrun among them: the margin that would have saved them is a little more. Moves
 * that went past the margin and were not lost, because the engine waited that long for a CPU, are counted
 * apart ({@code movesExcused}): the machine, not the engine, was slow.
 */
public record ClockUse(
        String engine,
        int games,
        int moves,
        int movesOver,
        long largestOverrunNanos,
        int movesExcused,
        int timeLosses,
        int silentTimeLosses,
        long timeLossNanos) {
    /** Above this share of its games lost on time, a run's report says so (and what margin would help). */
    public static final double WARN_SHARE = 0.02;

    /** No game yet. */
    public static ClockUse none(String engine) {
        return new ClockUse(engine, 0, 0, 0, 0, 0, 0, 0, 0);
    }

    /** This with {@code game} counted; unchanged when the engine did not play it. */
    public ClockUse plus(GameRecord game) {
        Color side = game.assignment().sente().equals(engine)
                ? Color.SENTE
                : game.assignment().gote().equals(engine) ? Color.GOTE : null;
        if (side == null) {
            return this;
        }
        long marginNanos = (side == Color.SENTE
                        ? game.assignment().senteMarginMillis()
                        : game.assignment().goteMarginMillis())
                * 1_000_000;
        int ownMoves = 0;
        int over = 0;
        int excused = 0;
        long largest = largestOverrunNanos;
        // the moves alternate from the side to move in the engines' start position
        int first = game.assignment().opening().position().sideToMove() == side ? 0 : 1;
        for (int ply = first; ply < game.moves().size(); ply += 2) {
            long overrun = game.moves().get(ply).overrunNanos();
            ownMoves++;
            if (overrun > 0) {
                over++;
                largest = Math.max(largest, overrun);
            }
            if (overrun > marginNanos) {
                excused++;
            }
        }
        boolean lostOnTime = game.outcome().termination() == Termination.TIME_FORFEIT && engine.equals(game.loser());
        boolean silent = lostOnTime && game.timeLossOverrunNanos() == 0; // no move came
        return new ClockUse(
                engine,
                games + 1,
                moves + ownMoves,
                movesOver + over,
                largest,
                movesExcused + excused,
                timeLosses + (lostOnTime ? 1 : 0),
                silentTimeLosses + (silent ? 1 : 0),
                lostOnTime ? Math.max(timeLossNanos, game.timeLossOverrunNanos()) : timeLossNanos);
    }

    /** True when a larger margin would have saved some of its time losses: a move came late in them. */
    public boolean aMarginWouldHelp() {
        return timeLosses > silentTimeLosses;
    }

    /** True when more than {@link #WARN_SHARE} of the engine's games were lost on time. */
    public boolean losesTooOften() {
        return timeLosses > 0 && timeLosses > WARN_SHARE * games;
    }

    /**
     * The smallest margin, in whole tens of milliseconds, under which none of its time losses in which a move
     * came late would have been.
     */
    public long savingMarginMillis() {
        long millis = timeLossNanos / 1_000_000 + 1;
        return (millis + 9) / 10 * 10;
    }
}
