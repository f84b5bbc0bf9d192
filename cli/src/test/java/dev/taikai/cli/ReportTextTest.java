package dev.taikai.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The final report is a user's: intervals only where the results vary, counts in words, no internal figures. */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ReportTextTest {
    @Test
    void drawnGamesGiveNoIntervalAndTheRunsOwnFiguresWaitForVerbose(@TempDir Path dir) {
        String[] match = {
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
            "-games",
            "2",
            "-maxmoves",
            "3"
        };
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

        CliRun verbose = CliRun.of(
                concat(match, "--verbose", "-out", dir.resolve("verbose").toString()));
        assertEquals(0, verbose.exitCode(), verbose.err());
        assertTrue(verbose.out().contains("manager CPU"), verbose.out());
    }

    private static String[] concat(String[] first, String... more) {
        String[] all = java.util.Arrays.copyOf(first, first.length + more.length);
        System.arraycopy(more, 0, all, first.length, more.length);
        return all;
    }
}
