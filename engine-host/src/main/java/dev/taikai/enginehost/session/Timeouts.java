package dev.taikai.enginehost.session;

import java.time.Duration;

/**
 * Deadlines of an engine session, in milliseconds. A missed deadline is a stall: the session fails and
 * the engine is killed.
 *
 * @param handshakeMillis from starting the process to {@code usiok}
 * @param readyMillis from {@code isready} to {@code readyok} (the first one may load large files)
 * @param moveMarginMillis added to the time a {@code go} allows before a missing {@code bestmove} is a stall
 * @param unboundedSearchMillis how long {@code go nodes} and {@code go depth} may take
 * @param stopMillis from {@code stop} (or a ponder miss) to {@code bestmove}
 * @param quitMillis from {@code quit} to the process's exit, after which it is killed
 */
public record Timeouts(
        long handshakeMillis,
        long readyMillis,
        long moveMarginMillis,
        long unboundedSearchMillis,
        long stopMillis,
        long quitMillis) {
    public static final Timeouts DEFAULT = new Timeouts(10_000, 10_000, 1_000, 60_000, 2_000, 1_000);

    public Timeouts {
        if (handshakeMillis <= 0
                || readyMillis <= 0
                || moveMarginMillis < 0
                || unboundedSearchMillis <= 0
                || stopMillis <= 0
                || quitMillis < 0) {
            throw new IllegalArgumentException("timeouts must be positive");
        }
    }

    /** All deadlines as in the defaults but {@code handshake} and {@code ready}, for quick tests and checks. */
    public Timeouts withStartup(Duration handshake, Duration ready) {
        return new Timeouts(
                handshake.toMillis(),
                ready.toMillis(),
                moveMarginMillis,
                unboundedSearchMillis,
                stopMillis,
                quitMillis);
    }

    public Timeouts withMoveMargin(long millis) {
        return new Timeouts(handshakeMillis, readyMillis, millis, unboundedSearchMillis, stopMillis, quitMillis);
    }

    public Timeouts withUnboundedSearch(long millis) {
        return new Timeouts(handshakeMillis, readyMillis, moveMarginMillis, millis, stopMillis, quitMillis);
    }
}
