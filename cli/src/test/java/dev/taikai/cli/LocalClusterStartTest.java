package dev.taikai.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.taikai.enginehost.session.ProcessTable;
import dev.taikai.testkit.Await;
import dev.taikai.testkit.Leaks;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** What 'taikai cluster up' does when a member dies, or it is stopped itself, while the cluster starts. */
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
                    .filter(p -> p.info()
                            .commandLine()
                            .orElse("")
                            .contains(" " + dev.taikai.deploy.ReloadingBroker.class.getName() + " "))
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

    /**
     * Every service starts in a session of its own (so Linux's autogroup scheduling gives each its own share
     * of the CPU, as each engine has), out of reach of the terminal's Ctrl-C; a Ctrl-C (SIGINT) to 'taikai
     * cluster up' while it starts still stops everything it had started.
     */
    @Test
    void aCtrlCWhileTheClusterStartsStopsTheServicesThatRunInSessionsOfTheirOwn(@TempDir Path dir) throws Exception {
        Path cluster = dir.resolve("cluster");
        List<ProcessHandle> started = new ArrayList<>();
        Process up = new ProcessBuilder(
                        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                        "-Dtaikai.home=" + ROOT,
                        "-cp",
                        System.getProperty("java.class.path"),
                        "dev.taikai.cli.Taikai",
                        "cluster",
                        "up",
                        "--dir",
                        cluster.toString(),
                        "--workers",
                        "1")
                .redirectErrorStream(true)
                .redirectOutput(dir.resolve("up.log").toFile())
                .start();
        try {
            Await.until(
                    Duration.ofSeconds(120),
                    "the broker is up and the scheduler starting",
                    () -> Files.exists(cluster.resolve("scheduler.log")) || !up.isAlive());
            assertTrue(up.isAlive(), Files.readString(dir.resolve("up.log")));
            started.addAll(up.descendants().toList());
            assertFalse(started.isEmpty(), "no service started");
            long ownSession = ProcessTable.session(ProcessHandle.current().pid());
            for (ProcessHandle service : started) {
                // a service caught as it starts is still the JVM's spawn helper or setsid, in our session,
                // for a moment: it must reach a session of its own (or be gone), not be in one at once
                Await.until(
                        Duration.ofSeconds(30),
                        "a session of its own",
                        () -> ProcessTable.session(service.pid()) == service.pid() || !service.isAlive(),
                        () -> service.info().commandLine().orElse("?") + " is in session "
                                + ProcessTable.session(service.pid()));
                assertTrue(ProcessTable.session(service.pid()) != ownSession, service.toString());
            }

            assertEquals(
                    0,
                    new ProcessBuilder("kill", "-INT", Long.toString(up.pid()))
                            .start()
                            .waitFor());
            assertTrue(up.waitFor(60, TimeUnit.SECONDS), "'cluster up' ends on a Ctrl-C");
            assertEquals(130, up.exitValue(), "the exit code of a Ctrl-C");
            String said = Files.readString(dir.resolve("up.log"));
            assertTrue(
                    said.contains("taikai cluster up: interrupted; stopping the [kafka")
                            && said.contains("it had started (no cluster is recorded in " + cluster + ")"),
                    said);
            Await.until(
                    Duration.ofSeconds(60),
                    "every service it had started is gone",
                    () -> started.stream().noneMatch(ProcessHandle::isAlive),
                    () -> started.stream()
                            .filter(ProcessHandle::isAlive)
                            .map(p -> p.info().commandLine().orElse("?"))
                            .toList()
                            .toString());
            assertFalse(Files.exists(cluster.resolve("cluster.json")), "no cluster recorded");
        } finally {
            // what a failed check left: the services outlive 'up' (their own sessions) and are no longer its
            // descendants then
            up.descendants().forEach(ProcessHandle::destroyForcibly);
            up.destroyForcibly();
            started.forEach(ProcessHandle::destroyForcibly);
        }
    }
}
