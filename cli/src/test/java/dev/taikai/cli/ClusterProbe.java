package dev.taikai.cli;

import dev.taikai.cli.cluster.LocalCluster;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.function.BooleanSupplier;

/** Reads a local cluster's HTTP endpoints from tests: bodies, status codes and Prometheus samples. */
final class ClusterProbe {
    private static final HttpClient HTTP =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    /** The token sent with every request (the cluster's viewer token). */
    private static volatile String token;

    private ClusterProbe() {}

    static void useToken(String viewerToken) {
        token = viewerToken;
    }

    static String get(String url) throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(10));
        if (token != null) {
            request.header("Authorization", "Bearer " + token);
        }
        return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString()).body();
    }

    /** The HTTP status of {@code url}, or -1 when nothing answers. */
    static int status(String url) throws InterruptedException {
        try {
            return HTTP.send(
                            HttpRequest.newBuilder(URI.create(url))
                                    .timeout(Duration.ofSeconds(2))
                                    .build(),
                            HttpResponse.BodyHandlers.discarding())
                    .statusCode();
        } catch (IOException e) {
            return -1;
        }
    }

    /**
     * The sum of the samples of Prometheus metric {@code name} whose labels contain {@code labels} (empty:
     * all) in {@code member}'s metrics; 0 when it has none, or when the member does not answer.
     */
    static double metric(LocalCluster.Member member, String name, String labels) throws InterruptedException {
        String text;
        try {
            text = get(member.http() + "/q/metrics");
        } catch (IOException e) {
            return 0;
        }
        double sum = 0;
        for (String line : text.split("\n")) {
            if (line.startsWith("#") || !line.startsWith(name)) {
                continue;
            }
            String rest = line.substring(name.length());
            if (!(rest.startsWith(" ") || rest.startsWith("{"))) {
                continue; // another metric whose name starts with this one
            }
            if (!labels.isEmpty() && !rest.contains(labels)) {
                continue;
            }
            sum += Double.parseDouble(rest.substring(rest.lastIndexOf(' ') + 1));
        }
        return sum;
    }

    /** The sum of {@code name} over every member of {@code role}. */
    static double metric(LocalCluster cluster, String role, String name) throws InterruptedException {
        double sum = 0;
        for (LocalCluster.Member member : cluster.members()) {
            if (member.role().equals(role)) {
                sum += metric(member, name, "");
            }
        }
        return sum;
    }

    /** Waits up to {@code within} for {@code condition}; the milliseconds it took, or fails. */
    static long await(String what, Duration within, Check condition) throws Exception {
        long start = System.nanoTime();
        long deadline = start + within.toNanos();
        while (!condition.holds()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("not within " + within.toSeconds() + " s: " + what);
            }
            Thread.sleep(50);
        }
        return (System.nanoTime() - start) / 1_000_000;
    }

    /** A condition that may throw. */
    interface Check {
        boolean holds() throws Exception;

        static Check of(BooleanSupplier supplier) {
            return supplier::getAsBoolean;
        }
    }
}
