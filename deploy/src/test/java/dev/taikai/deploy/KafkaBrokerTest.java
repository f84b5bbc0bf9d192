package dev.taikai.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Base64;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The broker process: its cluster ids, its ports, and what a user reads when it cannot start. */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class KafkaBrokerTest {
    private static final Path LIBS =
            KafkaBroker.libs(Path.of("..").toAbsolutePath().normalize());
    private static final Pattern BASE64URL_UUID = Pattern.compile("[A-Za-z0-9_-]{22}");

    @TempDir
    Path dir;

    /**
     * The hand-written generator this replaced made one id in 64 start with '-', which the storage tool
     * took for a flag. 100,000 samples miss a 1-in-64 fault with probability (63/64)^100000, about
     * 10^-684: this fails on such a generator every time.
     */
    @Test
    void clusterIdsNeverStartWithADash() throws IOException {
        Supplier<String> ids = KafkaBroker.clusterIds(LIBS);
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < 100_000; i++) {
            String id = ids.get();
            assertFalse(id.startsWith("-"), "cluster id " + id + " would be read as a flag");
            assertTrue(BASE64URL_UUID.matcher(id).matches(), id);
            assertEquals(16, Base64.getUrlDecoder().decode(id).length, id);
            seen.add(id);
        }
        assertEquals(100_000, seen.size(), "ids are random");
    }

    /** A port taken by another program between choosing and binding: the broker starts again on new ones. */
    @Test
    void aBrokerWhosePortIsTakenStartsAgainOnNewPorts() throws Exception {
        try (ServerSocket taken = takenPort()) {
            Deque<Integer> first = new ArrayDeque<>(List.of(taken.getLocalPort()));
            KafkaBroker broker =
                    KafkaBroker.start(LIBS, dir, 0, () -> first.isEmpty() ? LoopbackPorts.next() : first.removeFirst());
            try {
                assertNotEquals(taken.getLocalPort(), broker.port());
                String log = Files.readString(dir.resolve("broker.log"));
                assertTrue(
                        log.contains("taikai: port " + taken.getLocalPort() + " or "),
                        "the log says what happened: " + log);
            } finally {
                broker.close();
            }
            assertFalse(broker.alive());
        }
    }

    /** A fixed port that is taken: one line naming the broker, the reason and the log; nothing left running. */
    @Test
    void aPortTakenForGoodFailsInOneLineAndLeavesNothingRunning() throws Exception {
        try (ServerSocket taken = takenPort()) {
            StartFailure failure =
                    assertThrows(StartFailure.class, () -> KafkaBroker.start(LIBS, dir, taken.getLocalPort()));
            assertEquals("kafka", failure.member());
            assertEquals(
                    "the broker exited while starting: a port it was given was taken by another program before it"
                            + " could bind it",
                    failure.reason());
            assertEquals(
                    failure.member() + ": " + failure.reason() + "; see " + dir.resolve("broker.log"),
                    failure.getMessage());
            assertFalse(failure.getMessage().contains("\n"));
            assertEquals(
                    List.of(),
                    ProcessHandle.current()
                            .children()
                            .filter(ProcessHandle::isAlive)
                            .toList());
        }
    }

    @Test
    void loopbackPortsAreOutsideTheEphemeralRangeAndNeverHandedOutTwice() throws IOException {
        int[] range = LoopbackPorts.nonEphemeralRange();
        Set<Integer> ports = new HashSet<>();
        for (int i = 0; i < 200; i++) {
            int port = LoopbackPorts.next();
            assertTrue(port >= range[0] && port <= range[1], port + " in " + range[0] + "-" + range[1]);
            assertTrue(ports.add(port), "handed out twice: " + port);
        }
        String[] ephemeral = LoopbackPorts.read(Path.of("/proc/sys/net/ipv4/ip_local_port_range"))
                .split("\\s+");
        assertTrue(range[1] < Integer.parseInt(ephemeral[0]) || range[0] > Integer.parseInt(ephemeral[1]));
    }

    private static ServerSocket takenPort() throws IOException {
        ServerSocket socket = new ServerSocket();
        socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), LoopbackPorts.next()));
        return socket;
    }
}
