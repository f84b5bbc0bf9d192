package dev.taikai.tournament.run;

/** Why a run hands out no more games, with the line a user reads. */
public record Stop(Kind kind, String detail) {
    /** The ways a run stops. */
    public enum Kind {
        /** Every game there is to play is counted. */
        FINISHED,
        /** The SPRT crossed a bound. */
        SPRT_CONCLUDED,
        /** A user stopped it. */
        CANCELLED,
        /** It cannot go on (an engine that can never start, a fault of the runner). */
        ABORTED
    }
}
