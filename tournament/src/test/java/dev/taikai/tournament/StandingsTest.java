package dev.taikai.tournament;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.taikai.referee.game.GameAssignment;
import dev.taikai.referee.game.GameRecord;
import dev.taikai.rules.Outcome;
import dev.taikai.rules.Result;
import dev.taikai.rules.Termination;
import dev.taikai.tournament.stats.Pentanomial;
import dev.taikai.tournament.stats.Wdl;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class StandingsTest {
    private final List<GameAssignment> plan =
            Schedule.plan(ScheduleTest.spec(Format.ROUND_ROBIN, 3, 0, 1, 2, List.of(), false, 1));

    private GameRecord record(int index, Result result, Termination termination) {
        return new GameRecord(
                plan.get(index),
                "rbsgk/4p/5/P4/KGSBR b - 1",
                List.of(),
                new Outcome(result, termination, "test"),
                0,
                0,
                0);
    }

    @Test
    void gamesCountOnceByIdAndFeedEveryStatistic() {
        // e0-e1: e0 wins as sente, then a draw; e0-e2: e2 wins both; e1-e2: each wins as sente
        Standings standings = new Standings(List.of("e0", "e1", "e2"));
        assertTrue(standings.add(record(0, Result.SENTE_WINS, Termination.CHECKMATE)));
        assertTrue(standings.add(record(1, Result.DRAW, Termination.REPETITION)));
        assertFalse(
                standings.add(record(0, Result.GOTE_WINS, Termination.CHECKMATE)), "the same id again counts nothing");
        standings.add(record(2, Result.GOTE_WINS, Termination.TIME_FORFEIT));
        standings.add(record(3, Result.SENTE_WINS, Termination.RESIGNATION));
        standings.add(record(4, Result.SENTE_WINS, Termination.ILLEGAL_MOVE));
        standings.add(record(5, Result.SENTE_WINS, Termination.ADJUDICATION));

        assertEquals(6, standings.gamesPlayed());
        assertEquals(new Wdl(1, 1, 2), standings.wdl("e0"));
        assertEquals(new Wdl(1, 1, 0), standings.between("e0", "e1"));
        assertEquals(new Pentanomial(0, 0, 0, 0, 1, 0), standings.pentanomial("e0", "e1"));
        assertEquals(new Pentanomial(1, 0, 0, 0, 0, 0), standings.pentanomial("e0", "e2"));
        assertEquals(new Pentanomial(0, 0, 0, 1, 0, 0), standings.pentanomial("e1", "e2"));

        assertEquals(
                Map.of(
                        Termination.CHECKMATE,
                        1,
                        Termination.REPETITION,
                        1,
                        Termination.TIME_FORFEIT,
                        1,
                        Termination.RESIGNATION,
                        1),
                standings.terminations("e0"),
                "e0 lost on time and resigned");
        assertEquals(
                Map.of(Termination.CHECKMATE, 1, Termination.REPETITION, 1, Termination.ADJUDICATION, 1),
                standings.terminations("e1"),
                "e1's opponent made the illegal move");

        // e0 and e1 both score 1.5 of 4 against the same field: equal ratings and points, so entrant order decides
        List<Standings.Row> table = standings.table();
        assertEquals(table.get(1).elo(), table.get(2).elo(), 0.05);
        assertEquals(
                List.of("e2", "e0", "e1"),
                table.stream().map(Standings.Row::engine).toList());
        assertEquals(1, table.get(0).rank());
        assertEquals(3.0, table.get(0).points());
        assertEquals(0, table.stream().mapToDouble(Standings.Row::elo).sum(), 1e-6, "ratings centred on 0");
    }
}
