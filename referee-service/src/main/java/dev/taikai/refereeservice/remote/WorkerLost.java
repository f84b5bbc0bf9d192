package dev.taikai.refereeservice.remote;

/**
 * The worker behind a session is gone or stopped answering: an infrastructure fault, not the engine's.
 * A game that meets it is abandoned unrecorded and played again from the start under the same id.
 */
public final class WorkerLost extends RuntimeException {
    public WorkerLost(String message) {
        super(message);
    }

    public WorkerLost(String message, Throwable cause) {
        super(message, cause);
    }
}
