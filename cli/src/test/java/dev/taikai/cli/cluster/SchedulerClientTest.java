package dev.taikai.cli.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import dev.taikai.access.tls.LocalCa;
import dev.taikai.access.tls.PeerIdentity;
import dev.taikai.access.tls.ServiceRole;
import dev.taikai.access.tls.TlsCredentials;
import dev.taikai.proto.tournament.v1.TournamentState;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import javax.net.ssl.KeyManager;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManager;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The command line's client of the scheduler against an HTTPS server of the JDK with a certificate of a
 * local CA: {@link SchedulerClient#connect()} on one thread leaves the connection, its handshake made, for
 * the next request on another.
 */
class SchedulerClientTest {
    private static final Duration VALID = Duration.ofDays(1);

    @TempDir
    Path dir;

    private HttpsServer server;
    /** The client's port of each request the server answered: one port, one connection. */
    private final List<String> requests = new CopyOnWriteArrayList<>();

    private SchedulerClient client;
    private List<TlsCredentials> credentials = List.of();

    @BeforeEach
    void start() throws Exception {
        LocalCa ca = LocalCa.create("test", VALID);
        TlsCredentials scheduler = TlsCredentials.watch(ca.issue(
                new PeerIdentity("scheduler", ServiceRole.SCHEDULER), List.of("127.0.0.1"), VALID, dir.resolve("s")));
        TlsCredentials admin = TlsCredentials.watch(
                ca.issue(new PeerIdentity("admin", ServiceRole.ADMIN), List.of(), VALID, dir.resolve("a")));
        credentials = List.of(scheduler, admin);
        SSLContext serverContext = SSLContext.getInstance("TLS");
        serverContext.init(
                new KeyManager[] {scheduler.keyManager()}, new TrustManager[] {scheduler.clientTrust()}, null);
        server = HttpsServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.setHttpsConfigurator(new HttpsConfigurator(serverContext));
        byte[] state =
                TournamentState.newBuilder().setTournamentId("t-1").build().toByteArray();
        server.createContext("/", exchange -> {
            requests.add(exchange.getRequestURI().getPath() + " from "
                    + exchange.getRemoteAddress().getPort());
            exchange.getResponseHeaders().set("Content-Type", "application/x-protobuf");
            byte[] body = exchange.getRequestURI().getPath().startsWith("/q/health") ? "{}".getBytes() : state;
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        server.start();
        client = new SchedulerClient(
                "https://127.0.0.1:" + server.getAddress().getPort(), "token", admin.clientContext());
    }

    @AfterEach
    void stop() {
        if (server != null) {
            server.stop(0);
        }
        credentials.forEach(TlsCredentials::close);
    }

    @Test
    void theConnectionOpenedOnOneThreadServesTheNextRequestOnAnother() throws Exception {
        CompletableFuture.runAsync(() -> {
                    try {
                        client.connect();
                    } catch (java.io.IOException e) {
                        throw new java.io.UncheckedIOException(e);
                    }
                })
                .get();
        assertEquals("t-1", client.state("t-1").getTournamentId());
        assertEquals(2, requests.size(), requests.toString());
        String port = requests.get(0).split(" from ")[1];
        assertEquals(
                List.of("/q/health/live from " + port, "/api/tournaments/t-1 from " + port),
                requests,
                "one connection, one handshake");
    }
}
