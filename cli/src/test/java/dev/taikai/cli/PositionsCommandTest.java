package dev.taikai.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class PositionsCommandTest {
    @Test
    void reportsTheFinalPosition() {
        CliRun run = CliRun.withInput("minishogi\tstartpos\t5d5c 1b1c\n", "positions");
        assertEquals(0, run.exitCode(), run.err());
        assertEquals(
                List.of("{\"sfen\":\"rbsgk/5/P3p/5/KGSBR b - 3\",\"turn\":\"b\",\"in_check\":false,"
                        + "\"status\":\"ongoing\",\"winner\":null,\"moves_applied\":2,\"error\":null,"
                        + "\"legal\":[\"1e1c\",\"1e1d\",\"2e1d\",\"2e3d\",\"2e4c\",\"2e5b\",\"3e2d\",\"3e3d\","
                        + "\"3e4d\",\"4e3d\",\"4e4d\",\"4e5d\",\"5c5b\",\"5e4d\",\"5e5d\"]}"),
                run.outLines());
    }

    @Test
    void oneLinePerInputLineWhateverHappens() {
        String input = String.join(
                "\n",
                "kyotoshogi\t4k/2S2/4+N/5/K4 b P 1\tP*1b",
                "minishogi\t4k/2S2/4G/5/K4 b P 1\tP*1b 1a2b",
                "kyotoshogi\tstartpos\t3e3d 3a3b 3d3e 3b3a 3e3d 3a3b 3d3e 3b3a 1e1d+",
                "minishogi\tR3k/5/5/5/4K w - 1\t1a1b 5a5b 1b1a 5b5a 1a1b 5a5b 1b1a 5b5a 1a1b 5a5b 1b1a 5b5a",
                "chess\tstartpos\t",
                "minishogi\tnot an sfen\t",
                "just one field",
                "",
                "kyotoshogi\tpgkst/5/5/5/TSKGP b - 1\t5e4d+",
                "minishogi\tstartpos");
        CliRun run = CliRun.withInput(input + "\n", "positions", "--perft", "1");
        assertEquals(0, run.exitCode(), run.err());
        List<String> lines = run.outLines();
        assertEquals(10, lines.size(), run.out());
        assertTrue(
                lines.get(0).contains("\"status\":\"checkmate\",\"winner\":\"b\",\"moves_applied\":1"), lines.get(0));
        assertTrue(lines.get(0).endsWith("\"legal\":[],\"perft\":{\"depth\":1,\"nodes\":0}}"), lines.get(0));
        assertTrue(
                lines.get(1).contains("\"moves_applied\":0,\"error\":\"move 1: illegal move P*1b: uchifuzume"),
                lines.get(1));
        assertTrue(
                lines.get(2).contains("\"status\":\"repetition\",\"winner\":null,\"moves_applied\":8"), lines.get(2));
        assertTrue(lines.get(2).contains("\"error\":\"move 9 '1e1d+' comes after the game ended (repetition)\""));
        assertTrue(lines.get(2).contains("\"perft\":{\"depth\":1,\"nodes\":12}"), "perft ignores repetition");
        assertTrue(lines.get(3).contains("\"status\":\"perpetual_check\",\"winner\":\"w\""), lines.get(3));
        assertTrue(lines.get(4).contains("\"error\":\"unknown variant 'chess'"), lines.get(4));
        assertTrue(lines.get(5).contains("\"sfen\":null") && lines.get(5).contains("invalid Minishogi SFEN"));
        assertTrue(lines.get(6).contains("found 1 tab-separated field\""), lines.get(6));
        assertTrue(lines.get(7).contains("found 1 tab-separated field\""), lines.get(7));
        assertTrue(lines.get(8).startsWith("{\"sfen\":\"p+nks+l/5/5/1L3/1SK+NP w - 2\""), lines.get(8));
        assertTrue(lines.get(9).contains("\"moves_applied\":0,\"error\":null"), lines.get(9));
    }

    @Test
    void lishogiOutputOnRequest() {
        CliRun run = CliRun.withInput("kyotoshogi\tstartpos\t5e4d-\n", "positions", "--notation", "lishogi");
        assertTrue(run.out().startsWith("{\"sfen\":\"pgkst/5/5/1L3/1SKGP w - 2\""), run.out());
        assertTrue(run.out().contains("\"1a2b+\""), run.out());
    }

    @Test
    void tenThousandLinesInOneProcess() {
        StringBuilder input = new StringBuilder();
        for (int i = 0; i < 10_000; i++) {
            input.append(i % 2 == 0 ? "minishogi\tstartpos\t5d5c 1b1c 5c5b\n" : "kyotoshogi\tstartpos\t1e1d+ 5a5b+\n");
        }
        CliRun run = CliRun.withInput(input.toString(), "positions");
        assertEquals(0, run.exitCode(), run.err());
        List<String> lines = run.outLines();
        assertEquals(10_000, lines.size());
        assertTrue(lines.get(0).contains("\"moves_applied\":3,\"error\":null"), lines.get(0));
        assertTrue(lines.get(9_999).contains("\"moves_applied\":2,\"error\":null"), lines.get(9_999));
    }

    @Test
    void aHugeLineIsReportedNotLoaded() {
        String huge = "minishogi\tstartpos\t" + "5d5c ".repeat(PositionsCommand.MAX_LINE_CHARS / 5 + 10);
        CliRun run = CliRun.withInput(huge + "\nminishogi\tstartpos\t\n", "positions");
        List<String> lines = run.outLines();
        assertEquals(2, lines.size());
        assertTrue(lines.get(0).contains("line longer than"), lines.get(0));
        assertTrue(lines.get(1).contains("\"error\":null"), lines.get(1));
    }

    @Test
    void controlCharactersAreEscapedInJson() {
        CliRun run = CliRun.withInput("minishogi\tstartpos\t5d\u0001c\n", "positions");
        assertTrue(run.out().contains("\\\\x01"), run.out());
        assertTrue(run.out().trim().endsWith("}"), run.out());
    }

    @Test
    void aByteOrderMarkBeforeTheFirstLineIsSkipped() {
        CliRun run = CliRun.withInput("\uFEFFminishogi\tstartpos\t5d5c\n", "positions");
        assertTrue(run.out().contains("\"moves_applied\":1,\"error\":null"), run.out());
    }

    @Test
    void onlySpacesSeparateMoves() {
        CliRun run = CliRun.withInput(
                "minishogi\tstartpos\t  5d5c   1b1c \nminishogi\tstartpos\t5d5c\u000b1b1c\n", "positions");
        List<String> lines = run.outLines();
        assertEquals(2, lines.size(), run.out());
        assertTrue(lines.get(0).contains("\"moves_applied\":2,\"error\":null"), lines.get(0));
        assertTrue(lines.get(1).contains("\"moves_applied\":0,\"error\":\"move 1: not a USI move"), lines.get(1));
    }

    @Test
    void aMissingFileIsAUsageError() {
        CliRun run = CliRun.of("positions", "/no/such/file.tsv");
        assertEquals(2, run.exitCode());
        assertTrue(run.err().contains("cannot read /no/such/file.tsv"), run.err());
    }
}
