package dev.taikai.cli.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.taikai.enginehost.usi.Timeouts;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * An engine that exits at once (a real program, /bin/true) forfeits its first games and then stops the
 * run with the reason (Ending.ABORTED: exit code 1), instead of losing every game of the run.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class StartFailureTest {
    @Test
    void anEngineThatNeverStartsStopsTheRunAfterThreeGames(@TempDir Path dir) throws Exception {
        Path trueCommand = Files.exists(Path.of("/usr/bin/true")) ? Path.of("/usr/bin/true") : Path.of("/bin/true");
        RunPlan plan = CutechessArguments.parse(List.of(
                "-variant",
                "minishogi",
                "-engine",
                "name=quitter",
                "cmd=" + trueCommand,
                "-engine",
                "conf=taikai-1",
                "-each",
                "st=0.1",
                "-rounds",
                "10",
                "-concurrency",
                "1",
                "-out",
                dir.resolve("out").toString()));
        Tournaments.Run run = Tournaments.run(plan, Timeouts.DEFAULT);
        assertEquals(LocalRunner.Ending.ABORTED, run.ending(), run.progress());
        assertTrue(
                run.progress().contains("stopped: engine 'quitter' did not start in its last 3 games ("),
                run.progress());
        assertEquals(3, Tournaments.journal(dir.resolve("out")).size(), "three forfeits, then nothing more");
    }
}
