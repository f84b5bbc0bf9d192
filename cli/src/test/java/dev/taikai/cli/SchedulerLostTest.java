package dev.taikai.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import dev.taikai.proto.tournament.v1.Status;
import dev.taikai.proto.tournament.v1.TournamentState;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * 'cluster submit' when the scheduler cannot be reached, or goes away while the command follows the
 * tournament: it printed Java's exception ("java.net.ConnectException: Connection refused") and exit 1, the
 * code of a cancelled tournament, with no way to pick the tournament up; and it left the records folder it
 * had made. A stand-in scheduler (the JDK's HTTP server) answers the creation and then stops; a request
 * that reaches it before it has stopped has its connection dropped, as a scheduler's that dies under it.
 */
class SchedulerLostTest {
    @Test
    void aSchedulerThatCannotBeReachedIsSaidInWordsAndLeavesNoFolder(@TempDir Path dir) throws Exception {
        int port;
        try (var closed = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            port = closed.getLocalPort();
        } // nothing listens there now
        Path cluster = recordedCluster(dir, port);
        Path out = dir.resolve("records");
        CliRun submit = submit(dir, cluster, out);
        assertEquals(1, submit.exitCode(), submit.err());
        assertEquals(
                "taikai cluster submit: failed: the scheduler at http://127.0.0.1:" + port
                        + " refuses connections (is the cluster up? './taikai cluster status')\n",
                submit.err());
        assertFalse(Files.exists(out), "no folder for a tournament that was never created");
    }

    @Test
    void aSchedulerLostWhileFollowingGivesTheFetchCommandAndExitCode3(@TempDir Path dir) throws Exception {
        HttpServer scheduler = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        byte[] created = TournamentState.newBuilder()
                .setTournamentId("t-42")
                .setStatus(Status.STATUS_RUNNING)
                .setPlannedGames(2)
                .build()
                .toByteArray();
        scheduler.createContext("/api/tournaments", exchange -> {
            exchange.getRequestBody().readAllBytes();
            if (!exchange.getRequestMethod().equals("POST")) {
                exchange.close(); // a request that came before the stop below: the connection drops, unanswered
                return;
            }
            exchange.getResponseHeaders().add("Content-Type", "application/x-protobuf");
            exchange.sendResponseHeaders(201, created.length);
            exchange.getResponseBody().write(created);
            exchange.close();
            new Thread(() -> scheduler.stop(0)).start(); // and then it is gone
        });
        scheduler.start();
        Path cluster = recordedCluster(dir, scheduler.getAddress().getPort());
        Path out = dir.resolve("records");
        CliRun submit = submit(dir, cluster, out);
        assertEquals(3, submit.exitCode(), submit.err());
        String last = submit.err().lines().reduce((a, b) -> b).orElse("");
        assertTrue(
                last.startsWith("taikai cluster submit: lost the scheduler: the scheduler at http://127.0.0.1:")
                        && last.endsWith("; tournament t-42 goes on in the cluster. Follow it and write its records"
                                + " with: ./taikai cluster fetch --dir " + cluster + " --out " + out + " t-42 "
                                + dir.resolve("t.yaml")),
                submit.err());
        assertFalse(submit.err().contains("Exception"), submit.err());
        // the stand-in cluster has no referee and no worker: the tournament would wait, silently
        assertTrue(
                submit.err()
                        .contains("warning: no referee of the cluster runs ('./taikai cluster status --dir " + cluster
                                + "'): the tournament waits until one does"),
                submit.err());
        assertTrue(submit.err().contains("warning: no worker of the cluster runs"), submit.err());
    }

    /** A cluster recorded in {@code dir/cluster} whose scheduler (plaintext) listens on {@code port}. */
    private static Path recordedCluster(Path dir, int port) throws Exception {
        Path cluster = Files.createDirectories(dir.resolve("cluster"));
        Files.createDirectories(cluster.resolve("access"));
        Files.writeString(cluster.resolve("access").resolve("admin.token"), "not-a-real-token\n");
        Files.writeString(
                cluster.resolve("cluster.json"),
                "{\"kafka\": \"127.0.0.1:1\", \"tls\": false, \"members\": [{\"name\": \"scheduler\", \"role\":"
                        + " \"scheduler\", \"pid\": " + ProcessHandle.current().pid() + ", \"http_port\": " + port
                        + ", \"grpc_port\": 1}]}");
        return cluster;
    }

    private static CliRun submit(Path dir, Path cluster, Path out) throws Exception {
        Path file = Files.writeString(
                dir.resolve("t.yaml"), "name: lost\nvariant: minishogi\nengines: [taikai-1, taikai-2]\n");
        return CliRun.of("cluster", "submit", "--dir", cluster.toString(), "--out", out.toString(), file.toString());
    }
}
