package dev.taikai.cli.cluster;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.taikai.deploy.KafkaBroker;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * Taikai's services as separate processes on this machine: a Kafka broker (KRaft, loopback), the
 * scheduler, engine workers and referees, each a Quarkus application from its module's {@code
 * target/quarkus-app}, with its log in the cluster directory. {@code cluster.json} there says what runs
 * where, so that later commands (and {@code taikai cluster down}) find it.
 */
public final class LocalCluster {
    /** One service process. */
    public record Member(String name, String role, long pid, int httpPort, int grpcPort) {
        public String http() {
            return "http://127.0.0.1:" + httpPort;
        }

        public String grpc() {
            return "127.0.0.1:" + grpcPort;
        }
    }

    /** How many of what to start. */
    public record Shape(int workers, int referees, int slotsPerWorker, int gamesPerReferee, String extraCatalog) {
        public Shape {
            if (workers < 1 || referees < 1 || slotsPerWorker < 1 || gamesPerReferee < 1) {
                throw new IllegalArgumentException("a cluster needs at least one worker, referee, slot and game");
            }
        }
    }

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String STATE = "cluster.json";

    private final Path directory;
    private final String bootstrapServers;
    private final List<Member> members;
    private final List<Process> processes;

    private LocalCluster(Path directory, String bootstrapServers, List<Member> members, List<Process> processes) {
        this.directory = directory;
        this.bootstrapServers = bootstrapServers;
        this.members = List.copyOf(members);
        this.processes = processes;
    }

    /**
     * Starts a broker and the services and waits until each is ready.
     *
     * @param root the project root (the services' and the broker's jars are built under it)
     */
    public static LocalCluster start(Path root, Path directory, Shape shape, Duration readyWithin)
            throws IOException, InterruptedException {
        Files.createDirectories(directory);
        if (Files.exists(directory.resolve(STATE))) {
            throw new IllegalStateException("a cluster is already recorded in " + directory.resolve(STATE)
                    + "; run 'taikai cluster down' first");
        }
        List<Path> apps = new ArrayList<>();
        for (String module : List.of("scheduler", "engine-worker", "referee-service")) {
            Path app = root.resolve(module).resolve("target/quarkus-app/quarkus-run.jar");
            if (!Files.isRegularFile(app)) {
                throw new IllegalStateException("the " + module + " service is not built (" + app
                        + "); build it with: mvn -DskipTests package");
            }
            apps.add(app);
        }
        KafkaBroker broker = KafkaBroker.start(KafkaBroker.libs(root), directory.resolve("kafka"), 0);
        List<Member> members = new ArrayList<>();
        List<Process> processes = new ArrayList<>();
        members.add(new Member("kafka", "kafka", broker.pid(), 0, broker.port()));
        processes.add(null);
        String kafka = broker.bootstrapServers();
        try {
            int http = KafkaBroker.freePort();
            int grpc = KafkaBroker.freePort();
            processes.add(service(
                    apps.get(0),
                    directory,
                    "scheduler",
                    http,
                    grpc,
                    List.of("-Dtaikai.kafka.bootstrap-servers=" + kafka)));
            members.add(new Member("scheduler", "scheduler", processes.get(1).pid(), http, grpc));
            // the scheduler creates the topics; the others start once it is ready
            new LocalCluster(directory, kafka, members, processes).awaitReady(readyWithin);
            List<String> workerAddresses = new ArrayList<>();
            for (int i = 1; i <= shape.workers(); i++) {
                http = KafkaBroker.freePort();
                grpc = KafkaBroker.freePort();
                List<String> options = new ArrayList<>(
                        List.of("-Dtaikai.worker.id=worker-" + i, "-Dtaikai.worker.slots=" + shape.slotsPerWorker()));
                if (shape.extraCatalog() != null) {
                    options.add("-Dtaikai.worker.catalog=" + shape.extraCatalog());
                }
                Process p = service(apps.get(1), directory, "worker-" + i, http, grpc, options);
                processes.add(p);
                members.add(new Member("worker-" + i, "worker", p.pid(), http, grpc));
                workerAddresses.add("127.0.0.1:" + grpc);
            }
            for (int i = 1; i <= shape.referees(); i++) {
                http = KafkaBroker.freePort();
                grpc = KafkaBroker.freePort();
                Process p = service(
                        apps.get(2),
                        directory,
                        "referee-" + i,
                        http,
                        grpc,
                        List.of(
                                "-Dtaikai.referee.id=referee-" + i,
                                "-Dtaikai.referee.workers=" + String.join(",", workerAddresses),
                                "-Dtaikai.referee.max-games=" + shape.gamesPerReferee(),
                                "-Dtaikai.kafka.bootstrap-servers=" + kafka));
                processes.add(p);
                members.add(new Member("referee-" + i, "referee", p.pid(), http, grpc));
            }
            LocalCluster cluster = new LocalCluster(directory, kafka, members, processes);
            cluster.save();
            cluster.awaitReady(readyWithin);
            return cluster;
        } catch (IOException | InterruptedException | RuntimeException e) {
            for (Process p : processes) {
                if (p != null) {
                    p.destroyForcibly();
                }
            }
            broker.kill();
            Files.deleteIfExists(directory.resolve(STATE));
            throw e;
        }
    }

