package dev.taikai.referee.game;

import dev.taikai.enginehost.session.DefaultMargin;

/**
 * How far past its allowance an engine's move may end before the engine loses on time: a number of
 * milliseconds chosen by the user (0 included), or {@link #BY_RULE}, the margin that follows from the time
 * control ({@link DefaultMargin}, the rule the engine check applies too). A margin decides only whether a
 * move forfeits; the clock is charged every nanosecond the move used.
 */
public final class OverrunMargin {
    /** The greatest margin a user may choose. */
    public static final long MAX_MILLIS = 60_000;

    /** The margin that follows from each side's time control. */
    public static final OverrunMargin BY_RULE = new OverrunMargin(-1);

    private final long millis;

    private OverrunMargin(long millis) {
        this.millis = millis;
    }

    /** A margin of {@code millis}, 0 to {@value #MAX_MILLIS}. */
    public static OverrunMargin of(long millis) {
        if (millis < 0 || millis > MAX_MILLIS) {
            throw new IllegalArgumentException("an overrun margin is 0 to " + MAX_MILLIS + " ms, not " + millis);
        }
        return new OverrunMargin(millis);
    }

    public boolean byRule() {
        return millis < 0;
    }

    /** The chosen margin, milliseconds; only for a margin that is not {@link #BY_RULE}. */
    public long fixedMillis() {
        if (byRule()) {
            throw new IllegalStateException("a margin by rule has no fixed length");
        }
        return millis;
    }

    /** The margin in milliseconds for a side that plays under {@code control}. */
    public long millisFor(TimeControl control) {
        return byRule() ? rule(control) : millis;
    }

    /** The margin {@link #BY_RULE} gives {@code control}. */
    public static long rule(TimeControl control) {
        return switch (control.kind()) {
            case MOVETIME -> DefaultMargin.perMove(control.moveTimeMillis());
            case BYOYOMI -> DefaultMargin.perMove(control.byoyomiMillis());
            case FISCHER, SUDDEN_DEATH -> DefaultMargin.ownClock(control.incrementMillis());
            case NODES, DEPTH -> 0;
        };
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof OverrunMargin o && o.millis == millis;
    }

    @Override
    public int hashCode() {
        return Long.hashCode(millis);
    }

    /** {@code by rule} or {@code <n> ms}. */
    @Override
    public String toString() {
        return byRule() ? "by rule" : millis + " ms";
    }
}
