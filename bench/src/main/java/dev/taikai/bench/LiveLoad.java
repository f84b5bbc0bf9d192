package dev.taikai.bench;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The load side of bench/live.sh: N browsers' worth of subscribers to the scheduler's live events ({@code
 * GET /api/live}), each on its own connection and thread, reading every event as a browser would. For
 * each game update it keeps the delay from the referee's publishing of the move it shows ({@code
 * published_ms}, the same clock: one machine) to its arrival here. Runs until the file STOP exists, then
 * prints: subscribers, game updates received, delay median and p99 in ms.
 *
 * <p>Usage: LiveLoad SCHEDULER-URL TOKEN-FILE SUBSCRIBERS STOP-FILE [CA-FILE]; with CA-FILE, over HTTPS
 * trusting that CA (the local cluster's, docs/security.md).
 */
public final class LiveLoad {
    private static final Pattern PUBLISHED = Pattern.compile("\"published_ms\":(\\d+)");

    private LiveLoad() {}

    public static void main(String[] args) throws Exception {
        String base = args[0];
        String token = Files.readString(Path.of(args[1])).strip();
        int subscribers = Integer.parseInt(args[2]);
        Path stop = Path.of(args[3]);
        HttpClient.Builder builder = HttpClient.newBuilder();
        if (args.length > 4) {
            builder.sslContext(trusting(Path.of(args[4])));
        }
        HttpClient client = builder.build();
        ConcurrentLinkedQueue<Long> delays = new ConcurrentLinkedQueue<>();
        AtomicLong connected = new AtomicLong();
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < subscribers; i++) {
            Thread thread = new Thread(() -> subscribe(client, base, token, delays, connected), "sub-" + i);
            thread.setDaemon(true);
            thread.start();
            threads.add(thread);
        }
        while (connected.get() < subscribers) {
            Thread.sleep(20);
        }
        System.err.println("live-load: " + subscribers + " subscribers connected");
        Files.writeString(stop.resolveSibling("subscribed"), "");
        while (!Files.exists(stop)) {
            Thread.sleep(100);
        }
        List<Long> sorted = new ArrayList<>(delays);
        Collections.sort(sorted);
        long median = sorted.isEmpty() ? 0 : sorted.get(sorted.size() / 2);
        long p99 = sorted.isEmpty() ? 0 : sorted.get(Math.min(sorted.size() - 1, (int) (sorted.size() * 0.99)));
        System.out.println(subscribers + " " + sorted.size() + " " + median + " " + p99);
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
            HttpClient client, String base, String token, ConcurrentLinkedQueue<Long> delays, AtomicLong connected) {
        try {
            HttpRequest request = HttpRequest.newBuilder(URI.create(base + "/api/live"))
                    .header("Authorization", "Bearer " + token)
                    .header("Accept", "text/event-stream")
                    .build();
            HttpResponse<java.io.InputStream> response =
                    client.send(request, HttpResponse.BodyHandlers.ofInputStream());
            connected.incrementAndGet();
            try (BufferedReader lines =
                    new BufferedReader(new InputStreamReader(response.body(), StandardCharsets.UTF_8))) {
                String line;
                String event = "";
                while ((line = lines.readLine()) != null) {
                    if (line.startsWith("event: ")) {
                        event = line.substring(7);
                    } else if (line.startsWith("data: ") && event.equals("game")) {
                        Matcher published = PUBLISHED.matcher(line);
                        if (published.find()) {
                            delays.add(System.currentTimeMillis() - Long.parseLong(published.group(1)));
                        }
                    }
                }
            }
        } catch (Exception e) {
            System.err.println("live-load: a subscriber ended: " + e);
        }
    }
}
