package dev.taikai.scheduler.tournament;

import dev.taikai.referee.game.TimeControl;

/**
 * A participant: its name in the tournament, the catalog id of the engine it runs, and its time
 * control (the tournament's unless the entrant has its own).
 */
public record Entrant(String name, String engineId, TimeControl timeControl) {}
