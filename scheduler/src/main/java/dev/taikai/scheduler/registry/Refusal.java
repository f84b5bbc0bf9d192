package dev.taikai.scheduler.registry;

/**
 * Why the scheduler refuses a request: a closed set of reasons, each mapped once to a gRPC status (in
 * {@code SchedulerService}) and once to an HTTP code (in {@code TournamentResource}), so that both APIs
 * answer the same refusal the same way. The message is one line a user can act on.
 */
public final class Refusal extends RuntimeException {
    /** The reasons, with what each API answers. */
    public enum Reason {
        /** The request is not well formed or names what cannot be: 400, INVALID_ARGUMENT. */
        INVALID,
        /** A name or id is in use already: 409, ALREADY_EXISTS. */
        CONFLICT,
        /** The tournament has stopped and cannot change: 409, FAILED_PRECONDITION. */
        STOPPED,
        /** The scheduler cannot serve it now (still reading Kafka, Kafka unreachable); try again: 503, UNAVAILABLE. */
        UNAVAILABLE
    }

    private final Reason reason;

    public Refusal(Reason reason, String message) {
        super(message, null, false, false);
        this.reason = reason;
    }

    public Reason reason() {
        return reason;
    }
}
