package dev.taikai.bench;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicLong;
import javax.net.SocketFactory;

/**
 * The load side of bench/live.sh: N browsers' worth of subscribers to the scheduler's live events ({@code
 * GET /api/live}), each on its own HTTP/1.1 connection and thread, reading every event as a browser would. For
 * each game update it keeps the delay from the referee's publishing of the move it shows ({@code
 * published_ms}, the same clock: one machine) to its arrival here. Runs until the file STOP exists, then
 * prints: subscribers, game updates received, delay median and p99 in ms.
 *
 * <p>Each subscriber reads its socket with blocking reads and decodes the chunked body itself: the load
 * client shares the scheduler's machine here, so it must cost as little CPU as it can (the JDK's HTTP
 * client took more than the scheduler's whole stream work).
 *
 * <p>Usage: LiveLoad SCHEDULER-URL TOKEN-FILE SUBSCRIBERS STOP-FILE [CA-FILE]; with CA-FILE, over HTTPS
 * trusting that CA (the local cluster's, docs/security.md).
 */
public final class LiveLoad {
    private static final byte[] PUBLISHED = "\"published_ms\":".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] GAME_EVENT = "event: game".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] DATA = "data: ".getBytes(StandardCharsets.US_ASCII);

    private LiveLoad() {}

    public static void main(String[] args) throws Exception {
        URI base = URI.create(args[0]);
        String token = Files.readString(Path.of(args[1])).strip();
        int subscribers = Integer.parseInt(args[2]);
        Path stop = Path.of(args[3]);
        SocketFactory sockets = args.length > 4 ? trusting(Path.of(args[4])).getSocketFactory() : SocketFactory.getDefault();
        Delays delays = new Delays();
        AtomicLong connected = new AtomicLong();
        for (int i = 0; i < subscribers; i++) {
            Thread thread = new Thread(() -> subscribe(sockets, base, token, delays, connected), "sub-" + i);
            thread.setDaemon(true);
            thread.start();
        }
        while (connected.get() < subscribers) {
            Thread.sleep(20);
        }
        System.err.println("live-load: " + subscribers + " subscribers connected");
        Files.writeString(stop.resolveSibling("subscribed"), "");
        while (!Files.exists(stop)) {
            Thread.sleep(100);
        }
        long[] sorted = delays.sorted();
        long median = sorted.length == 0 ? 0 : sorted[sorted.length / 2];
        long p99 = sorted.length == 0 ? 0 : sorted[Math.min(sorted.length - 1, (int) (sorted.length * 0.99))];
        System.out.println(subscribers + " " + sorted.length + " " + median + " " + p99);
    }

    /** Every delay seen, in ms: a growing array of longs rather than a million boxed ones. */
    private static final class Delays {
        private long[] values = new long[1 << 16];
        private int size;

        synchronized void add(long delay) {
            if (size == values.length) {
                values = Arrays.copyOf(values, size * 2);
            }
            values[size++] = delay;
        }

        synchronized long[] sorted() {
            long[] copy = Arrays.copyOf(values, size);
            Arrays.sort(copy);
            return copy;
        }
    }

    /** A TLS context that trusts the CA certificate in {@code file} (PEM). */
    private static javax.net.ssl.SSLContext trusting(Path file) throws Exception {
        java.security.KeyStore trusted = java.security.KeyStore.getInstance(java.security.KeyStore.getDefaultType());
        trusted.load(null, null);
        try (var in = Files.newInputStream(file)) {
            trusted.setCertificateEntry(
                    "ca", java.security.cert.CertificateFactory.getInstance("X.509").generateCertificate(in));
        }
        javax.net.ssl.TrustManagerFactory trust =
                javax.net.ssl.TrustManagerFactory.getInstance(javax.net.ssl.TrustManagerFactory.getDefaultAlgorithm());
        trust.init(trusted);
        javax.net.ssl.SSLContext context = javax.net.ssl.SSLContext.getInstance("TLS");
        context.init(null, trust.getTrustManagers(), null);
        return context;
    }

    private static void subscribe(
            SocketFactory sockets, URI base, String token, Delays delays, AtomicLong connected) {
        try (Socket socket = sockets.createSocket(base.getHost(), base.getPort())) {
            OutputStream out = socket.getOutputStream();
            out.write(("GET /api/live HTTP/1.1\r\nHost: " + base.getHost() + ":" + base.getPort()
                            + "\r\nAuthorization: Bearer " + token
                            + "\r\nAccept: text/event-stream\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            out.flush();
            InputStream in = new BufferedInputStream(socket.getInputStream(), 1 << 16);
            String status = new String(line(in), StandardCharsets.US_ASCII);
            if (!status.startsWith("HTTP/1.1 200")) {
                throw new IOException("the scheduler answered " + status);
            }
            boolean chunked = false;
            for (byte[] header = line(in); header.length > 0; header = line(in)) {
                chunked |= new String(header, StandardCharsets.US_ASCII)
                        .toLowerCase(java.util.Locale.ROOT)
                        .startsWith("transfer-encoding: chunked");
            }
            connected.incrementAndGet();
            InputStream events = chunked ? new Chunked(in) : in;
            boolean game = false;
            for (byte[] line = line(events); line != null; line = line(events)) {
                if (startsWith(line, GAME_EVENT, 0)) {
                    game = true;
                } else if (game && startsWith(line, DATA, 0)) {
                    long published = published(line);
                    if (published > 0) {
                        delays.add(System.currentTimeMillis() - published);
                    }
                    game = false;
                } else if (line.length == 0) {
                    game = false;
                }
            }
        } catch (Exception e) {
            System.err.println("live-load: a subscriber ended: " + e);
        }
    }

    /** The number after {@code "published_ms":} in {@code line}, or 0. */
    private static long published(byte[] line) {
        for (int i = 0; i + PUBLISHED.length < line.length; i++) {
            if (startsWith(line, PUBLISHED, i)) {
                long value = 0;
                for (int j = i + PUBLISHED.length; j < line.length && line[j] >= '0' && line[j] <= '9'; j++) {
                    value = value * 10 + (line[j] - '0');
                }
                return value;
            }
        }
        return 0;
    }

    private static boolean startsWith(byte[] line, byte[] prefix, int at) {
        if (line.length - at < prefix.length) {
            return false;
        }
        for (int i = 0; i < prefix.length; i++) {
            if (line[at + i] != prefix[i]) {
                return false;
            }
        }
        return true;
    }

    /** The next line without its CR LF, or null at the end of the stream. */
    private static byte[] line(InputStream in) throws IOException {
        java.io.ByteArrayOutputStream line = new java.io.ByteArrayOutputStream(256);
        int b;
        while ((b = in.read()) >= 0) {
            if (b == '\n') {
                byte[] bytes = line.toByteArray();
                int n = bytes.length > 0 && bytes[bytes.length - 1] == '\r' ? bytes.length - 1 : bytes.length;
                return Arrays.copyOf(bytes, n);
            }
            line.write(b);
        }
        return line.size() == 0 ? null : line.toByteArray();
    }

    /** An HTTP/1.1 chunked body as the bytes it carries. */
    private static final class Chunked extends InputStream {
        private final InputStream in;
        private long left;
        private boolean ended;

        Chunked(InputStream in) {
            this.in = in;
        }

        @Override
        public int read() throws IOException {
            while (left == 0) {
                if (ended) {
                    return -1;
                }
                byte[] size = line(in);
                if (size == null) {
                    ended = true;
                    return -1;
                }
                if (size.length == 0) {
                    continue; // the CR LF after the previous chunk's data
                }
                String hex = new String(size, StandardCharsets.US_ASCII);
                int extension = hex.indexOf(';');
                left = Long.parseLong((extension < 0 ? hex : hex.substring(0, extension)).trim(), 16);
                if (left == 0) {
                    ended = true;
                    return -1;
                }
            }
            int b = in.read();
            if (b < 0) {
                ended = true;
                return -1;
            }
            left--;
            return b;
        }
    }
}
