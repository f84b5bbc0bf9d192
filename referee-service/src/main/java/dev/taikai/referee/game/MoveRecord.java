package dev.taikai.referee.game;

import dev.taikai.engineworker.usi.Score;

/**
 * One move of a game record.
 *
 * @param move USI text in Fairy-Stockfish notation (as the rules core prints it)
 * @param timeNanos the time charged to the engine, measured at the pipe
 * @param refereeNanos the referee's own measurement, from asking for the move to having it back
 * @param remainingMillis the mover's main time left after the move (0 for untimed controls)
 * @param score the engine's last evaluation, from the mover's point of view, or null
 * @param depth the engine's last reported depth, or −1
 * @param nodes the engine's last reported node count, or −1
 */
public record MoveRecord(
        String move, long timeNanos, long refereeNanos, long remainingMillis, Score score, int depth, long nodes) {
    public double timeMillis() {
        return timeNanos / 1e6;
    }
}
