package dev.taikai.referee.game;

import dev.taikai.enginehost.usi.SearchLimits;
import dev.taikai.rules.Color;

/**
 * The referee's two clocks for one game. Each side runs on its own {@link TimeControl}. A move's time
 * is what the engine used as measured at the pipe; it loses on time when that exceeds what its control
 * allows by more than the overrun margin:
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
    /** What charging a move did. */
    public record Charge(long usedNanos, long allowedNanos, boolean forfeit, long remainingMillis) {}

    private static final long MILLI = 1_000_000;

    private final TimeControl[] controls;
    private final long[] remainingMillis;
    private final long overrunMarginMillis;

    public Clock(TimeControl sente, TimeControl gote, long overrunMarginMillis) {
        this.controls = new TimeControl[] {sente, gote};
        this.remainingMillis = new long[] {sente.mainMillis(), gote.mainMillis()};
        this.overrunMarginMillis = overrunMarginMillis;
    }

    public long remainingMillis(Color side) {
        return remainingMillis[side.index()];
    }

    /** The {@code go} for {@code side}: its own control's form, with both clocks as they stand. */
    public SearchLimits limitsFor(Color side) {
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

    /** Charges {@code side} for a move that took {@code usedNanos}; a forfeit leaves the clock as it was. */
    public Charge charge(Color side, long usedNanos) {
        TimeControl own = controls[side.index()];
        int i = side.index();
        long allowedMillis = switch (own.kind()) {
            case SUDDEN_DEATH, FISCHER -> remainingMillis[i];
            case BYOYOMI -> remainingMillis[i] + own.byoyomiMillis();
            case MOVETIME -> own.moveTimeMillis();
            case NODES, DEPTH -> Long.MAX_VALUE / (2 * MILLI);
        };
        long allowedNanos = allowedMillis * MILLI;
        if (usedNanos > allowedNanos + overrunMarginMillis * MILLI) {
            return new Charge(usedNanos, allowedNanos, true, remainingMillis[i]);
        }
        long usedMillis = (usedNanos + MILLI - 1) / MILLI;
        switch (own.kind()) {
            case SUDDEN_DEATH, BYOYOMI -> remainingMillis[i] = Math.max(0, remainingMillis[i] - usedMillis);
            case FISCHER -> remainingMillis[i] = Math.max(0, remainingMillis[i] - usedMillis) + own.incrementMillis();
            default -> {}
        }
        return new Charge(usedNanos, allowedNanos, false, remainingMillis[i]);
    }
}
