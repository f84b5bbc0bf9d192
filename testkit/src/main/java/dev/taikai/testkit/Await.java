package dev.taikai.testkit;

import java.time.Duration;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * Waiting in tests for a condition, never for a fixed time: the condition is polled until it holds or
 * the deadline passes. The deadline is generous on purpose (a loaded machine is slow, not wrong); a
 * condition that holds returns at once, so a generous deadline costs nothing when all is well.
 */
public final class Await {
    private static final long POLL_MILLIS = 10;

    private Await() {}

    /**
     * Polls {@code condition} until it is true.
     *
     * @throws AssertionError naming {@code what} when it is still false after {@code within}
     */
    public static void until(Duration within, String what, BooleanSupplier condition) {
        long deadline = System.nanoTime() + within.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("not within " + describe(within) + ": " + what);
            }
            pause();
        }
    }

    /**
     * Polls {@code condition} until it is true, then returns; on timeout the message also shows the last
     * value of {@code state}, so a failure says where things stood.
     */
    public static void until(Duration within, String what, BooleanSupplier condition, Supplier<?> state) {
        try {
            until(within, what, condition);
        } catch (AssertionError e) {
            throw new AssertionError(e.getMessage() + " (last seen: " + state.get() + ")", e);
        }
    }

    /** Sleeps one polling interval; an interrupt ends the wait with an error. */
    public static void pause() {
        try {
            Thread.sleep(POLL_MILLIS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted while waiting", e);
        }
    }

    private static String describe(Duration within) {
        return within.toMillis() % 1000 == 0 ? within.toSeconds() + " s" : within.toMillis() + " ms";
    }
}
