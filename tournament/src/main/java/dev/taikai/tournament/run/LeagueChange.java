package dev.taikai.tournament.run;

import dev.taikai.tournament.Entrant;

/**
 * An engine joining or leaving a league, stamped with the round it takes effect with: replaying the same
 * changes and the same results pairs the same rounds.
 *
 * @param name the engine's name in the league
 * @param entrant the engine that joins; null for a leave
 * @param beforeRound the first round paired with the change applied
 */
public record LeagueChange(String name, Entrant entrant, int beforeRound) {
    public boolean leave() {
        return entrant == null;
    }
}
