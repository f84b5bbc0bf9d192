package dev.taikai.bench;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import javax.net.SocketFactory;

/**
 * The load side of bench/live.sh: N browsers' worth of subscribers to the scheduler's live events ({@code
 * GET /api/live}), each on its own HTTP/1.1 connection and thread, reading every event as a browser would. For
 * each game update it keeps the delay from the referee's publishing of the move it shows ({@code
 * published_ms}, the same clock: one machine) to its arrival here.
 *
 * <p>One process serves every round of the benchmark, so that its own start and JIT compilation fall
 * outside them. It watches the folder CONTROL: a file {@code start} (holding a report file's path) has it
 * connect the subscribers and write {@code subscribed}; a file {@code stop} has it close them, append
 * "subscribers updates delay-median-ms delay-p99-ms" to the report file and write {@code stopped}; a file
 * {@code quit} ends it.
 *
 * <p>Each subscriber reads its socket a whole buffer at a time and decodes the chunked body itself: the
 * load client shares the scheduler's machine here, so it must cost as little CPU as it can (the JDK's HTTP
 * client took more than the scheduler's whole stream work, and reading a byte at a time a third of a core).
 *
 * <p>Usage: LiveLoad SCHEDULER-URL TOKEN-FILE SUBSCRIBERS CONTROL [CA-FILE]; with CA-FILE, over HTTPS
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
        Path control = Path.of(args[3]);
        SocketFactory sockets = args.length > 4 ? trusting(Path.of(args[4])).getSocketFactory() : SocketFactory.getDefault();
        Path start = control.resolve("start");
        Path stop = control.resolve("stop");
        while (true) {
            while (!Files.exists(start) && !Files.exists(control.resolve("quit"))) {
                Thread.sleep(50);
            }
            if (!Files.exists(start)) {
                return;
            }
            Path report = Path.of(Files.readString(start).strip());
            Files.delete(start);
            round(sockets, base, token, subscribers, control, report);
            Files.delete(stop);
            Files.writeString(control.resolve("stopped"), "");
        }
    }

    /**
     * One round: connects the subscribers, says so ({@code subscribed}), reads until {@code stop} exists, closes
     * them and appends "subscribers updates delay-median delay-p99" to {@code report}.
     */
    private static void round(
            SocketFactory sockets, URI base, String token, int subscribers, Path control, Path report)
            throws Exception {
        Delays delays = new Delays();
        AtomicLong connected = new AtomicLong();
        List<Socket> open = Collections.synchronizedList(new ArrayList<>());
        AtomicBoolean stopping = new AtomicBoolean();
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < subscribers; i++) {
            Thread thread = new Thread(
                    () -> subscribe(sockets, base, token, delays, connected, open, stopping), "sub-" + i);
            thread.setDaemon(true);
            thread.start();
            threads.add(thread);
        }
        while (connected.get() < subscribers) {
            Thread.sleep(20);
        }
        System.err.println("live-load: " + subscribers + " subscribers connected");
        Files.writeString(control.resolve("subscribed"), "");
        while (!Files.exists(control.resolve("stop"))) {
            Thread.sleep(50);
        }
        stopping.set(true);
        synchronized (open) {
            for (Socket socket : open) {
                socket.close();
            }
        }
        for (Thread thread : threads) {
            thread.join(10_000);
        }
        Files.delete(control.resolve("subscribed"));
        long[] sorted = delays.sorted();
        long median = sorted.length == 0 ? 0 : sorted[sorted.length / 2];
        long p99 = sorted.length == 0 ? 0 : sorted[Math.min(sorted.length - 1, (int) (sorted.length * 0.99))];
        Files.writeString(
                report,
                subscribers + " " + sorted.length + " " + median + " " + p99 + "\n",
                StandardOpenOption.CREATE,
                StandardOpenOption.APPEND);
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
            SocketFactory sockets,
            URI base,
            String token,
            Delays delays,
            AtomicLong connected,
            List<Socket> open,
            AtomicBoolean stopping) {
        try (Socket socket = sockets.createSocket(base.getHost(), base.getPort())) {
            open.add(socket);
            OutputStream out = socket.getOutputStream();
            out.write(("GET /api/live HTTP/1.1\r\nHost: " + base.getHost() + ":" + base.getPort()
                            + "\r\nAuthorization: Bearer " + token
                            + "\r\nAccept: text/event-stream\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            out.flush();
            Events events = new Events(delays);
            Body body = new Body(events);
            InputStream in = socket.getInputStream();
            byte[] buffer = new byte[1 << 16];
            int n = in.read(buffer);
            int at = n < 0 ? -1 : headersEnd(buffer, n);
            while (n >= 0 && at < 0) { // the status line and headers, read until the blank line
                int more = in.read(buffer, n, buffer.length - n);
                if (more < 0) {
                    throw new IOException("the scheduler closed the connection before its headers ended");
                }
                n += more;
                at = headersEnd(buffer, n);
            }
            String headers = new String(buffer, 0, Math.max(at, 0), StandardCharsets.US_ASCII);
            if (!headers.startsWith("HTTP/1.1 200")) {
                throw new IOException("the scheduler answered " + headers.lines().findFirst().orElse(""));
            }
            body.chunked = headers.toLowerCase(java.util.Locale.ROOT).contains("transfer-encoding: chunked");
            connected.incrementAndGet();
            body.take(buffer, at, n);
            while ((n = in.read(buffer)) >= 0) {
                body.take(buffer, 0, n);
            }
        } catch (Exception e) {
            if (!stopping.get()) {
                System.err.println("live-load: a subscriber ended: " + e);
            }
        }
    }

    /** Where the body starts: just past the first CR LF CR LF among the first n bytes, or -1. */
    private static int headersEnd(byte[] bytes, int n) {
        for (int i = 3; i < n; i++) {
            if (bytes[i] == '\n' && bytes[i - 1] == '\r' && bytes[i - 2] == '\n' && bytes[i - 3] == '\r') {
                return i + 1;
            }
        }
        return -1;
    }

    /**
     * An HTTP/1.1 body as it arrives, read in whole buffers: with chunked transfer, each chunk's size line is
     * taken out and its bytes go on to the events; otherwise every byte does.
     */
    private static final class Body {
        private final Events events;
        private boolean chunked;
        private long left; // bytes of the current chunk still to come
        private boolean afterChunk; // its CR LF is due
        private long size;
        private boolean extension; // past a ';' in the size line

        Body(Events events) {
            this.events = events;
        }

        void take(byte[] bytes, int from, int to) throws IOException {
            int i = from;
            while (i < to) {
                if (!chunked || left > 0) {
                    int end = chunked ? (int) Math.min(to, i + left) : to;
                    events.take(bytes, i, end);
                    left -= chunked ? end - i : 0;
                    afterChunk = chunked && left == 0;
                    i = end;
                    continue;
                }
                byte b = bytes[i++];
                if (afterChunk) {
                    afterChunk = b != '\n'; // the CR LF that ends a chunk's data
                } else if (b == '\n') {
                    if (size == 0) {
                        throw new IOException("the stream ended (a chunk of size 0)");
                    }
                    left = size;
                    size = 0;
                    extension = false;
                } else if (b == ';') {
                    extension = true;
                } else if (b != '\r' && !extension) {
                    int digit = Character.digit(b, 16);
                    if (digit >= 0) {
                        size = size * 16 + digit;
                    }
                }
            }
        }
    }

    /** The event stream's lines: for each game event, the delay of its {@code published_ms}. */
    private static final class Events {
        private final Delays delays;
        private byte[] line = new byte[1 << 12];
        private int length;
        private boolean game;

        Events(Delays delays) {
            this.delays = delays;
        }

        void take(byte[] bytes, int from, int to) {
            for (int i = from; i < to; i++) {
                byte b = bytes[i];
                if (b != '\n') {
                    if (length == line.length) {
                        line = Arrays.copyOf(line, length * 2);
                    }
                    line[length++] = b;
                    continue;
                }
                int end = length > 0 && line[length - 1] == '\r' ? length - 1 : length;
                if (startsWith(line, end, GAME_EVENT, 0)) {
                    game = true;
                } else if (game && startsWith(line, end, DATA, 0)) {
                    long published = published(line, end);
                    if (published > 0) {
                        delays.add(System.currentTimeMillis() - published);
                    }
                    game = false;
                } else if (end == 0) {
                    game = false;
                }
                length = 0;
            }
        }
    }

    /** The number after {@code "published_ms":} in the first {@code end} bytes of {@code line}, or 0. */
    private static long published(byte[] line, int end) {
        for (int i = 0; i + PUBLISHED.length < end; i++) {
            if (startsWith(line, end, PUBLISHED, i)) {
                long value = 0;
                for (int j = i + PUBLISHED.length; j < end && line[j] >= '0' && line[j] <= '9'; j++) {
                    value = value * 10 + (line[j] - '0');
                }
                return value;
            }
        }
        return 0;
    }

    private static boolean startsWith(byte[] line, int end, byte[] prefix, int at) {
        if (end - at < prefix.length) {
            return false;
        }
        for (int i = 0; i < prefix.length; i++) {
            if (line[at + i] != prefix[i]) {
                return false;
            }
        }
        return true;
    }
}
