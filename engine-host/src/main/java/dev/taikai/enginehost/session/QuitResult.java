package dev.taikai.enginehost.session;

import java.util.List;

/**
 * How an engine took its {@code quit}.
 *
 * @param exited whether the engine exited by itself within the quit deadline
 * @param exitNanos from sending {@code quit} to its exit (or to the deadline)
 * @param leftBehind processes of the engine still alive after it exited, killed when the session closes
 */
public record QuitResult(boolean exited, long exitNanos, List<Long> leftBehind) {
    public QuitResult {
        leftBehind = List.copyOf(leftBehind);
    }
}
