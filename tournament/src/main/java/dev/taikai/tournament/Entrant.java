package dev.taikai.tournament;

import dev.taikai.referee.game.TimeControl;
import java.util.Map;

/**
 * A participant: its name in the tournament, the catalog id of the engine it runs with USI options set
 * over the catalog's, and its time control (the tournament's unless the entrant has its own).
 */
public record Entrant(String name, String engineId, Map<String, String> options, TimeControl timeControl) {
    public Entrant {
        options = Map.copyOf(options);
    }

    /** An entrant that runs its catalog engine as the catalog sets it up. */
    public Entrant(String name, String engineId, TimeControl timeControl) {
        this(name, engineId, Map.of(), timeControl);
    }
}
