package dev.taikai.enginehost.host;

import dev.taikai.enginehost.session.EngineFailure;

/** What a host reports as it lends out engines: the hook for logs and metrics. Called on any thread. */
public interface HostListener {
    HostListener NONE = new HostListener() {};

    default void sessionOpened(String engineId) {}

    default void sessionClosed(String engineId) {}

    /** An engine failed to start or during a session (crash, stall, protocol error). */
    default void engineFailed(String engineId, EngineFailure failure) {}
}
