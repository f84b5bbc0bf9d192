package dev.taikai.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.taikai.testkit.Await;
import dev.taikai.testkit.Leaks;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** What 'taikai cluster up' does when a member dies while the cluster starts. */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class LocalClusterStartTest {
    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

    /**
     * The broker dies while the scheduler waits for it: the start ends at once (not at its two-minute
     * deadline) with one line naming the member, the reason and its log, exit code 1, and stops everything
     * it had started.
     */
    @Test
    void aMemberThatDiesWhileTheClusterStartsEndsTheStartInOneLineAndLeavesNothing(@TempDir Path dir) throws Exception {
        Path cluster = dir.resolve("cluster");
        Leaks leaks = Leaks.snapshot();
        String home = System.getProperty("taikai.home");
        System.setProperty("taikai.home", ROOT.toString());
        try {
            CompletableFuture<CliRun> up = CompletableFuture.supplyAsync(
                    () -> CliRun.of("cluster", "up", "--dir", cluster.toString(), "--workers", "1"));
            Await.until(
                    Duration.ofSeconds(120),
                    "the broker is up and the scheduler starting",
                    () -> Files.exists(cluster.resolve("scheduler.log")) || up.isDone());
            ProcessHandle broker = ProcessHandle.current()
                    .descendants()
                    .filter(p -> p.info().commandLine().orElse("").contains("kafka.Kafka"))
                    .findFirst()
                    .orElseThrow(() -> new AssertionError("no broker process: " + (up.isDone() ? up.join() : "")));
            long killed = System.nanoTime();
            broker.destroyForcibly();

            CliRun run = up.get(120, TimeUnit.SECONDS);
            long reacted = (System.nanoTime() - killed) / 1_000_000;
            assertEquals(1, run.exitCode(), run.err());
            assertEquals(
                    "taikai cluster up: failed: kafka: exited while the cluster was starting: killed by signal 9; see "
                            + cluster.resolve("kafka").resolve("broker.log")
                            + " (everything it had started is stopped)\n",
                    run.err());
            assertTrue(reacted < 60_000, "noticed without waiting for the start deadline: " + reacted + " ms");
            assertFalse(Files.exists(cluster.resolve("cluster.json")), "no cluster recorded");
            leaks.assertNoProcessesLeft(Duration.ofSeconds(60));
        } finally {
            if (home == null) {
                System.clearProperty("taikai.home");
            } else {
                System.setProperty("taikai.home", home);
            }
        }
    }
}
