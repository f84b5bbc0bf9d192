package dev.taikai.cli;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.taikai.cli.cluster.LocalCluster;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A cluster recorded in its folder whose members died (a reboot, kill -9): their pids may belong to other
 * processes since. 'cluster down' sent those SIGTERM and then SIGKILL, with their children, and 'status'
 * showed them running; the member's start time is recorded with its pid now, and a process that started at
 * another time is not the member.
 */
class ClusterPidReuseTest {
    @Test
    void aProcessThatHasADeadMembersPidIsNeitherShownRunningNorStopped(@TempDir Path dir) throws Exception {
        Process stranger = new ProcessBuilder("sleep", "600").start();
        try {
            Files.writeString(
                    dir.resolve("cluster.json"),
                    "{\"kafka\": \"127.0.0.1:1\", \"tls\": false, \"members\": [{\"name\": \"referee-1\", \"role\":"
                            + " \"referee\", \"pid\": " + stranger.pid() + ", \"started_ms\": 1000, \"http_port\": 1,"
                            + " \"grpc_port\": 2}]}");
            LocalCluster recorded = LocalCluster.recorded(dir).orElseThrow();
            assertTrue(recorded.member("referee-1").process().isEmpty(), "not the member: it started at another time");
            CliRun status = CliRun.of("cluster", "status", "--dir", dir.toString());
            assertTrue(status.out().contains("(not running)"), status.out() + status.err());
            // a dead member is the script's business too: exit code 1, and how to start the cluster again
            org.junit.jupiter.api.Assertions.assertEquals(1, status.exitCode(), status.err());
            assertTrue(
                    status.err()
                            .startsWith("1 of 1 members are not running; start the cluster again with"
                                    + " './taikai cluster down --dir " + dir + "'"),
                    status.err());
            recorded.stop(Duration.ofSeconds(1));
            assertFalse(stranger.waitFor(1, TimeUnit.SECONDS), "the stranger still runs");
            assertTrue(stranger.isAlive());
        } finally {
            stranger.destroyForcibly();
        }
    }
}
