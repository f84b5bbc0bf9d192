package dev.taikai.tournament.run;

/** What offering a finished game to a run did. */
public enum Counted {
    /** A new game of the run: it is in the standings now. */
    COUNTED,
    /** The same game id again (a replay, a duplicate delivery): ignored. */
    DUPLICATE,
    /** Not a game the run has paired, or paired with other colours: ignored. */
    UNKNOWN,
    /** A game of the run whose record does not hold up when replayed with the rules: counted nowhere. */
    REFUSED
}
