package dev.taikai.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A cluster whose folder was damaged: a cluster.json cut short or emptied made 'status' and 'down' fail
 * with a Jackson error or a NullPointerException while its processes ran on, and a TLS cluster whose CA
 * was gone told the user to run 'down', which failed the same way.
 */
class ClusterDamagedRecordTest {
    /** A Java process standing in for a member: its tokens file is in {@code folder}, as a service's is. */
    private static Process member(Path folder) throws Exception {
        Path source = folder.getParent().resolve("Idle.java");
        Files.writeString(
                source,
                "class Idle { public static void main(String[] a) throws Exception { Thread.sleep(600_000); } }");
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        return new ProcessBuilder(
                        java.toString(),
                        "-Dtaikai.auth.tokens-file=" + folder.resolve("access/tokens"),
                        source.toString())
                .start();
    }

    @Test
    void downStopsTheProcessesOfARecordThatNoLongerReads(@TempDir Path dir) throws Exception {
        Path cluster = Files.createDirectories(dir.resolve("cluster"));
        Path other = Files.createDirectories(dir.resolve("other"));
        Process ours = member(cluster);
        Process theirs = member(other);
        try {
            for (String damaged : List.of("{\"kafka\": \"127.0.0.1:1\", \"members\": [{\"na", "{}")) {
                Files.writeString(cluster.resolve("cluster.json"), damaged);
                CliRun status = CliRun.of("cluster", "status", "--dir", cluster.toString());
                assertEquals(1, status.exitCode(), status.err());
                assertTrue(
                        status.err()
                                        .contains("the cluster record " + cluster.resolve("cluster.json")
                                                + " does not read: ")
                                && status.err().contains("cluster down --dir " + cluster + "' finds the processes"),
                        status.err());
                assertFalse(status.err().contains("Exception"), status.err());
            }
            CliRun down = CliRun.of("cluster", "down", "--dir", cluster.toString());
            assertEquals(0, down.exitCode(), down.err());
            assertTrue(
                    down.out()
                            .contains("stopping the 1 process whose command line names a file in " + cluster + " (pids "
                                    + ours.pid() + ")"),
                    down.out());
            assertTrue(ours.waitFor(30, TimeUnit.SECONDS), "the cluster's process is stopped");
            assertTrue(theirs.isAlive(), "another folder's process runs on");
            assertFalse(Files.exists(cluster.resolve("cluster.json")), "the record is removed");
        } finally {
            ours.destroyForcibly();
            theirs.destroyForcibly();
        }
    }

    /**
     * A 'cluster up' killed before it recorded anything (or one still starting) left its processes without
     * a record: 'down' said there was nothing to stop, and a second 'up' started beside them.
     */
    @Test
    void downStopsTheProcessesOfAnUpThatRecordedNothingAndUpRefusesToStartBesideThem(@TempDir Path dir)
            throws Exception {
        Path cluster = Files.createDirectories(dir.resolve("cluster"));
        Process ours = member(cluster);
        try {
            CliRun up = CliRun.of("cluster", "up", "--dir", cluster.toString());
            assertEquals(2, up.exitCode(), up.err());
            assertTrue(
                    up.err()
                                    .contains("processes of a cluster in " + cluster + " run without a record (pids "
                                            + ours.pid() + ")")
                            && up.err().contains("stop them first with './taikai cluster down --dir " + cluster + "'"),
                    up.err());
            assertTrue(ours.isAlive(), "a refused up stops nothing");

            CliRun down = CliRun.of("cluster", "down", "--dir", cluster.toString());
            assertEquals(0, down.exitCode(), down.err());
            assertTrue(
                    down.out()
                            .startsWith("No cluster is recorded in " + cluster + " (a 'cluster up' there is still"
                                    + " starting, or was killed before it recorded its processes); stopping the 1"
                                    + " process whose command line names a file in " + cluster + " (pids "
                                    + ours.pid() + ")"),
                    down.out());
            assertTrue(down.out().endsWith("Cluster in " + cluster + " stopped.\n"), down.out());
            assertTrue(ours.waitFor(30, TimeUnit.SECONDS), "the process is stopped");
        } finally {
            ours.destroyForcibly();
        }
    }

    @Test
    void downStopsATlsClusterWhoseCaIsGone(@TempDir Path dir) throws Exception {
        Process ours = member(dir.resolve("cluster"));
        try {
            Path cluster = Files.createDirectories(dir.resolve("cluster"));
            long started = ours.info().startInstant().orElseThrow().toEpochMilli();
            Files.writeString(
                    cluster.resolve("cluster.json"),
                    "{\"kafka\": \"127.0.0.1:1\", \"tls\": true, \"members\": [{\"name\": \"worker-1\", \"role\":"
                            + " \"worker\", \"pid\": " + ours.pid() + ", \"started_ms\": " + started
                            + ", \"http_port\": 1, \"grpc_port\": 2}]}");
            CliRun status = CliRun.of("cluster", "status", "--dir", cluster.toString());
            assertTrue(status.err().contains("its CA is gone"), status.err());
            CliRun down = CliRun.of("cluster", "down", "--dir", cluster.toString());
            assertEquals(0, down.exitCode(), down.err());
            assertTrue(ours.waitFor(30, TimeUnit.SECONDS), "stopped without its CA");
            assertFalse(Files.exists(cluster.resolve("cluster.json")));
        } finally {
            ours.destroyForcibly();
        }
    }
}
