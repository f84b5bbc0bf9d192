package dev.taikai.cli.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.taikai.enginehost.session.Timeouts;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The clock policy with real fake-engine processes: under default settings an engine that answers a few
 * milliseconds late keeps playing and one that takes twice its time loses every game on time; a margin
 * given to one engine is that engine's only; every move's overrun is in the records and the report.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class ClockPolicyTest {
    private static final Timeouts TIMEOUTS = new Timeouts(10_000, 10_000, 1_000, 10_000, 1_000, 1_000);

    @Test
    void aFewMillisecondsLateIsNoLossUnderDefaultsButTwiceTheTimeIs(@TempDir Path dir) throws Exception {
        Files.writeString(
                dir.resolve("t.yaml"),
                "name: clocks\nvariant: minishogi\nformat: round-robin\nrounds: 1\ngames: 2\n"
                        + "time-control: movetime 0.1\nconcurrency: 1\nadjudication: {move-limit: 8}\n"
                        + "output: out\nengines:\n"
                        + Tournaments.fakeEntry("punctual", "--seed", "1", "--think-ms", "106")
                        + Tournaments.fakeEntry("double", "--seed", "2", "--think-ms", "200")
                        + Tournaments.fakeEntry("quick", "--seed", "3", "--think-ms", "5"));
        RunPlan plan = TournamentFile.read(dir.resolve("t.yaml"));
        Tournaments.Run run = Tournaments.run(plan, TIMEOUTS);
        assertEquals(LocalRunner.Ending.FINISHED, run.ending(), run.progress());

        JsonNode results = Tournaments.results(plan.output());
        Map<String, Integer> timeLosses = new HashMap<>();
        double punctualOverrun = 0;
        for (JsonNode game : results.get("games")) {
            String loser = game.get("result").asText().equals("sente")
                    ? game.get("gote").asText()
                    : game.get("result").asText().equals("gote")
                            ? game.get("sente").asText()
                            : null;
            if (game.get("termination").asText().equals("time_forfeit")) {
                timeLosses.merge(loser, 1, Integer::sum);
                assertTrue(game.get("time_loss_overrun_ms").asDouble() > 90, game.toString());
                assertTrue(
                        game.get("detail")
                                .asText()
                                .matches(".* ms allowed \\(and a margin of 90 ms"
                                        + "(, with \\d+\\.\\d ms waiting for a CPU not counted)?\\)"),
                        game.get("detail").asText());
            }
            assertEquals(
                    90, game.get("time_control").get("sente_overrun_margin_ms").asInt(), "the default");
            boolean senteFirst = true;
            JsonNode data = game.get("move_data");
            for (int ply = 0; ply < data.size(); ply++) {
                String mover = (ply % 2 == 0) == senteFirst
                        ? game.get("sente").asText()
                        : game.get("gote").asText();
                assertEquals(
                        100.0,
                        data.get(ply).get("allowed_ms").asDouble(),
                        data.get(ply).toString());
                double overrun = data.get(ply).get("overrun_ms").asDouble();
                assertEquals(
                        Math.max(0, data.get(ply).get("time_ms").asDouble() - 100),
                        overrun,
                        0.002,
                        "overrun = used - allowed");
                if (mover.equals("punctual")) {
                    punctualOverrun = Math.max(punctualOverrun, overrun);
                }
            }
        }
        assertEquals(null, timeLosses.get("punctual"), "late by a few ms: no loss under defaults " + timeLosses);
        assertEquals(4, timeLosses.get("double"), "twice its time: every game lost on time");
        assertTrue(punctualOverrun > 0, "the records carry punctual's overruns");

        JsonNode punctual = row(results, "punctual").get("clock");
        assertEquals(0, punctual.get("time_losses").asInt());
        assertTrue(punctual.get("moves_over_allowance").asInt() > 0, punctual.toString());
        assertEquals(4, row(results, "double").get("clock").get("time_losses").asInt());
        assertTrue(run.out().contains("Clocks ("), run.out());
        assertTrue(
                run.out().contains("Warning: double lost 4 of 4 games on time (100.0%); under an overrun margin of "),
                run.out());
        assertFalse(run.out().contains("Warning: punctual"), run.out());
    }

    /**
     * An engine that never answers loses on time with no move: the report named a margin under which "none of
     * those moves would have lost" (the time the referee waited for it), and results.json kept it as the
     * saving margin; no margin saves a move that never came.
     */
    @Test
    void aTimeLossWithoutAMoveIsNotOneAMarginWouldSave(@TempDir Path dir) throws Exception {
        Files.writeString(
                dir.resolve("t.yaml"),
                "name: silent\nvariant: minishogi\nformat: gauntlet\nrounds: 1\ngames: 2\n"
                        + "time-control: movetime 0.1\nconcurrency: 1\noutput: out\nengines:\n"
                        + Tournaments.fakeEntry("quick", "--seed", "3", "--think-ms", "5")
                        + Tournaments.fakeEntry("silent", "--stall-after-go"));
        RunPlan plan = TournamentFile.read(dir.resolve("t.yaml"));
        Tournaments.Run run = Tournaments.run(plan, TIMEOUTS);
        JsonNode results = Tournaments.results(plan.output());
        JsonNode clock = row(results, "silent").get("clock");
        assertEquals(2, clock.get("time_losses").asInt(), clock.toString());
        assertEquals(2, clock.get("time_losses_without_a_move").asInt(), clock.toString());
        assertFalse(clock.has("saving_margin_ms"), clock.toString());
        for (JsonNode game : results.get("games")) {
            assertEquals("time_forfeit", game.get("termination").asText(), game.toString());
            assertFalse(game.has("time_loss_overrun_ms"), game.toString());
        }
        assertTrue(
                run.out()
                        .contains("Warning: silent lost 2 of 2 games on time (100.0%); it made no move in any of them,"
                                + " so no overrun margin would have saved them"),
                run.out());
    }

    @Test
    void aMarginGivenToOneEngineIsThatEnginesOnly(@TempDir Path dir) throws Exception {
        Files.writeString(
                dir.resolve("t.yaml"),
                "name: margins\nvariant: minishogi\nformat: match\nrounds: 1\ngames: 2\n"
                        + "time-control: movetime 0.1\noverrun-margin-ms: 0\nconcurrency: 1\n"
                        + "adjudication: {move-limit: 8}\noutput: out\nengines:\n"
                        + Tournaments.fakeEntry("late-with-margin", "--seed", "1", "--think-ms", "110")
                                .replaceFirst("\n", "\n    overrun-margin-ms: 60\n")
                        + Tournaments.fakeEntry("late-without", "--seed", "2", "--think-ms", "110"));
        RunPlan plan = TournamentFile.read(dir.resolve("t.yaml"));
        Tournaments.Run run = Tournaments.run(plan, TIMEOUTS);
        assertEquals(LocalRunner.Ending.FINISHED, run.ending(), run.progress());
        JsonNode results = Tournaments.results(plan.output());
        assertEquals(2, results.get("games").size());
        for (JsonNode game : results.get("games")) {
            assertEquals("time_forfeit", game.get("termination").asText(), game.toString());
            String winner = game.get("result").asText().equals("sente")
                    ? game.get("sente").asText()
                    : game.get("gote").asText();
            assertEquals("late-with-margin", winner, game.get("detail").asText());
            boolean withIsSente = game.get("sente").asText().equals("late-with-margin");
            assertEquals(
                    60,
                    game.get("time_control")
                            .get(withIsSente ? "sente_overrun_margin_ms" : "gote_overrun_margin_ms")
                            .asInt());
            assertEquals(
                    0,
                    game.get("time_control")
                            .get(withIsSente ? "gote_overrun_margin_ms" : "sente_overrun_margin_ms")
                            .asInt());
        }
    }

    /**
     * An engine that searches by CPU time on a CPU it shares with another program takes longer than its
     * clock allows, and past the margin: the time it waited for the CPU is not counted against it. An engine
     * that sleeps twice its time on the same crowded CPU still loses every game, since it never wanted
     * the CPU.
     */
    @Test
    void timeWaitingForACpuIsNotCountedButSleepingIs(@TempDir Path dir) throws Exception {
        // The hog has a session of its own, as every engine has (setsid): with Linux's autogroup, CPU time is
        // shared by session first, so the hog and the crowded engine (with its JVM's own threads) share CPU 0.
        // The crowded engine then takes 400-500 ms for 170 ms of computing (measured on 2 cores, quiet and
        // beside two other busy sessions), past its 200 ms and 100 ms margin, and waits most of the rest:
        // excused. It would lose only past 600 ms (where the excuse stops at allowance plus margin), and go
        // unexcused only under 300 ms.
        Process hog = new ProcessBuilder("setsid", "taskset", "-c", "0", "sh", "-c", "while :; do :; done").start();
        try {
            Files.writeString(
                    dir.resolve("t.yaml"),
                    "name: crowded\nvariant: minishogi\nformat: round-robin\nrounds: 1\ngames: 2\n"
                            + "time-control: movetime 0.2\nconcurrency: 1\nadjudication: {move-limit: 8}\n"
                            + "output: out\nengines:\n"
                            + pinned(Tournaments.fakeEntry("crowded", "--seed", "1", "--compute-ms", "170"))
                            + pinned(Tournaments.fakeEntry("sleeper", "--seed", "2", "--think-ms", "400"))
                            + Tournaments.fakeEntry("steady", "--seed", "3", "--think-ms", "20"));
            RunPlan plan = TournamentFile.read(dir.resolve("t.yaml"));
            Tournaments.Run run = Tournaments.run(plan, TIMEOUTS);
            assertEquals(LocalRunner.Ending.FINISHED, run.ending(), run.progress());
            JsonNode results = Tournaments.results(plan.output());
            double crowdedOverrun = 0;
            double crowdedWait = 0;
            for (JsonNode game : results.get("games")) {
                boolean crowdedSente = game.get("sente").asText().equals("crowded");
                boolean crowdedGote = game.get("gote").asText().equals("crowded");
                JsonNode data = game.get("move_data");
                for (int ply = crowdedSente ? 0 : 1; (crowdedSente || crowdedGote) && ply < data.size(); ply += 2) {
                    crowdedOverrun = Math.max(
                            crowdedOverrun, data.get(ply).get("overrun_ms").asDouble());
                    crowdedWait = Math.max(
                            crowdedWait, data.get(ply).get("cpu_wait_ms").asDouble());
                }
            }
            JsonNode crowded = row(results, "crowded").get("clock");
            assertEquals(0, crowded.get("time_losses").asInt(), run.out());
            assertTrue(crowdedOverrun > 100, "past its 100 ms margin: " + crowdedOverrun + " ms\n" + run.out());
            assertTrue(crowdedWait > 0, "the records carry the wait");
            assertTrue(crowded.get("moves_excused_for_cpu_wait").asInt() > 0, crowded.toString());
            assertTrue(run.out().contains("only while the engine or the manager waited for a CPU"), run.out());
            assertEquals(
                    4, row(results, "sleeper").get("clock").get("time_losses").asInt(), run.out());
            System.out.printf(
                    "clock: crowded engine at most %.1f ms past its time with at most %.1f ms waiting for a CPU;"
                            + " %d moves past the margin excused, no time loss; the sleeper lost 4 of 4%n",
                    crowdedOverrun,
                    crowdedWait,
                    crowded.get("moves_excused_for_cpu_wait").asInt());
        } finally {
            hog.destroyForcibly();
        }
    }

    /** A catalog entry run through {@code taskset -c 0}: on the CPU the test crowds. */
    private static String pinned(String entry) {
        return entry.replaceFirst(
                "    command: '([^']*)'\n    args:\n",
                "    command: 'taskset'\n    args:\n      - '-c'\n      - '0'\n      - '$1'\n");
    }

    private static JsonNode row(JsonNode results, String engine) {
        for (JsonNode row : results.get("standings")) {
            if (row.get("engine").asText().equals(engine)) {
                return row;
            }
        }
        throw new AssertionError("no row for " + engine);
    }
}
