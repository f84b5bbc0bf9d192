package dev.taikai.tournament;

import dev.taikai.enginehost.catalog.EngineText;
import dev.taikai.referee.game.OverrunMargin;
import dev.taikai.referee.game.TimeControl;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A participant: its name in the tournament, the catalog id of the engine it runs with USI options set
 * over the catalog's, its time control (the tournament's unless the entrant has its own) and its overrun
 * margin (null: the tournament's).
 */
public record Entrant(
        String name,
        String engineId,
        Map<String, String> options,
        TimeControl timeControl,
        OverrunMargin overrunMargin) {
    /** Checks what will reach the engine and the records as {@link EngineText} checks it. */
    public Entrant {
        EngineText.name("entrant name", name);
        EngineText.name("entrant '" + name + "' engine", engineId);
        options = Collections.unmodifiableMap(
                new LinkedHashMap<>(EngineText.options("entrant '" + name + "' options", options)));
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
