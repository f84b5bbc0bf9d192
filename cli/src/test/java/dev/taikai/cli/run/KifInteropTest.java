package dev.taikai.cli.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.taikai.enginehost.session.Timeouts;
import dev.taikai.rules.Notation;
import dev.taikai.rules.Position;
import dev.taikai.rules.Sfen;
import dev.taikai.rules.Usi;
import dev.taikai.rules.Variant;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Every KIF record of a Fairy-Stockfish round robin, read back by lishogi's own parser and rules (the npm
 * package shogiops, installed by the test command into {@code src/test/node}): the header names the
 * variant, every move parses and is legal, and the position after the last move is the referee's.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class KifInteropTest {
    private static final Path NODE_DIR = Path.of("src", "test", "node");

    @ParameterizedTest
    @ValueSource(strings = {"minishogi", "kyotoshogi"})
    void lishogiReplaysEveryRecordToTheEnd(String variantName, @TempDir Path dir) throws Exception {
        assertTrue(
                Files.isDirectory(NODE_DIR.resolve("node_modules/shogiops")),
                "shogiops is not installed: ./run-tests installs it (or: npm install --prefix cli/src/test/node)");
        RunPlan plan = CutechessArguments.parse(List.of(
                "-variant",
                variantName,
                "-engine",
                "conf=fairy-stockfish",
                "name=fsf-a",
                "-engine",
                "conf=fairy-stockfish",
                "name=fsf-b",
                "option.Skill Level=5",
                "-engine",
                "conf=taikai-2",
                "-each",
                "nodes=3000",
                "-openings",
                "file=../openings/" + variantName + ".txt",
                "order=random",
                "-rounds",
                "1",
                "-games",
                "2",
                "-concurrency",
                "2",
                "-out",
                dir.resolve("out").toString()));
        int plies = playAndReplay(plan, variantName, 6);
        System.out.printf("kif: lishogi replayed 6 %s records to the end, %d moves in all%n", variantName, plies);
    }

    /**
     * Games from a position with pieces in hand: the board diagram's hands must read in lishogi. Kyoto's
     * hand pieces are named by the face lishogi gives them (と 金 銀 歩, not the lance and knight they
     * flip to): with 香 and 桂 shogiops read the header as the start position, and the first move was
     * illegal there.
     */
    @ParameterizedTest
    @ValueSource(strings = {"kyotoshogi|2k2/5/1+L1+N1/5/2K2 w LNSPsp 1", "minishogi|2k2/5/1G1S1/5/2K2 w RBGSPbp 1"})
    void handsInTheBoardDiagramReadInLishogi(String line, @TempDir Path dir) throws Exception {
        String variantName = line.split("\\|")[0];
        Files.writeString(dir.resolve("hands.txt"), line.split("\\|")[1] + "\n");
        RunPlan plan = CutechessArguments.parse(List.of(
                ("-variant " + variantName + " -engine conf=taikai-1 -engine conf=taikai-2 -each depth=1 -rounds 1"
                                + " -games 2 -concurrency 1 -openings file=" + dir.resolve("hands.txt") + " -out "
                                + dir.resolve("out"))
                        .split(" ")));
        playAndReplay(plan, variantName, 2);
    }

    /** Plays {@code plan}, which has {@code games} games, and has lishogi replay each KIF; the moves in all. */
    private static int playAndReplay(RunPlan plan, String variantName, int games) throws Exception {
        Tournaments.Run run = Tournaments.run(plan, Timeouts.DEFAULT);
        assertEquals(LocalRunner.Ending.FINISHED, run.ending(), run.progress());

        JsonNode results = Tournaments.results(plan.output());
        Map<String, JsonNode> replayed = replay(plan.output().resolve("games"));
        assertEquals(games, results.get("games").size());
        assertEquals(games, replayed.size(), replayed.keySet().toString());
        Variant variant = Variant.byName(variantName).orElseThrow();
        int plies = 0;
        for (JsonNode game : results.get("games")) {
            JsonNode lishogi = replayed.get(game.get("id").asText());
            assertNull(
                    lishogi.get("error").isNull() ? null : lishogi.get("error").asText(), lishogi.toString());
            assertEquals(variantName, lishogi.get("rules").asText(), "the header names the variant");
            String kif = Files.readString(Path.of(lishogi.get("file").asText()), StandardCharsets.UTF_8);
            // the opening's book moves come first in the record, from the opening's own position
            String opening = game.get("opening").asText();
            int book = opening.contains(" moves ") ? opening.split(" moves ")[1].split(" ").length : 0;
            assertEquals(
                    book + game.get("plies").asInt(),
                    lishogi.get("moves").asInt(),
                    "every move read, the book's first: " + lishogi + "\n" + kif);
            assertEquals(book, kif.lines().filter("*book"::equals).count(), kif);
            assertEquals(
                    !opening.startsWith(Position.start(variant).toSfen()),
                    kif.contains("+---------------+"),
                    "a board only for a start other than the variant's: " + kif);
            Position end = Sfen.parse(variant, game.get("start_sfen").asText());
            for (JsonNode move : game.get("moves")) {
                end = end.play(Usi.parse(end, move.asText(), Notation.FAIRY_STOCKFISH));
            }
            assertEquals(
                    boardAndSide(end.toSfen(Notation.LISHOGI)),
                    boardAndSide(lishogi.get("sfen").asText()),
                    game.get("id").asText());
            plies += game.get("plies").asInt();
        }
        return plies;
    }

    /** The KIF replay of each record, by game id (the file name). */
    private static Map<String, JsonNode> replay(Path games) throws Exception {
        List<String> command = new ArrayList<>(
                List.of("node", NODE_DIR.resolve("replay-kif.mjs").toString()));
        try (Stream<Path> kifs = Files.list(games)) {
            kifs.filter(p -> p.toString().endsWith(".kif"))
                    .map(Path::toString)
                    .sorted()
                    .forEach(command::add);
        }
        Process node = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(node.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(node.waitFor(60, TimeUnit.SECONDS), "node did not finish");
        assertEquals(0, node.exitValue(), output);
        Map<String, JsonNode> byGame = new HashMap<>();
        ObjectMapper mapper = new ObjectMapper();
        for (String line : output.split("\n")) {
            JsonNode replay = mapper.readTree(line);
            String file = Path.of(replay.get("file").asText()).getFileName().toString();
            byGame.put(file.substring(0, file.length() - ".kif".length()), replay);
        }
        return byGame;
    }

    /** The board, side to move and hands of an SFEN (each hand's letters sorted: writers order them apart). */
    private static List<String> boardAndSide(String sfen) {
        String[] fields = sfen.split(" ");
        char[] hands = fields[2].toCharArray();
        Arrays.sort(hands);
        return List.of(fields[0], fields[1], new String(hands));
    }
}
