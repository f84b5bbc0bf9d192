package dev.taikai.cli.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.taikai.enginehost.session.Timeouts;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

@Timeout(value = 300, unit = TimeUnit.SECONDS)
class SprtAndRealEnginesTest {
    @Test
    void sprtStopsTheMatchWhenABoundIsCrossed(@TempDir Path dir) throws Exception {
        Files.writeString(
                dir.resolve("sprt.yaml"),
                "name: sprt\nvariant: minishogi\nformat: match\nrounds: 100\ngames: 2\n"
                        + "time-control: nodes 1\nconcurrency: 1\noutput: out\n"
                        + "sprt: {elo0: -0.25, elo1: 10, alpha: 0.045, beta: 0.05}\nengines:\n"
                        + Tournaments.fakeEntry("candidate", "--think-ms", "0")
                        + Tournaments.fakeEntry("baseline", "--think-ms", "0", "--resign"));
        RunPlan plan = TournamentFile.read(dir.resolve("sprt.yaml"));
        Tournaments.Run run = Tournaments.run(plan, Timeouts.DEFAULT);
        assertEquals(LocalRunner.Ending.SPRT_CONCLUDED, run.ending(), run.progress());
        assertTrue(run.progress().contains("SPRT concluded after"), run.progress());
        JsonNode match = Tournaments.results(plan.output()).get("match");
        assertEquals("H1", match.get("sprt").get("status").asText());
        assertTrue(match.get("sprt").get("llr").asDouble()
                >= match.get("sprt").get("upper_bound").asDouble());
        int games = Tournaments.results(plan.output()).get("games").size();
        assertTrue(games < 200 && games % 2 == 0, "stopped early after whole pairs: " + games);
        // the test as given (rounded to one place, it read [-0.3, 10.0]), and alpha and beta in the file too
        assertTrue(run.out().contains("SPRT [-0.25, 10.0] (normalized Elo, alpha 0.045, beta 0.05)"), run.out());
        assertEquals(0.045, match.get("sprt").get("alpha").asDouble());
        assertEquals(0.05, match.get("sprt").get("beta").asDouble());
        assertTrue(run.out().contains("H1 accepted"), run.out());
    }

    /** A real round robin with Debian's Fairy-Stockfish at a fast time control: clean games, legal records. */
    @ParameterizedTest
    @ValueSource(strings = {"minishogi", "kyotoshogi"})
    void fairyStockfishRoundRobin(String variant, @TempDir Path dir) throws Exception {
        requireFairyStockfish();
        Files.writeString(
                dir.resolve("rr.yaml"),
                "name: fsf-" + variant + "\nvariant: " + variant
                        + "\nformat: round-robin\nrounds: 1\ngames: 2\ntime-control: 1 byoyomi 0.05\nconcurrency: 1\noutput: out\n"
                        + "engines:\n  - fairy-stockfish\n"
                        + "  - {id: fsf-skill-5, command: fairy-stockfish, options: {Skill Level: 5}, quirks: [swapped-clocks]}\n"
                        + "  - {id: fsf-skill-10, command: fairy-stockfish, options: {Skill Level: 10}, quirks: [swapped-clocks]}\n");
        RunPlan plan = TournamentFile.read(dir.resolve("rr.yaml"));
        Tournaments.Run run = Tournaments.run(plan, Timeouts.DEFAULT);
        assertEquals(LocalRunner.Ending.FINISHED, run.ending(), run.progress());
        JsonNode results = Tournaments.results(plan.output());
        assertEquals(6, results.get("games").size());
        for (JsonNode game : results.get("games")) {
            String termination = game.get("termination").asText();
            assertTrue(
                    !termination.equals("illegal_move")
                            && !termination.equals("stall")
                            && !termination.equals("disconnect")
                            && !termination.equals("time_forfeit"),
                    game.toString());
            assertEquals(game.get("plies").asInt(), Tournaments.replay(game).plies(), "replays legally");
        }
    }

    private static void requireFairyStockfish() {
        String path = System.getenv().getOrDefault("PATH", "") + File.pathSeparator + "/usr/games";
        for (String dir : path.split(File.pathSeparator)) {
            if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, "fairy-stockfish"))) {
                return;
            }
        }
        if (Boolean.getBoolean("taikai.requireFairyStockfish")) {
            throw new AssertionError("fairy-stockfish is not installed");
        }
        Assumptions.abort("fairy-stockfish is not installed (apt-get install fairy-stockfish)");
    }
}
