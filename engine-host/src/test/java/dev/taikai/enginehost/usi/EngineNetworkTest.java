package dev.taikai.enginehost.usi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.taikai.enginehost.session.EngineNetwork;
import dev.taikai.testkit.Await;
import dev.taikai.testkit.FakeEngines;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.SocketTimeoutException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * An engine that reaches for the network gets nowhere: it runs in a network namespace of its own
 * ({@link EngineNetwork}), where not even this machine's loopback answers. The same fake engine started
 * directly, as the reference, does connect, so the check can fail.
 */
@ExtendWith(Sessions.CloseLeftovers.class)
class EngineNetworkTest {
    @TempDir
    Path dir;

    @Test
    void thisHostLetsEnginesStartWithoutNetwork() {
        // CI runs on a host like this one, where util-linux's unshare works (as root, or in a user namespace)
        EngineNetwork.Isolation isolation = EngineNetwork.isolation();
        assertTrue(isolation.isolated(), isolation.description());
        assertTrue(isolation.description().startsWith("engines start without network"), isolation.description());
    }

    @Test
    void anEngineThatOpensATcpConnectionFails() throws Exception {
        try (ServerSocket server = new ServerSocket(0, 10, InetAddress.getLoopbackAddress())) {
            String address = "127.0.0.1:" + server.getLocalPort();
            Path report = dir.resolve("engine-network");
            UsiEngine engine = Sessions.startFake("--connect", address, report.toString());
            // the fake tries before it reads 'usi': once it has answered, its report is written
            String outcome = Files.readString(report).strip();
            assertTrue(outcome.startsWith("failed: "), outcome);
            server.setSoTimeout(1);
            assertThrows(SocketTimeoutException.class, server::accept, "no connection reached the host");
            Sessions.closeAndAssertGone(engine);
        }
    }

    @Test
    void theSameEngineStartedDirectlyConnects() throws Exception {
        try (ServerSocket server = new ServerSocket(0, 10, InetAddress.getLoopbackAddress())) {
            Path report = dir.resolve("direct");
            List<String> command = new ArrayList<>(
                    FakeEngines.command("--connect", "127.0.0.1:" + server.getLocalPort(), report.toString()));
            Process process = new ProcessBuilder(command).start();
            try {
                server.setSoTimeout(60_000);
                server.accept().close();
                Await.until(Duration.ofSeconds(60), "the fake engine's report", () -> written(report));
                assertEquals("connected", Files.readString(report).strip());
            } finally {
                process.destroyForcibly();
                process.waitFor();
            }
        }
    }

    private static boolean written(Path report) {
        try {
            return Files.exists(report) && Files.readString(report).endsWith("\n");
        } catch (IOException e) {
            return false;
        }
    }
}
