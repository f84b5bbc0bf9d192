package dev.taikai.cli.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** When a run's clocks are too tight for the cores it runs on, it says so before its first game. */
class CrowdedCoresTest {
    @TempDir
    Path dir;

    private Optional<String> warning(String settings, int cores) throws Exception {
        Files.writeString(
                dir.resolve("t.yaml"),
                "name: t\nvariant: minishogi\n" + settings + "\nengines:\n"
                        + Tournaments.fakeEntry("a", "--seed", "1")
                        + Tournaments.fakeEntry("b", "--seed", "2"));
        return CrowdedCores.warning(TournamentFile.read(dir.resolve("t.yaml")).spec(), cores);
    }

    @Test
    void aShortMoveTimeWithAGameForEveryCoreIsWarnedOfWithTheMarginAndTheConcurrencyThatLeavesACore() throws Exception {
        String warning =
                warning("time-control: movetime 0.05\nconcurrency: 2", 2).orElseThrow();
        assertTrue(warning.startsWith("concurrency 2 on 2 cores leaves no core"), warning);
        // both have that margin: both are named (one was, and the other lost and went unnamed)
        assertTrue(warning.contains("a and b may overrun their time by only 45 ms"), warning);
        assertTrue(warning.endsWith("-concurrency 1 leaves a core free"), warning);
    }

    @Test
    void aCoreLeftFreeOrAMarginAtTheFloorOrNoClockNeedsNoWarning() throws Exception {
        assertEquals(Optional.empty(), warning("time-control: movetime 0.05\nconcurrency: 2", 3));
        assertEquals(Optional.empty(), warning("time-control: movetime 1\nconcurrency: 2", 2));
        assertEquals(Optional.empty(), warning("time-control: nodes 1000\nconcurrency: 4", 2));
        // a concurrency above the games there are: two games cannot crowd three cores
        assertEquals(Optional.empty(), warning("time-control: movetime 0.05\nconcurrency: 3\ngames: 2", 3));
        assertTrue(warning("time-control: movetime 0.05\nconcurrency: 3\ngames: 2", 2)
                .orElseThrow()
                .startsWith("2 games at once (concurrency 3) on 2 cores leaves no core"));
    }

    @Test
    void aSmallMarginChosenByTheUserIsWarnedOfAtAnyControl() throws Exception {
        String warning = warning("time-control: 10+0.1\noverrun-margin-ms: 20\nconcurrency: 2", 2)
                .orElseThrow();
        assertTrue(warning.contains("by only 20 ms"), warning);
    }

    @Test
    void onlyTheEnginesWithTheLeastMarginAreNamed() throws Exception {
        Files.writeString(
                dir.resolve("t.yaml"),
                "name: t\nvariant: minishogi\ntime-control: movetime 0.05\nconcurrency: 2\nengines:\n"
                        + Tournaments.fakeEntry("a", "--seed", "1")
                        + Tournaments.fakeEntry("b", "--seed", "2")
                        + "    time-control: movetime 0.08\n");
        String warning = CrowdedCores.warning(
                        TournamentFile.read(dir.resolve("t.yaml")).spec(), 2)
                .orElseThrow();
        assertTrue(warning.contains(", and a may overrun its time by only 45 ms"), warning);
    }
}
