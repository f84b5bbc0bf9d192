package dev.taikai.tournament.run;

import dev.taikai.referee.game.GameAssignment;
import dev.taikai.referee.game.GameRecord;
import dev.taikai.tournament.Entrant;
import java.util.List;
import java.util.Map;

/**
 * How a format pairs its games. A fixed plan pairs everything at once; the others pair a round (or a
 * tiebreak) when every game paired before is counted, from the results counted so far, so that the same
 * results in any order within a round pair the same next round.
 */
interface Pairer {
    /**
     * The next games to play, called when every game paired so far is counted; empty when there is nothing
     * more to pair (the run is complete, or a league waits for engines).
     */
    List<GameAssignment> next();

    /** A game of this pairer's was counted. */
    void counted(GameAssignment game, GameRecord record);

    /** True when every game there will be has been paired and counted. */
    boolean complete();

    /** The line a finished run ends with ("all 12 games played"). */
    String finishedDetail();

    /** The entrant under {@code name}: the spec's, or one that joined a league. */
    Entrant entrant(String name);

    /**
     * The games the run will have played when it ends, as far as known now, given what the spec counts on
     * ({@code TournamentSpec.gamesExpected}, not 0): that by default; a knockout adds the tiebreaks paired so
     * far, a league counts its rounds to come from the pool as it is now (an engine taken out plays none).
     */
    default int gamesExpected(int fromTheSpec) {
        return fromTheSpec;
    }

    /** Lines the format adds to a run's report (a Swiss table, a bracket); none by default. */
    default List<String> summary() {
        return List.of();
    }

    /**
     * What {@link #summary} says, as plain values for the records (maps, lists, strings, numbers, null): a
     * Swiss table with its byes, a knockout bracket with its winner; empty by default.
     */
    default Map<String, Object> outcome() {
        return Map.of();
    }
}
