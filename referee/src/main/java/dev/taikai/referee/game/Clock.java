package dev.taikai.referee.game;

import dev.taikai.enginehost.session.CpuWait;
import dev.taikai.enginehost.session.SearchLimits;
import dev.taikai.rules.Color;

/**
 * The referee's two clocks for one game. Each side runs on its own {@link TimeControl}. A move's time
 * is what the engine used as measured at the pipe; it loses on time when that exceeds what its control
 * allows by more than its side's overrun margin ({@link OverrunMargin}) plus the time the engine spent
 * ready to run with no CPU to run on ({@link CpuWait}: a busy machine's delay,
 * not the engine's). That excuse is at most the move's allowance and margin, so a worker that overstates
 * it gains at most one more move's time. The clock is charged every nanosecond the move used:
 *
 * <ul>
 *   <li>sudden death: the main time left;
 *   <li>Fischer: the main time left, the increment added after the move;
 *   <li>byoyomi: the main time left plus the byoyomi, which does not carry over;
 *   <li>movetime: the fixed time per move;
 *   <li>nodes and depth: no time limit (the driver's deadline still catches a hung engine).
 * </ul>
 */
public final class Clock {
    /**
     * What charging a move did.
     *
     * @param timed false for controls without a time limit (nodes, depth)
     * @param allowedNanos what the control allowed, before the margin; 0 when not timed
     * @param excusedNanos the part of the overrun spent waiting for a CPU, which does not count against
     *     the margin
     */
    public record Charge(
            long usedNanos,
            boolean timed,
            long allowedNanos,
            long excusedNanos,
            boolean forfeit,
            long remainingMillis) {
        /** How far the move went past its allowance, 0 when it did not. */
        public long overrunNanos() {
            return timed ? Math.max(0, usedNanos - allowedNanos) : 0;
        }

        /** The overrun that counted against the margin: what was not spent waiting for a CPU. */
        public long countedOverrunNanos() {
            return overrunNanos() - excusedNanos;
        }
    }

    private static final long MILLI = 1_000_000;

    private final TimeControl[] controls;
    private final long[] remainingMillis;
    private final long[] marginMillis;

    public Clock(TimeControl sente, TimeControl gote, long senteMarginMillis, long goteMarginMillis) {
        this.controls = new TimeControl[] {sente, gote};
        this.remainingMillis = new long[] {sente.mainMillis(), gote.mainMillis()};
        this.marginMillis = new long[] {senteMarginMillis, goteMarginMillis};
    }

    /** The overrun margin of {@code side}, milliseconds. */
    public long marginMillis(Color side) {
        return marginMillis[side.index()];
    }

    public long remainingMillis(Color side) {
        return remainingMillis[side.index()];
    }

    /**
     * The {@code go} for {@code side}: its own control's form, with both clocks as they stand, and its
     * margin as the grace the driver gives a move past its time.
     */
    public SearchLimits limitsFor(Color side) {
        return limitsOf(side).withGrace(marginMillis[side.index()]);
    }

    private SearchLimits limitsOf(Color side) {
        TimeControl own = controls[side.index()];
        long sente = remainingMillis[0];
        long gote = remainingMillis[1];
        return switch (own.kind()) {
            case SUDDEN_DEATH, FISCHER ->
                SearchLimits.fischer(sente, gote, controls[0].incrementMillis(), controls[1].incrementMillis());
            case BYOYOMI -> SearchLimits.byoyomi(sente, gote, own.byoyomiMillis());
            case MOVETIME -> SearchLimits.movetime(own.moveTimeMillis());
            case NODES -> SearchLimits.nodes(own.nodes());
            case DEPTH -> SearchLimits.depth(own.depth());
        };
    }

    /** Charges a move that never waited for a CPU ({@link #charge(Color, long, long)}). */
    public Charge charge(Color side, long usedNanos) {
        return charge(side, usedNanos, 0);
    }

    /**
     * Charges {@code side} for a move that took {@code usedNanos}, {@code cpuWaitNanos} of them ready to run
     * with no CPU; a forfeit leaves the clock as it was.
     */
    public Charge charge(Color side, long usedNanos, long cpuWaitNanos) {
        TimeControl own = controls[side.index()];
        int i = side.index();
        long allowedMillis = switch (own.kind()) {
            case SUDDEN_DEATH, FISCHER -> remainingMillis[i];
            case BYOYOMI -> remainingMillis[i] + own.byoyomiMillis();
            case MOVETIME -> own.moveTimeMillis();
            case NODES, DEPTH -> 0; // no time limit
        };
        boolean timed = own.kind() != TimeControl.Kind.NODES && own.kind() != TimeControl.Kind.DEPTH;
        long allowedNanos = allowedMillis * MILLI;
        long marginNanos = marginMillis[i] * MILLI;
        long overrun = timed ? Math.max(0, usedNanos - allowedNanos) : 0;
        long excused = CpuWait.excusedNanos(overrun, cpuWaitNanos, allowedNanos, marginNanos);
        if (overrun - excused > marginNanos) {
            return new Charge(usedNanos, true, allowedNanos, excused, true, remainingMillis[i]);
        }
        long usedMillis = (usedNanos + MILLI - 1) / MILLI;
        switch (own.kind()) {
            case SUDDEN_DEATH, BYOYOMI -> remainingMillis[i] = Math.max(0, remainingMillis[i] - usedMillis);
            case FISCHER -> remainingMillis[i] = Math.max(0, remainingMillis[i] - usedMillis) + own.incrementMillis();
            default -> {}
        }
        return new Charge(usedNanos, timed, allowedNanos, excused, false, remainingMillis[i]);
    }
}
