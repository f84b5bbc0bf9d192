package dev.taikai.rules;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Golden games in {@code src/test/resources/golden}, one per end rule, each named by the rule it pins
 * and explaining in its header why the expected result holds.
 */
class GoldenGamesTest {
    static Stream<Path> games() throws IOException, URISyntaxException {
        Path dir = Path.of(GoldenGamesTest.class.getResource("/golden").toURI());
        List<Path> files;
        try (Stream<Path> listing = Files.list(dir)) {
            files = listing.filter(p -> p.toString().endsWith(".game")).sorted().toList();
        }
        assertFalse(files.isEmpty());
        return files.stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("games")
    void gameEndsAsRecorded(Path file) throws Exception {
        Map<String, String> spec = new HashMap<>();
        for (String line : Files.readAllLines(file)) {
            if (!line.isBlank() && !line.startsWith("#")) {
                int space = line.indexOf(' ');
                spec.put(line.substring(0, space), line.substring(space + 1).trim());
            }
        }
        Variant variant = Variant.byName(spec.get("variant")).orElseThrow();
        Position start =
                spec.get("start").equals("startpos") ? Position.start(variant) : Sfen.parse(variant, spec.get("start"));
        Game game = new Game(start);
        String error = null;
        for (String move : spec.get("moves").split(" ")) {
            if (game.isOver()) {
                error = "move " + move + " comes after the game ended";
                break;
            }
            try {
                game.play(move);
            } catch (MoveException e) {
                error = e.getMessage();
                break;
            }
        }

        assertEquals(Integer.parseInt(spec.get("moves_applied")), game.plies(), "moves applied");
        String status = game.outcome()
                .map(o -> o.termination().name().toLowerCase(java.util.Locale.ROOT))
                .orElse("ongoing");
        assertEquals(spec.get("status"), status);
        String winner = game.outcome()
                .map(o ->
                        o.winner() == null ? "null" : String.valueOf(o.winner().sfenLetter()))
                .orElse("null");
        assertEquals(spec.get("winner"), winner);
        if (spec.containsKey("error")) {
            assertNotNull(error, "expected an error containing '" + spec.get("error") + "'");
            assertTrue(error.contains(spec.get("error")), error);
        } else {
            assertNull(error);
        }
    }
}
