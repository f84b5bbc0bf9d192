package dev.taikai.referee.game;

import dev.taikai.rules.Color;
import dev.taikai.rules.Outcome;
import java.util.List;

/**
 * A finished game: what was assigned, every move with its time and telemetry, and how it ended.
 *
 * @param startSfen the position the engines started from (after the opening's book moves)
 * @param startedEpochMillis wall-clock start, for logs and records only
 * @param timeLossOverrunNanos for a game lost on time by a move that came late, how far it went past its allowance
 *     less the time it waited for a CPU ({@link Clock.Charge#countedOverrunNanos}): the margin that would
 *     have saved it is a little more; 0 when no move came at all, and for every other ending
 */
public record GameRecord(
        GameAssignment assignment,
        String startSfen,
        List<MoveRecord> moves,
        Outcome outcome,
        long startedEpochMillis,
        long finishedEpochMillis,
        long timeLossOverrunNanos) {
    public GameRecord {
        moves = List.copyOf(moves);
    }

    public String id() {
        return assignment.gameId();
    }

    public int plies() {
        return moves.size();
    }

    /** The entrant who won, or null for a draw. */
    public String winner() {
        Color winner = outcome.winner();
        return winner == null ? null : winner == Color.SENTE ? assignment.sente() : assignment.gote();
    }

    /** The score of {@code entrant} in this game: 1, ½ or 0. */
    public double scoreOf(String entrant) {
        String winner = winner();
        return winner == null ? 0.5 : winner.equals(entrant) ? 1 : 0;
    }

    /** The entrant who lost, or null for a draw. */
    public String loser() {
        Color winner = outcome.winner();
        return winner == null ? null : winner == Color.SENTE ? assignment.gote() : assignment.sente();
    }
}
