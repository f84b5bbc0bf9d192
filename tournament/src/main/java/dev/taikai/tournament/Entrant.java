package dev.taikai.tournament;

import dev.taikai.enginehost.catalog.EngineText;
import dev.taikai.referee.game.OverrunMargin;
import dev.taikai.referee.game.TimeControl;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A participant: its name in the tournament, the catalog id of the engine it runs with USI options set
 * over the catalog's, its time control (the tournament's unless the entrant has its own), its overrun
 * margin (null: the tournament's) and, in a league, the rounds it plays in.
 */
public record Entrant(
        String name,
        String engineId,
        Map<String, String> options,
        TimeControl timeControl,
        OverrunMargin overrunMargin,
        Rounds rounds) {
    /**
     * The rounds of a league an entrant is in the pool for: from round {@code from} (1: the first) to
     * round {@code until} (0: to the end). It joins before round {@code from} and leaves after round
     * {@code until}, as a join and a leave over the league's API would.
     */
    public record Rounds(int from, int until) {
        /** Every round. */
        public static final Rounds ALL = new Rounds(1, 0);

        public Rounds {
            if (from < 1 || until < 0 || (until > 0 && until < from)) {
                throw new IllegalArgumentException(
                        "an engine's rounds are from round 1 or later until a round no earlier (0: the end), not "
                                + from + " to " + until);
            }
        }

        /** True when the engine plays in {@code round}. */
        public boolean includes(int round) {
            return from <= round && (until == 0 || round <= until);
        }
    }

    /** Checks what will reach the engine and the records as {@link EngineText} checks it. */
    public Entrant {
        EngineText.name("entrant name", name);
        EngineText.name("entrant '" + name + "' engine", engineId);
        options = Collections.unmodifiableMap(
                new LinkedHashMap<>(EngineText.options("entrant '" + name + "' options", options)));
        java.util.Objects.requireNonNull(rounds, "rounds");
    }

    /** An entrant in every round. */
    public Entrant(
            String name,
            String engineId,
            Map<String, String> options,
            TimeControl timeControl,
            OverrunMargin overrunMargin) {
        this(name, engineId, options, timeControl, overrunMargin, Rounds.ALL);
    }

    /** An entrant with the tournament's overrun margin. */
    public Entrant(String name, String engineId, Map<String, String> options, TimeControl timeControl) {
        this(name, engineId, options, timeControl, null);
    }

    /** An entrant that runs its catalog engine as the catalog sets it up. */
    public Entrant(String name, String engineId, TimeControl timeControl) {
        this(name, engineId, Map.of(), timeControl);
    }

    /** The margin of this entrant's moves: its own, else {@code tournament}'s, for its time control. */
    public long marginMillis(OverrunMargin tournament) {
        return (overrunMargin != null ? overrunMargin : tournament).millisFor(timeControl);
    }
}
