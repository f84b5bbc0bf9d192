package dev.taikai.deploy;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Loopback ports for processes that bind them a moment later (the broker, the services of a local
 * cluster). A port is taken from outside the kernel's ephemeral range, so no outgoing connection of any
 * program can be given it in the meantime (a port from {@code new ServerSocket(0)} is an ephemeral
 * one, which any connection may take as its local port before the process binds it); it is free when
 * handed out, and never handed out twice by this JVM. Another program choosing the same port on purpose
 * in between is still possible, which is why the starters retry a start whose bind failed.
 */
public final class LoopbackPorts {
    private static final Path EPHEMERAL_RANGE = Path.of("/proc/sys/net/ipv4/ip_local_port_range");
    private static final int LOWEST = 10_000;
    private static final int HIGHEST = 65_535;
    private static final Set<Integer> HANDED_OUT = new HashSet<>();

    /** Where a starter takes its ports from: {@link LoopbackPorts#next} in use, another source in tests. */
    @FunctionalInterface
    public interface Source {
        int next() throws IOException;
    }

    private LoopbackPorts() {}

    /** A loopback port that is free now, outside the ephemeral range and not handed out before. */
    public static synchronized int next() throws IOException {
        int[] range = nonEphemeralRange();
        for (int attempt = 0; attempt < 1000; attempt++) {
            int port = ThreadLocalRandom.current().nextInt(range[0], range[1] + 1);
            if (!HANDED_OUT.contains(port) && free(port)) {
                HANDED_OUT.add(port);
                return port;
            }
        }
        throw new IOException("no free loopback port between " + range[0] + " and " + range[1]);
    }

    /** The larger of the two stretches of [10000, 65535] on either side of the kernel's ephemeral range. */
    static int[] nonEphemeralRange() {
        int low = 32_768;
        int high = 60_999; // Linux's default
        try {
            String[] bounds = read(EPHEMERAL_RANGE).split("\\s+");
            low = Integer.parseInt(bounds[0]);
            high = Integer.parseInt(bounds[1]);
        } catch (IOException | RuntimeException e) {
            // not Linux, or unreadable: assume the default range
        }
        int below = low - 1 - LOWEST;
        int above = HIGHEST - (high + 1);
        return below >= above ? new int[] {LOWEST, low - 1} : new int[] {high + 1, HIGHEST};
    }

    /** The contents of a small /proc file, read as a stream (some kernels report such files as empty). */
    static String read(Path file) throws IOException {
        try (InputStream in = Files.newInputStream(file)) {
            return new String(in.readAllBytes(), StandardCharsets.US_ASCII).trim();
        }
    }

    private static boolean free(int port) {
        try (ServerSocket socket = new ServerSocket()) {
            socket.setReuseAddress(false);
            socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
            return true;
        } catch (IOException e) {
            return false;
        }
    }
}
