package dev.taikai.cli.run;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.taikai.referee.game.Adjudication;
import dev.taikai.referee.game.GameAssignment;
import dev.taikai.referee.game.GameRecord;
import dev.taikai.referee.game.Opening;
import dev.taikai.referee.game.TimeControl;
import dev.taikai.rules.Outcome;
import dev.taikai.rules.Position;
import dev.taikai.rules.Result;
import dev.taikai.rules.Termination;
import dev.taikai.rules.Variant;
import dev.taikai.tournament.Standings;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The printed report's tables hold every engine with games: a league's later joins too, not only the file's. */
class ReportTablesTest {
    @Test
    void anEngineThatJoinedLaterHasItsTerminationsAndClocks() throws Exception {
        RunPlan plan = CutechessArguments.parse(
                List.of("-variant", "minishogi", "-engine", "conf=taikai-1", "-engine", "conf=taikai-2"));
        Standings standings = new Standings(List.of("taikai-1", "taikai-2"));
        TimeControl tc = TimeControl.byoyomi(0, 1000);
        GameAssignment game = new GameAssignment(
                "r1-p1-g1",
                1,
                1,
                1,
                Variant.MINISHOGI,
                "taikai-1",
                "joiner",
                Opening.start(Position.start(Variant.MINISHOGI)),
                tc,
                tc,
                100,
                100,
                Adjudication.DEFAULT);
        standings.add(new GameRecord(
                game,
                Position.start(Variant.MINISHOGI).toSfen(),
                List.of(),
                new Outcome(Result.SENTE_WINS, Termination.TIME_FORFEIT, "gote (joiner) made no move in time"),
                1,
                2,
                5_000_000));
        StringWriter text = new StringWriter();
        Report.print(new PrintWriter(text), plan.spec(), standings);
        String report = text.toString();
        String terminations = report.substring(report.indexOf("\nTerminations"), report.indexOf("\nClocks"));
        String clocks = report.substring(report.indexOf("\nClocks"));
        assertTrue(terminations.contains("  joiner  "), report);
        assertTrue(clocks.lines().anyMatch(line -> line.startsWith("  joiner ") && line.endsWith(" 1")), report);
        assertTrue(clocks.contains("Warning: joiner lost 1 of 1 games on time"), report);
    }
}
