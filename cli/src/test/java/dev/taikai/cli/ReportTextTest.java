package dev.taikai.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.taikai.cli.run.Tournaments;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The final report is a user's: intervals only where the results vary, counts in words, no internal figures. */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ReportTextTest {
    /** Two rounds of a match between two levels of the built-in engine, its games drawn after 3 moves. */
    private static final String[] MATCH = {
        "run",
        "-variant",
        "minishogi",
        "-engine",
        "conf=taikai-1",
        "-engine",
        "conf=taikai-2",
        "-each",
        "nodes=20",
        "-rounds",
        "2",
        "-maxmoves",
        "3"
    };

    @Test
    void drawnGamesGiveNoIntervalAndTheRunsOwnFiguresWaitForVerbose(@TempDir Path dir) throws Exception {
        String[] match = concat(MATCH, "-games", "2");
        CliRun plain = CliRun.of(concat(match, "-out", dir.resolve("plain").toString()));
        assertEquals(0, plain.exitCode(), plain.err());
        String report = plain.out();
        assertTrue(report.contains("Standings of taikai (minishogi, match, 4 games)"), report);
        assertTrue(report.contains("Elo difference: 0.0 (no interval: every one of the 4 games ended alike)"), report);
        assertTrue(report.contains("Pentanomial Elo: 0.0 (no interval: every one of the 2 pairs ended alike)"), report);
        assertTrue(report.contains("95% intervals of the fit"), "the standings say where theirs come from: " + report);
        assertFalse(report.contains("-0.0") || report.contains("± 0.0"), report);
        assertFalse(report.contains("manager CPU"), "benchmark figures only with --verbose: " + report);
        assertTrue(plain.err().contains("(6 plies)"), plain.err());
        JsonNode matchJson = Tournaments.results(dir.resolve("plain")).get("match");
        for (String key : List.of("elo_error", "elo_lower", "elo_upper", "pentanomial_elo_lower")) {
            assertTrue(matchJson.get(key).isNull(), "no interval in results.json either: " + key + " " + matchJson);
        }
        assertEquals("0.0", matchJson.get("elo").asText(), "not -0.0");
        assertFalse(matchJson.get("elo_interval").asBoolean(), matchJson.toString());
        assertFalse(matchJson.has("elo_infinite"), "a finite Elo: " + matchJson);

        CliRun verbose = CliRun.of(
                concat(match, "--verbose", "-out", dir.resolve("verbose").toString()));
        assertEquals(0, verbose.exitCode(), verbose.err());
        assertTrue(verbose.out().contains("manager CPU"), verbose.out());
    }

    /**
     * A match of one game a pairing has no pairs: it printed an empty pentanomial "over 0 pairs", which
     * looks like a count; with three, the odd game of each pairing is in no pair, and the line says so.
     */
    @Test
    void aMatchWithoutPairsSaysSoAndAnOddGameIsSaidToBeInNoPair(@TempDir Path dir) throws Exception {
        String[] match = MATCH;
        CliRun single = CliRun.of(
                concat(match, "-games", "1", "-out", dir.resolve("single").toString()));
        assertEquals(0, single.exitCode(), single.err());
        assertTrue(
                single.out()
                        .contains(
                                "  Pentanomial: no pairs (one game a pairing; -games 2 plays each opening with colours"
                                        + " swapped)\n"),
                single.out());
        assertFalse(single.out().contains("Pentanomial Elo"), single.out());
        String[] oneRound = MATCH.clone();
        oneRound[List.of(MATCH).indexOf("-rounds") + 1] = "1";
        CliRun three = CliRun.of(
                concat(oneRound, "-games", "3", "-out", dir.resolve("three").toString()));
        assertEquals(0, three.exitCode(), three.err());
        assertTrue(
                three.out().contains("over 1 pair (WL 0, DD 1); the last game of each pairing is in no pair\n"),
                "one pair, said so (it said 'over 1 pairs'): " + three.out());
    }

    /**
     * An engine without a game (the bye of a three-engine Swiss round) has no rating and comes last; it was
     * fitted with the others and ranked first, and every error read infinite.
     */
    @Test
    void anEngineWithoutAGameIsUnratedAndRankedLast(@TempDir Path dir) throws Exception {
        CliRun swiss = threeEngines("swiss", dir.resolve("swiss"), "-rounds", "1");
        assertEquals(0, swiss.exitCode(), swiss.err());
        List<String> rows = swiss.out()
                .lines()
                .dropWhile(line -> !line.startsWith("Rank"))
                .skip(1)
                .limit(3)
                .toList();
        assertTrue(rows.get(2).matches("\\s*3\\s+taikai-\\d\\s+0\\s+0\\.0\\s+0\\s+0\\s+0\\s+-\\s+-"), rows.toString());
        for (String rated : rows.subList(0, 2)) {
            assertFalse(rated.contains("inf") || rated.endsWith(" -"), rows.toString());
        }
        assertTrue(swiss.out().contains("; an engine without a game has none"), swiss.out());
        JsonNode standings = Tournaments.results(dir.resolve("swiss")).get("standings");
        assertTrue(standings.get(2).get("elo").isNull(), standings.toString());
        assertEquals(0, standings.get(2).get("games").asInt(), standings.toString());
        // the Swiss table, with its bye, is in the records too (it was printed only)
        JsonNode table = Tournaments.results(dir.resolve("swiss")).get("swiss");
        assertEquals(1, table.get("after_rounds").asInt(), table.toString());
        assertEquals(3, table.get("table").size(), table.toString());
        String byeTaker = standings.get(2).get("engine").asText();
        for (JsonNode row : table.get("table")) {
            assertEquals(
                    row.get("engine").asText().equals(byeTaker) ? 1 : 0,
                    row.get("byes").asInt(),
                    table.toString());
            assertTrue(
                    swiss.out()
                            .lines()
                            .anyMatch(l -> l.matches("\\s*" + row.get("rank").asInt() + "\\s+"
                                    + row.get("engine").asText() + "\\s+"
                                    + String.format(
                                            java.util.Locale.ROOT,
                                            "%.1f",
                                            row.get("score").asDouble()) + ".*")),
                    "the printed table's row: " + row + "\n" + swiss.out());
        }
    }

    /** A knockout's bracket and winner are in results.json, as printed; they were on standard output only. */
    @Test
    void aKnockoutsBracketAndWinnerAreInTheRecords(@TempDir Path dir) throws Exception {
        CliRun knockout = threeEngines("knockout", dir.resolve("knockout"));
        assertEquals(0, knockout.exitCode(), knockout.err());
        JsonNode bracket = Tournaments.results(dir.resolve("knockout")).get("knockout");
        assertEquals(2, bracket.get("rounds").size(), bracket.toString());
        JsonNode first = bracket.get("rounds").get(0);
        assertEquals(2, first.size(), "a bye and a match: " + bracket);
        assertTrue(first.get(0).get("low_seed").isNull(), "the best seed's bye: " + bracket);
        assertEquals("bye", first.get(0).get("how").asText(), bracket.toString());
        String winner = bracket.get("winner").asText();
        assertEquals(winner, bracket.get("rounds").get(1).get(0).get("winner").asText(), bracket.toString());
        assertTrue(knockout.out().contains("  Winner: " + winner + "\n"), knockout.out());
    }

    /** A run of {@code format} between three levels of the built-in engine, two games a pairing, into {@code out}. */
    private static CliRun threeEngines(String format, Path out, String... more) throws Exception {
        String[] run = {
            "run",
            "-variant",
            "minishogi",
            "-tournament",
            format,
            "-engine",
            "conf=taikai-1",
            "-engine",
            "conf=taikai-2",
            "-engine",
            "conf=taikai-3",
            "-each",
            "nodes=20",
            "-games",
            "2",
            "-out",
            out.toString()
        };
        return CliRun.of(concat(run, more));
    }

    private static String[] concat(String[] first, String... more) {
        String[] all = java.util.Arrays.copyOf(first, first.length + more.length);
        System.arraycopy(more, 0, all, first.length, more.length);
        return all;
    }
}
