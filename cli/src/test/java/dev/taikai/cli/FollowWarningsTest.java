package dev.taikai.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.taikai.proto.scheduler.v1.GetGameRecordsResponse;
import dev.taikai.proto.tournament.v1.Status;
import dev.taikai.proto.tournament.v1.TournamentState;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * 'cluster submit' following a tournament while the cluster's Kafka broker is down: it went quiet, with
 * nothing to tell a stall from a long game. It now says which member the tournament waits for, once, and
 * when the members run again. A stand-in scheduler (the JDK's HTTP server) answers; the broker is a
 * {@code sleep} process recorded as the cluster's Kafka, killed during the follow and replaced by another.
 */
class FollowWarningsTest {
    @Test
    void aBrokerDownWhileFollowingIsSaidOnceAndItsReturnToo(@TempDir Path dir) throws Exception {
        Path cluster = Files.createDirectories(dir.resolve("cluster"));
        Files.createDirectories(cluster.resolve("access"));
        Files.writeString(cluster.resolve("access").resolve("admin.token"), "not-a-real-token\n");
        Process broker = sleeper();
        Process secondBroker = null;
        HttpServer scheduler = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        try {
            int port = scheduler.getAddress().getPort();
            record(cluster, broker.pid(), port);
            TournamentState running = TournamentState.newBuilder()
                    .setTournamentId("t-7")
                    .setStatus(Status.STATUS_RUNNING)
                    .setPlannedGames(2)
                    .build();
            AtomicInteger pages = new AtomicInteger();
            Process[] replacement = new Process[1];
            scheduler.createContext("/api/tournaments", exchange -> {
                exchange.getRequestBody().readAllBytes();
                if (exchange.getRequestMethod().equals("POST")) {
                    answer(exchange, 201, running.toByteArray());
                    return;
                }
                // the follow's pages: the broker dies before the first, a new one runs from the third, the
                // tournament is over at the fifth
                int page = pages.incrementAndGet();
                TournamentState state = running;
                try {
                    if (page == 1) {
                        broker.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
                    } else if (page == 3) {
                        replacement[0] = sleeper();
                        record(cluster, replacement[0].pid(), port);
                    } else if (page == 5) {
                        state = running.toBuilder()
                                .setStatus(Status.STATUS_CANCELLED)
                                .setStatusDetail("cancelled: the test is over")
                                .build();
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                answer(
                        exchange,
                        200,
                        GetGameRecordsResponse.newBuilder()
                                .setState(state)
                                .setTotal(0)
                                .build()
                                .toByteArray());
            });
            scheduler.start();
            Path file = Files.writeString(
                    dir.resolve("t.yaml"), "name: waits\nvariant: minishogi\nengines: [taikai-1, taikai-2]\n");
            CliRun submit = CliRun.of(
                    "cluster",
                    "submit",
                    "--dir",
                    cluster.toString(),
                    "--out",
                    dir.resolve("records").toString(),
                    file.toString());
            secondBroker = replacement[0];
            assertEquals(1, submit.exitCode(), "a cancelled tournament: " + submit.err());
            String warning = "warning: the cluster's Kafka broker is not running ('./taikai cluster status --dir "
                    + cluster + "'): the tournament waits until it runs again";
            assertEquals(1, submit.err().split(java.util.regex.Pattern.quote(warning), -1).length - 1, submit.err());
            assertTrue(
                    submit.err().indexOf(warning) < submit.err().indexOf("the cluster's members run again"),
                    submit.err());
        } finally {
            scheduler.stop(0);
            broker.destroyForcibly();
            if (secondBroker != null) {
                secondBroker.destroyForcibly();
            }
        }
    }

    /** 'cluster fetch' of a running tournament with the broker already down says so at once, as 'submit' does. */
    @Test
    void aFetchWhileTheBrokerIsDownSaysSoAtOnce(@TempDir Path dir) throws Exception {
        Path cluster = Files.createDirectories(dir.resolve("cluster"));
        Files.createDirectories(cluster.resolve("access"));
        Files.writeString(cluster.resolve("access").resolve("admin.token"), "not-a-real-token\n");
        Path file = Files.writeString(
                dir.resolve("t.yaml"), "name: waits\nvariant: minishogi\nengines: [taikai-1, taikai-2]\n");
        Process broker = sleeper();
        broker.destroyForcibly().waitFor(10, TimeUnit.SECONDS); // a broker that was, and is gone
        HttpServer scheduler = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        try {
            record(cluster, broker.pid(), scheduler.getAddress().getPort());
            TournamentState running = TournamentState.newBuilder()
                    .setTournamentId("t-8")
                    .setStatus(Status.STATUS_RUNNING)
                    .setPlannedGames(2)
                    .setSpec(ClusterRecords.specMessage(dev.taikai.cli.run.TournamentFile.read(file)))
                    .build();
            AtomicInteger pages = new AtomicInteger();
            scheduler.createContext("/api/tournaments", exchange -> {
                exchange.getRequestBody().readAllBytes();
                if (!exchange.getRequestURI().getPath().endsWith("/games")) {
                    answer(exchange, 200, running.toByteArray());
                    return;
                }
                TournamentState state = pages.incrementAndGet() < 3
                        ? running
                        : running.toBuilder()
                                .setStatus(Status.STATUS_CANCELLED)
                                .setStatusDetail("cancelled: the test is over")
                                .build();
                answer(
                        exchange,
                        200,
                        GetGameRecordsResponse.newBuilder()
                                .setState(state)
                                .build()
                                .toByteArray());
            });
            scheduler.start();
            CliRun fetch = CliRun.of(
                    "cluster",
                    "fetch",
                    "--dir",
                    cluster.toString(),
                    "--out",
                    dir.resolve("records").toString(),
                    "t-8",
                    file.toString());
            assertEquals(1, fetch.exitCode(), "a cancelled tournament: " + fetch.err());
            String warning = "warning: the cluster's Kafka broker is not running ('./taikai cluster status --dir "
                    + cluster + "'): the tournament waits until it runs again";
            assertEquals(1, fetch.err().split(java.util.regex.Pattern.quote(warning), -1).length - 1, fetch.err());
        } finally {
            scheduler.stop(0);
        }
    }

    private static Process sleeper() throws IOException {
        return new ProcessBuilder("sleep", "600").start();
    }

    /** {@code cluster/cluster.json}: a broker with {@code brokerPid}, a scheduler on {@code port}, a referee, a worker. */
    private static void record(Path cluster, long brokerPid, int port) throws IOException {
        long self = ProcessHandle.current().pid();
        String json = "{\"kafka\": \"127.0.0.1:1\", \"tls\": false, \"members\": ["
                + "{\"name\": \"kafka\", \"role\": \"kafka\", \"pid\": " + brokerPid + ", \"http_port\": 0,"
                + " \"grpc_port\": 1},"
                + "{\"name\": \"scheduler\", \"role\": \"scheduler\", \"pid\": " + self + ", \"http_port\": " + port
                + ", \"grpc_port\": 1},"
                + "{\"name\": \"referee-1\", \"role\": \"referee\", \"pid\": " + self + ", \"http_port\": 1,"
                + " \"grpc_port\": 1},"
                + "{\"name\": \"worker-1\", \"role\": \"worker\", \"pid\": " + self + ", \"http_port\": 1,"
                + " \"grpc_port\": 1}]}";
        Path next = cluster.resolve("cluster.json.next");
        Files.writeString(next, json);
        Files.move(next, cluster.resolve("cluster.json"), java.nio.file.StandardCopyOption.ATOMIC_MOVE);
    }

    private static void answer(HttpExchange exchange, int status, byte[] body) throws IOException {
        exchange.getResponseHeaders().add("Content-Type", "application/x-protobuf");
        exchange.sendResponseHeaders(status, body.length);
        exchange.getResponseBody().write(body);
        exchange.close();
    }
}
