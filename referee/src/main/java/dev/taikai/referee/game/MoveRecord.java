package dev.taikai.referee.game;

import dev.taikai.enginehost.session.Score;

/**
 * One move of a game record.
 *
 * @param move USI text in Fairy-Stockfish notation (as the rules core prints it)
 * @param timeNanos the engine's time measured at the pipe, where the engine runs
 * @param refereeNanos the referee's own measurement, from asking for the move to having it back
 * @param remainingMillis the mover's main time left after the move (0 for untimed controls)
 * @param score the engine's last evaluation, from the mover's point of view, or null
 * @param depth the engine's last reported depth, or −1
 * @param nodes the engine's last reported node count, or −1
 * @param chargedNanos the time charged to the engine's clock: {@code timeNanos}, but at least {@code
 *     refereeNanos} minus the transport allowance and at most {@code refereeNanos} (ARCHITECTURE.md,
 *     decision 4)
 * @param allowedNanos what the mover's clock allowed for the move, before the overrun margin; 0 for
 *     controls without a time limit
 * @param overrunNanos how far the charged time went past the allowance ({@link Clock.Charge#overrunNanos})
 * @param cpuWaitNanos how long the engine was ready to run with no CPU during the move, as measured where
 *     it runs ({@link dev.taikai.enginehost.session.CpuWait}); 0 where not measured
 */
public record MoveRecord(
        String move,
        long timeNanos,
        long refereeNanos,
        long remainingMillis,
        Score score,
        int depth,
        long nodes,
        long chargedNanos,
        long allowedNanos,
        long overrunNanos,
        long cpuWaitNanos) {

    public double timeMillis() {
        return timeNanos / 1e6;
    }

    /**
     * The time to charge for a move: the engine's pipe time, bounded below by the referee's measurement
     * minus {@code allowanceNanos} (a lying worker gains at most the allowance) and above by the referee's
     * measurement (the engine cannot have thought longer than the referee waited).
     */
    public static long charge(long engineNanos, long refereeNanos, long allowanceNanos) {
        long floor = allowanceNanos >= refereeNanos ? 0 : refereeNanos - allowanceNanos;
        return Math.min(refereeNanos, Math.max(engineNanos, floor));
    }
}