    /** Starts one Quarkus service; its output goes to {@code <name>.log} in the cluster directory. */
    private static Process service(Path app, Path directory, String name, int http, int grpc, List<String> options)
            throws IOException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        String jvm = System.getenv("TAIKAI_SERVICE_JAVA_OPTS");
        command.addAll(
                jvm == null || jvm.isBlank()
                        ? List.of("-Xmx384m", "-XX:+UseSerialGC")
                        : List.of(jvm.trim().split("\\s+")));
        command.add("-Djava.awt.headless=true");
        command.add("-Dquarkus.http.host=127.0.0.1");
        command.add("-Dquarkus.http.port=" + http);
        command.add("-Dquarkus.grpc.server.host=127.0.0.1");
        command.add("-Dquarkus.grpc.server.port=" + grpc);
        command.addAll(options);
        command.add("-jar");
        command.add(app.toString());
        Path log = directory.resolve(name + ".log");
        return new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
                .start();
    }

    /** Waits until every service answers its readiness check with 200. */
    public void awaitReady(Duration within) throws InterruptedException, IOException {
        HttpClient http =
                HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
        long deadline = System.nanoTime() + within.toNanos();
        for (Member member : members) {
            if (member.role().equals("kafka")) {
                continue;
            }
            while (true) {
                if (ready(http, member)) {
                    break;
                }
                if (!ProcessHandle.of(member.pid()).map(ProcessHandle::isAlive).orElse(false)) {
                    throw new IOException(
                            member.name() + " exited while starting; see " + directory.resolve(member.name() + ".log"));
                }
                if (System.nanoTime() > deadline) {
                    throw new IOException(member.name() + " was not ready within " + within.toSeconds() + " s; see "
                            + directory.resolve(member.name() + ".log"));
                }
                Thread.sleep(200);
            }
        }
    }

    private static boolean ready(HttpClient http, Member member) throws InterruptedException {
        try {
            HttpResponse<Void> response = http.send(
                    HttpRequest.newBuilder(URI.create(member.http() + "/q/health/ready"))
                            .timeout(Duration.ofSeconds(2))
                            .build(),
                    HttpResponse.BodyHandlers.discarding());
            return response.statusCode() == 200;
        } catch (IOException e) {
            return false;
        }
    }

    private void save() throws IOException {
        ObjectNode state = JSON.createObjectNode();
        state.put("kafka", bootstrapServers);
        ArrayNode list = state.putArray("members");
        for (Member m : members) {
            list.addObject()
                    .put("name", m.name())
                    .put("role", m.role())
                    .put("pid", m.pid())
                    .put("http_port", m.httpPort())
                    .put("grpc_port", m.grpcPort());
        }
        Files.writeString(
                directory.resolve(STATE), JSON.writerWithDefaultPrettyPrinter().writeValueAsString(state));
    }

    /** The cluster recorded in {@code directory}, if there is one. */
    public static Optional<LocalCluster> recorded(Path directory) throws IOException {
        Path file = directory.resolve(STATE);
        if (!Files.exists(file)) {
            return Optional.empty();
        }
        JsonNode state = JSON.readTree(file.toFile());
        List<Member> members = new ArrayList<>();
        for (JsonNode m : state.get("members")) {
            members.add(new Member(
                    m.get("name").asText(),
                    m.get("role").asText(),
                    m.get("pid").asLong(),
                    m.get("http_port").asInt(),
                    m.get("grpc_port").asInt()));
        }
        return Optional.of(new LocalCluster(directory, state.get("kafka").asText(), members, List.of()));
    }

    public List<Member> members() {
        return members;
    }

    public Member member(String name) {
        return members.stream()
                .filter(m -> m.name().equals(name))
                .findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no cluster member " + name));
    }

    public Member scheduler() {
        return member("scheduler");
    }

    public String bootstrapServers() {
        return bootstrapServers;
    }

    public Path directory() {
        return directory;
    }

    /**
     * Stops every member, referees and workers first and the broker last: SIGTERM, then SIGKILL after
     * {@code grace}. Forgets the cluster.
     */
    public void stop(Duration grace) throws IOException, InterruptedException {
        List<Member> order = new ArrayList<>();
        for (String role : List.of("referee", "worker", "scheduler", "kafka")) {
            members.stream().filter(m -> m.role().equals(role)).forEach(order::add);
        }
        for (Member member : order) {
            Optional<ProcessHandle> handle = ProcessHandle.of(member.pid());
            if (handle.isEmpty()) {
                continue;
            }
            handle.get().destroy();
            try {
                handle.get().onExit().get(grace.toMillis(), TimeUnit.MILLISECONDS);
            } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
                handle.get().descendants().forEach(ProcessHandle::destroyForcibly);
                handle.get().destroyForcibly();
            }
        }
        Files.deleteIfExists(directory.resolve(STATE));
    }
}
