package dev.taikai.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class PerftCommandTest {
    @Test
    void lastLineIsTheNodeCount() {
        CliRun run = CliRun.of("perft", "minishogi", "3");
        assertEquals(0, run.exitCode(), run.err());
        assertEquals(List.of("nodes 2512"), run.outLines());
    }

    @Test
    void divideListsEveryRootMoveSortedThenTheTotal() {
        CliRun run = CliRun.of("perft", "kyotoshogi", "2", "--divide");
        assertEquals(0, run.exitCode(), run.err());
        List<String> lines = run.outLines();
        assertEquals(13, lines.size());
        assertEquals("nodes 137", lines.get(12));
        List<String> moves = new ArrayList<>();
        long sum = 0;
        for (String line : lines.subList(0, 12)) {
            String[] parts = line.split(" ");
            moves.add(parts[0]);
            sum += Long.parseLong(parts[1]);
        }
        assertEquals(137, sum);
        List<String> sorted = new ArrayList<>(moves);
        sorted.sort(null);
        assertEquals(sorted, moves);
        assertTrue(moves.contains("5e4d-"), moves.toString());
    }

    @Test
    void lishogiNotationOnRequest() {
        CliRun run = CliRun.of("perft", "kyotoshogi", "1", "--divide", "--notation", "lishogi");
        assertTrue(run.outLines().contains("5e4d+ 1"), run.out());
        assertFalse(run.out().contains("-"), run.out());
    }

    @Test
    void startsFromAnSfenInEitherNotationAfterMoves() {
        assertEquals(
                List.of("nodes 1636"),
                CliRun.of("perft", "kyotoshogi", "3", "--sfen", "pgkst/5/5/5/TSKGP b - 1")
                        .outLines());
        CliRun afterMoves = CliRun.of("perft", "minishogi", "1", "--moves", "5d5c", "1b1c", "--divide");
        assertEquals(0, afterMoves.exitCode(), afterMoves.err());
        assertTrue(afterMoves.outLines().contains("5c5b 1"), afterMoves.out());
        CliRun depthLast = CliRun.of("perft", "minishogi", "--moves", "5d5c", "1b1c", "1", "--divide");
        assertEquals(0, depthLast.exitCode(), depthLast.err());
        assertEquals(afterMoves.outLines(), depthLast.outLines());
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            quoteCharacter = '"',
            value = {
                "perft chess 1 | unknown variant 'chess'; use one of minishogi, kyotoshogi",
                "perft minishogi deep | Invalid value for positional parameter at index 1 (DEPTH)",
                "perft minishogi -1 | depth must be between 0 and 12",
                "perft minishogi 3 --sfen rbsgk/4p/5/P4 | invalid Minishogi SFEN",
                "perft minishogi 3 --moves 5e5f | move 1: not a USI move: '5e5f'",
                "perft minishogi 3 --moves 5d5c 5c5b | move 2: illegal move 5c5b: the piece on 5c is not gote's",
                "perft minishogi 1 --moves 4e4d 2a2b 4d4e 2b2a 4e4d 2a2b 4d4e 2b2a 4e4d 2a2b 4d4e 2b2a 4e4d"
                        + " | move 13 '4e4d' comes after the game ended (fourth occurrence of the position",
                "perft minishogi 3 --notation kif | unknown notation 'kif'",
                "perft minishogi | Missing required parameter: 'DEPTH'",
                "perft minishogi 2 --moves --divide | --moves needs at least one USI move",
                "frobnicate | Unmatched argument at index 0: 'frobnicate'",
            })
    void badInputIsExitCodeTwoWithAMessageAndNoStackTrace(String commandLine, String message) {
        CliRun run = CliRun.of(commandLine.split(" "));
        assertEquals(2, run.exitCode());
        assertTrue(run.err().contains(message), run.err());
        assertFalse(run.err().contains("Exception"), run.err());
        assertFalse(run.err().contains("\tat "), run.err());
        assertEquals("", run.out());
    }

    /** An empty --sfen (an unset shell variable) counted the start position; positions refuses it. */
    @Test
    void anEmptySfenIsRefused() {
        CliRun run = CliRun.of("perft", "minishogi", "1", "--sfen", "");
        assertEquals(2, run.exitCode(), run.out());
        assertTrue(run.err().contains("--sfen is empty; give an SFEN, or startpos for the variant's start"), run.err());
        assertEquals("", run.out());
        assertEquals(
                "nodes 14",
                CliRun.of("perft", "minishogi", "1", "--sfen", "startpos")
                        .outLines()
                        .get(0));
    }

    @Test
    void helpIsAvailableEverywhere() {
        CliRun root = CliRun.of("--help");
        assertEquals(0, root.exitCode());
        assertTrue(root.out().contains("perft") && root.out().contains("positions"), root.out());
        for (String command : List.of("perft", "positions")) {
            CliRun help = CliRun.of(command, "--help");
            assertEquals(0, help.exitCode());
            assertTrue(help.out().contains("Usage: taikai " + command), help.out());
        }
        CliRun negative = CliRun.of("cluster", "submit", "--concurrency", "-5", "t.yaml");
        assertEquals(2, negative.exitCode(), negative.err());
        assertTrue(negative.err().contains("--concurrency is a number of games at once"), negative.err());
        for (String[] missing : List.of(new String[0], new String[] {"cluster"})) {
            CliRun none = CliRun.of(missing);
            assertEquals(2, none.exitCode(), "no command is bad usage: " + List.of(missing));
            assertTrue(none.err().startsWith("Usage: taikai "), none.err());
            assertEquals("", none.out());
        }
    }
}
