package dev.taikai.cli;

import dev.taikai.access.Role;
import dev.taikai.access.grpc.GrpcTls;
import dev.taikai.access.tls.TlsCredentials;
import dev.taikai.cli.cluster.LocalCluster;
import dev.taikai.deploy.LoopbackPorts;
import io.grpc.netty.NettyChannelBuilder;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** Reads a local cluster's HTTP endpoints from tests: bodies, status codes and Prometheus samples. */
final class ClusterProbe {
    /** The client of the cluster started last: over TLS with the operator's certificate when it runs TLS. */
    private static volatile HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    /** The token sent with every request (the cluster's viewer token). */
    private static volatile String token;

    private ClusterProbe() {}

    /** Reads {@code cluster} with its viewer token from now on. */
    static void use(LocalCluster cluster) throws IOException {
        token = cluster.token(Role.VIEWER);
        http = cluster.httpClient();
    }

    /** A gRPC channel builder for a member, over TLS with the operator's certificate when the cluster runs it. */
    static NettyChannelBuilder channel(LocalCluster cluster, LocalCluster.Member member) throws IOException {
        NettyChannelBuilder builder = NettyChannelBuilder.forTarget(member.grpc());
        Optional<TlsCredentials> operator = cluster.operatorCredentials();
        return operator.isEmpty() ? builder.usePlaintext() : builder.sslContext(GrpcTls.client(operator.get()));
    }

    /** The HTTP client for the cluster started last. */
    static HttpClient http() {
        return http;
    }

    static String get(String url) throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(10));
        if (token != null) {
            request.header("Authorization", "Bearer " + token);
        }
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString()).body();
    }

    /** The HTTP status of {@code url}, or -1 when nothing answers. */
    static int status(String url) throws InterruptedException {
        try {
            return http.send(
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

    /**
     * Starts a local cluster whose workers add {@code catalog} to their engines, remembers the catalog for
     * 'taikai cluster submit', and reads its metrics with its viewer token from now on.
     */
    static LocalCluster start(Path directory, LocalCluster.Shape shape) throws Exception {
        return start(directory, shape, LoopbackPorts::next);
    }

    /** {@link #start(Path, LocalCluster.Shape)} with the ports the cluster binds taken from {@code ports}. */
    static LocalCluster start(Path directory, LocalCluster.Shape shape, LoopbackPorts.Source ports) throws Exception {
        LocalCluster cluster = LocalCluster.start(
                Path.of("..").toAbsolutePath().normalize(), directory, shape, Duration.ofSeconds(180), ports);
        Files.writeString(directory.resolve("catalog.path"), shape.extraCatalog());
        use(cluster);
        return cluster;
    }

    /** Stops the cluster and copies its services' logs to {@code target/<name>}, for whoever reads a failure. */
    static void stop(LocalCluster cluster, String name) throws Exception {
        cluster.stop(Duration.ofSeconds(40));
        Path logs = Path.of("target", name);
        Files.createDirectories(logs);
        try (var files = Files.list(cluster.directory())) {
            for (Path log : files.filter(f -> f.toString().endsWith(".log")).toList()) {
                Files.copy(log, logs.resolve(log.getFileName()), StandardCopyOption.REPLACE_EXISTING);
            }
        }
    }

    /** Standard output and error of one 'taikai' run. */
    record Output(int code, String out, String err) {
        /** The tournament id 'taikai cluster submit' names in its progress ("tournament ID ..."). */
        String tournamentId() {
            int at = err.indexOf("tournament ") + "tournament ".length();
            return err.substring(at, err.indexOf(' ', at));
        }
    }

    private static final java.util.concurrent.atomic.AtomicInteger SUBMISSIONS =
            new java.util.concurrent.atomic.AtomicInteger();

    /**
     * Runs 'taikai cluster submit [options] FILE' against {@code cluster}; without an --out option the
     * records go to a folder of their own beside the cluster's directory ({@link #records}).
     */
    static Output submit(LocalCluster cluster, Path file, String... options) {
        List<String> args = new ArrayList<>(
                List.of("cluster", "submit", "--dir", cluster.directory().toString()));
        args.addAll(List.of(options));
        if (!args.contains("--out")) {
            args.add("--out");
            args.add(records(cluster, SUBMISSIONS.incrementAndGet()).toString());
        }
        args.add(file.toString());
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Taikai.run(
                System.in, new PrintWriter(out, true), new PrintWriter(err, true), args.toArray(new String[0]));
        return new Output(code, out.toString(), err.toString());
    }

    /** The records folder of the {@code n}th submission that named none. */
    static Path records(LocalCluster cluster, int n) {
        return cluster.directory().resolveSibling("records-" + n);
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
    }

    /** Replays a record's moves with the rules (each must be legal); the game as it ended. */
    static dev.taikai.rules.Game replay(dev.taikai.proto.common.v1.GameRecord record) throws Exception {
        dev.taikai.rules.Variant variant =
                record.getAssignment().getVariant() == dev.taikai.proto.common.v1.Variant.VARIANT_KYOTOSHOGI
                        ? dev.taikai.rules.Variant.KYOTOSHOGI
                        : dev.taikai.rules.Variant.MINISHOGI;
        dev.taikai.rules.Game game =
                new dev.taikai.rules.Game(dev.taikai.rules.Sfen.parse(variant, record.getStartSfen()));
        for (var move : record.getMovesList()) {
            game.play(move.getMove(), dev.taikai.rules.Notation.FAIRY_STOCKFISH);
        }
        return game;
    }

    /** Writes {@code dir/fakes.yaml}: a catalog of three quick fakes, fake-a to fake-c; its path. */
    static Path threeFakes(Path dir) throws IOException {
        Path file = dir.resolve("fakes.yaml");
        Files.writeString(
                file,
                "engines:\n"
                        + dev.taikai.cli.run.Tournaments.fakeEntry("fake-a", "--seed", "1", "--think-ms", "5")
                        + dev.taikai.cli.run.Tournaments.fakeEntry("fake-b", "--seed", "2", "--think-ms", "5")
                        + dev.taikai.cli.run.Tournaments.fakeEntry("fake-c", "--seed", "3", "--think-ms", "5"));
        return file;
    }
}
