package dev.taikai.cli.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.taikai.enginehost.session.Timeouts;
import dev.taikai.rules.Game;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A gauntlet of fake engines in which every termination kind occurs, checked game by game. The seed
 * plays a script that fits each scenario's opening (moves that do not fit are skipped), so the rules'
 * endings come about for sure: mate, no legal move, repetition, perpetual check.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class TerminationsTournamentTest {
    /** The scripted moves: mate by a gold drop, stalemate, the gold shuffle (×3), the perpetual rook checks (×3). */
    private static final String SCRIPT =
            "G*1b,1d1c," + "4e4d,2a2b,4d4e,2b2a,".repeat(3) + "5e5d,1e1d,5d5e,1d1e,".repeat(3);

    private static final String START = "startpos";

    @Test
    void everyTerminationKindOccursAndIsRecordedAsJudged(@TempDir Path dir) throws Exception {
        Files.writeString(
                dir.resolve("openings.txt"),
                String.join(
                                "\n",
                                START,
                                START,
                                START,
                                START,
                                START,
                                "4k/2S2/4G/5/K4 b G 1",
                                "4k/2S2/5/4G/K4 b - 1",
                                START,
                                "4k/5/5/5/K3r b - 1",
                                START)
                        + "\n");
        Files.writeString(
                dir.resolve("tournament.yaml"),
                "name: terminations\nvariant: minishogi\nformat: gauntlet\n"
                        + "seeds: 1\nrounds: 1\ngames: 2\ntime-control: byoyomi 0.3\nrestart: always\nconcurrency: 1\n"
                        + "openings: {file: openings.txt, order: sequential}\n"
                        + "adjudication: {move-limit: 300, draw: {score: 10, moves: 3}}\n"
                        + "output: out\nengines:\n"
                        + Tournaments.fakeEntry("seed", "--think-ms", "0", "--script", SCRIPT, "--score", "5")
                        + Tournaments.fakeEntry("resigner", "--resign")
                        + Tournaments.fakeEntry("slowpoke", "--think-ms", "700")
                        + Tournaments.fakeEntry("cheater", "--illegal-move")
                        + Tournaments.fakeEntry("crasher", "--crash-on-go")
                        // silent under a node limit, which sets no time: a stall (under a clock, a loss on time)
                        + Tournaments.fakeEntry("sleeper", "--stall-after-go") + "    time-control: nodes 1\n"
                        + Tournaments.fakeEntry("mater", "--think-ms", "0", "--script", SCRIPT, "--score", "500")
                        + Tournaments.fakeEntry("stalemater", "--think-ms", "0", "--script", SCRIPT, "--score", "500")
                        + Tournaments.fakeEntry("repeater", "--think-ms", "0", "--script", SCRIPT, "--score", "500")
                        + Tournaments.fakeEntry("checker", "--think-ms", "0", "--script", SCRIPT, "--score", "500")
                        + Tournaments.fakeEntry("drawer", "--think-ms", "0", "--score", "-3"));
        RunPlan plan = TournamentFile.read(dir.resolve("tournament.yaml"));
        // the sleeper's searches end in a stall after the unbounded-search deadline: 3 s instead of 60
        Tournaments.Run run = Tournaments.run(plan, new Timeouts(10_000, 10_000, 1_000, 3_000, 1_000, 1_000));
        assertEquals(LocalRunner.Ending.FINISHED, run.ending(), run.progress());

        // opponent -> what both games of its pair end with, and who loses: the opponent, or the side to move first
        Map<String, String[]> expected = Map.of(
                "resigner", new String[] {"resignation", "opponent"},
                "slowpoke", new String[] {"time_forfeit", "opponent"},
                "cheater", new String[] {"illegal_move", "opponent"},
                "crasher", new String[] {"disconnect", "opponent"},
                "sleeper", new String[] {"stall", "opponent"},
                "mater", new String[] {"checkmate", "gote"},
                "stalemater", new String[] {"stalemate", "gote"},
                "repeater", new String[] {"repetition", "sente"},
                "checker", new String[] {"perpetual_check", "gote"},
                "drawer", new String[] {"adjudication", "nobody"});
        JsonNode results = Tournaments.results(plan.output());
        Set<String> seen = new HashSet<>();
        Map<String, Double> points = new HashMap<>();
        assertEquals(20, results.get("games").size());
        for (JsonNode game : results.get("games")) {
            String opponent = game.get("sente").asText().equals("seed")
                    ? game.get("gote").asText()
                    : game.get("sente").asText();
            String[] want = expected.get(opponent);
            assertEquals(want[0], game.get("termination").asText(), game.toString());
            String loser = switch (want[1]) {
                case "opponent" -> opponent;
                case "sente" -> game.get("sente").asText();
                case "gote" -> game.get("gote").asText();
                default -> null;
            };
            String result = game.get("result").asText();
            if (loser == null) {
                assertEquals("draw", result, game.toString());
            } else {
                assertEquals(loser.equals(game.get("sente").asText()) ? "gote" : "sente", result, game.toString());
            }
            seen.add(want[0]);
            Game replay = Tournaments.replay(game);
            assertEquals(game.get("plies").asInt(), replay.plies());
            if (replay.isOver()) {
                assertEquals(
                        game.get("termination").asText(),
                        replay.outcome().orElseThrow().termination().name().toLowerCase());
            }
            points.merge(
                    "seed",
                    result.equals("draw")
                            ? 0.5
                            : (result.equals("sente")
                                            == game.get("sente").asText().equals("seed")
                                    ? 1.0
                                    : 0.0),
                    Double::sum);
            String kif = Files.readString(
                    plan.output().resolve("games").resolve(game.get("id").asText() + ".kif"));
            String ending = kif.lines()
                    .filter(line -> line.matches(" *\\d+ [^ (]+"))
                    .reduce((first, second) -> second)
                    .map(line -> line.trim().split(" ")[1])
                    .orElse("none");
            Set<String> words = switch (game.get("termination").asText()) {
                case "checkmate", "stalemate" -> Set.of("詰み");
                case "resignation" -> Set.of("投了");
                case "repetition" -> Set.of("千日手");
                case "time_forfeit" -> Set.of("時間切れ");
                case "illegal_move", "stall", "disconnect" -> Set.of("反則負け");
                case "perpetual_check" -> Set.of("反則勝ち");
                default -> result.equals("draw") ? Set.of("持将棋") : Set.of("投了", "none");
            };
            assertTrue(words.contains(ending), game.get("termination") + " ends the KIF with " + ending + ":\n" + kif);
        }
        assertEquals(10, seen.size(), "every termination kind: " + seen);

        JsonNode seed = null;
        for (JsonNode row : results.get("standings")) {
            if (row.get("engine").asText().equals("seed")) {
                seed = row;
            }
        }
        assertEquals(15.0, points.get("seed"));
        assertEquals(15.0, seed.get("points").asDouble());
        assertEquals(
                List.of(14, 2, 4),
                List.of(
                        seed.get("wins").asInt(),
                        seed.get("draws").asInt(),
                        seed.get("losses").asInt()));
        assertEquals(1, seed.get("rank").asInt());
        assertEquals(20, Tournaments.journal(plan.output()).size());
        assertTrue(run.out().contains("Standings of terminations"), run.out());
        assertTrue(run.out().contains("Terminations"), run.out());
    }
}
