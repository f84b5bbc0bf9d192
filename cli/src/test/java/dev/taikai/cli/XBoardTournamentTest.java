package dev.taikai.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.taikai.cli.run.Tournaments;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * USI and XBoard engines in one tournament under one referee, through {@code taikai run}: Debian's CrazyWa
 * against Fairy-Stockfish in both variants, Sjaak II against both in Minishogi, from the start and from
 * the shipped opening suites (so {@code setboard} is played), every record replayed by {@code taikai
 * positions}.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class XBoardTournamentTest {
    @Test
    void crazyWaSjaakIIAndFairyStockfishPlayMinishogi(@TempDir Path dir) throws Exception {
        requireEngines();
        play(dir, "minishogi", "[crazywa, fairy-stockfish, sjaakii]", 6);
    }

    @Test
    void crazyWaAndFairyStockfishPlayKyotoShogi(@TempDir Path dir) throws Exception {
        requireEngines();
        play(dir, "kyotoshogi", "[crazywa, fairy-stockfish]", 2);
    }

    /** A round robin from the start, then one from the suite's openings; {@code games} a run. */
    private static void play(Path dir, String variant, String engines, int games) throws Exception {
        Path suite =
                Path.of("..", "openings", variant + ".txt").toAbsolutePath().normalize();
        for (String openings : List.of("", "openings: {file: '" + suite + "', order: random}\n")) {
            String name = variant + (openings.isEmpty() ? "-start" : "-openings");
            Path file = dir.resolve(name + ".yaml");
            Files.writeString(
                    file,
                    "name: " + name + "\nvariant: " + variant + "\nformat: round-robin\nrounds: 1\ngames: 2\n"
                            // a loaded machine can stall an honest move past the default 90 ms margin (seen:
                            // 230 ms of 100); this test is about the protocols, so a late move must not end a game
                            + "time-control: movetime 0.1\noverrun-margin-ms: 2000\nconcurrency: 2\nseed: 7\n"
                            + "adjudication: {move-limit: 60}\n"
                            + "output: out-" + name + "\n" + openings + "engines: " + engines + "\n");
            CliRun run = CliRun.of("run", file.toString());
            assertEquals(0, run.exitCode(), run.err() + run.out());
            Path out = dir.resolve("out-" + name);
            JsonNode results = Tournaments.results(out);
            assertEquals(games, results.get("games").size(), run.out());
            StringBuilder positions = new StringBuilder();
            Set<String> players = new HashSet<>();
            List<Integer> plies = new ArrayList<>();
            for (JsonNode game : results.get("games")) {
                String termination = game.get("termination").asText();
                assertTrue(
                        Set.of("checkmate", "stalemate", "repetition", "perpetual_check", "resignation", "adjudication")
                                .contains(termination),
                        "a clean ending: " + game.get("detail").asText() + " in "
                                + game.get("id").asText());
                players.add(game.get("sente").asText());
                players.add(game.get("gote").asText());
                List<String> moves = new ArrayList<>();
                game.get("moves").forEach(m -> moves.add(m.asText()));
                positions
                        .append(variant)
                        .append('\t')
                        .append(game.get("start_sfen").asText())
                        .append('\t')
                        .append(String.join(" ", moves))
                        .append('\n');
                plies.add(moves.size());
                assertTrue(
                        Files.exists(out.resolve("games").resolve(game.get("id").asText() + ".kif")));
                if (!openings.isEmpty()) {
                    assertTrue(
                            !game.get("start_sfen").asText().equals(startOf(variant)),
                            "an opening of the suite, not the start: "
                                    + game.get("start_sfen").asText());
                }
            }
            assertTrue(players.contains("crazywa") && players.contains("fairy-stockfish"), players.toString());
            CliRun replay = CliRun.withInput(positions.toString(), "positions");
            assertEquals(0, replay.exitCode(), replay.err());
            List<String> lines = replay.outLines();
            assertEquals(plies.size(), lines.size(), replay.out());
            for (int i = 0; i < lines.size(); i++) {
                JsonNode line = new ObjectMapper().readTree(lines.get(i));
                assertTrue(line.get("error").isNull(), lines.get(i));
                assertEquals(plies.get(i).intValue(), line.get("moves_applied").asInt(), lines.get(i));
            }
        }
    }

    private static String startOf(String variant) {
        return variant.equals("minishogi") ? "rbsgk/4p/5/P4/KGSBR b - 1" : "p+nks+l/5/5/5/+LSK+NP b - 1";
    }

    private static void requireEngines() {
        for (String program : List.of("fairy-stockfish", "crazywa", "sjaakii")) {
            if (!Files.isExecutable(Path.of("/usr/games", program))) {
                String message = program + " is not installed (apt-get install " + program + ")";
                if (Boolean.getBoolean("taikai.requireXBoardEngines")) {
                    throw new AssertionError(message);
                }
                Assumptions.abort(message);
            }
        }
    }
}
