package dev.taikai.cli.cluster;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.taikai.access.Role;
import dev.taikai.access.Tokens;
import dev.taikai.access.tls.ServiceRole;
import dev.taikai.access.tls.TlsCredentials;
import dev.taikai.deploy.KafkaAcls;
import dev.taikai.deploy.KafkaBroker;
import dev.taikai.deploy.LoopbackPorts;
import dev.taikai.deploy.OwnSession;
import dev.taikai.deploy.ProcessLogs;
import dev.taikai.deploy.StartFailure;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;

/**
 * Taikai's services as separate processes on this machine: a Kafka broker (KRaft, loopback), the
 * scheduler, engine workers and referees, each a Quarkus application from its module's {@code
 * target/quarkus-app}, with its log in the cluster directory. {@code cluster.json} there says what runs
 * where, so that later commands (and {@code taikai cluster down}) find it.
 */
public final class LocalCluster {
    /**
     * One service process; {@code tls}: its listeners speak TLS only; {@code startedMillis}: when its process
     * started (0: not recorded, a cluster recorded by an earlier Taikai), so that a pid the system has given
     * to another process since is never taken for the member.
     */
    public record Member(
            String name, String role, long pid, long startedMillis, int httpPort, int grpcPort, boolean tls) {
        /** The member's process, while it runs: not another process that has its pid now. */
        public Optional<ProcessHandle> process() {
            return ProcessHandle.of(pid)
                    .filter(handle -> startedMillis == 0
                            || handle.info()
                                    .startInstant()
                                    .map(at -> Math.abs(at.toEpochMilli() - startedMillis) < 1_000)
                                    .orElse(false));
        }

        /** Whether the member's own process runs. */
        public boolean running() {
            return process().map(ProcessHandle::isAlive).orElse(false);
        }

        /** When {@code pid}'s process started, epoch milliseconds (0 when unknown). */
        static long startOf(long pid) {
            return ProcessHandle.of(pid)
                    .flatMap(handle -> handle.info().startInstant())
                    .map(java.time.Instant::toEpochMilli)
                    .orElse(0L);
        }

        public String http() {
            return (tls ? "https" : "http") + "://127.0.0.1:" + httpPort;
        }

        public String grpc() {
            return "127.0.0.1:" + grpcPort;
        }
    }

    /**
     * How many of what to start; {@code plaintext}: without TLS (for debugging; by default every listener
     * speaks TLS with certificates of the cluster's own CA, {@link ClusterCertificates}).
     */
    public record Shape(
            int workers,
            int referees,
            int slotsPerWorker,
            int gamesPerReferee,
            String extraCatalog,
            boolean plaintext) {
        /** A cluster with TLS. */
        public Shape(int workers, int referees, int slotsPerWorker, int gamesPerReferee, String extraCatalog) {
            this(workers, referees, slotsPerWorker, gamesPerReferee, extraCatalog, false);
        }

        public Shape {
            atLeastOne("--workers", workers);
            atLeastOne("--referees", referees);
            atLeastOne("--slots", slotsPerWorker);
            atLeastOne("--games", gamesPerReferee);
            if (workers * slotsPerWorker < 2) {
                throw new IllegalArgumentException("a game needs two engine slots, and " + workers + " worker(s) of "
                        + slotsPerWorker + " slot(s) have " + workers * slotsPerWorker
                        + ": give more --workers or --slots");
            }
        }

        private static void atLeastOne(String flag, int count) {
            if (count < 1) {
                throw new IllegalArgumentException(flag + " " + count + ": a cluster needs at least one worker,"
                        + " referee, engine slot per worker and game per referee");
            }
        }
    }

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String STATE = "cluster.json";
    private static final String ACCESS = "access";
    private static final String TOKENS = "tokens";

    /** How a service was started, so that it can be started again the same way. */
    private record Launch(Path app, int httpPort, int grpcPort, List<String> options) {}

    /** How many times a start whose ports were taken is tried again on new ports. */
    private static final int BIND_ATTEMPTS = 3;

    private final Path directory;
    private String bootstrapServers;
    private final List<Member> members;
    private final Map<String, Launch> launches = new HashMap<>();
    /** The processes this object started, for their exit codes. */
    private final Map<String, Process> processes = new HashMap<>();
    /** Where each member's output of its latest start begins in its log. */
    private final Map<String, Long> logOffsets = new HashMap<>();

    private Path root;
    /** The cluster's CA and certificates; null for a plaintext cluster. */
    private final ClusterCertificates certificates;
    /** The operator's TLS credentials, read on first use. */
    private TlsCredentials operator;

    private LocalCluster(
            Path directory, String bootstrapServers, List<Member> members, ClusterCertificates certificates) {
        this.directory = directory;
        this.bootstrapServers = bootstrapServers;
        this.members = new ArrayList<>(members);
        this.certificates = certificates;
    }

    /**
     * Starts a broker and the services and waits until each is ready, all within {@code readyWithin}. A
     * service that could not bind a port it was given (another program took it in between) is started
     * again on new ports, with the services that depend on it, up to {@value #BIND_ATTEMPTS} times, and its
     * log says so. Any other member that exits while starting fails the start at once.
     *
     * @param root the project root (the services' and the broker's jars are built under it)
     * @throws StartFailure naming the member, the reason in words and its log; everything started is
     *     stopped by then
     */
    public static LocalCluster start(Path root, Path directory, Shape shape, Duration readyWithin)
            throws IOException, InterruptedException {
        return start(root, directory, shape, readyWithin, LoopbackPorts::next);
    }

    /** {@link #start(Path, Path, Shape, Duration)} with every port taken from {@code ports}. */
    public static LocalCluster start(
            Path root, Path directory, Shape shape, Duration readyWithin, LoopbackPorts.Source ports)
            throws IOException, InterruptedException {
        Files.createDirectories(directory);
        if (isRecorded(directory)) {
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
        Path libs = KafkaBroker.libs(root);
        Path access = issueTokens(directory);
        deleteTree(directory.resolve("tls")); // a CA of an earlier cluster is not reused
        ClusterCertificates certificates = shape.plaintext() ? null : ClusterCertificates.create(directory);
        long deadline = System.nanoTime() + readyWithin.toNanos();
        LocalCluster cluster = new LocalCluster(directory, null, List.of(), certificates);
        cluster.root = root;
        // the services run in sessions of their own, out of reach of the terminal's Ctrl-C: one that stops
        // this command before the cluster is up stops what it has started too
        Thread interrupted = new Thread(
                () -> {
                    System.err.println("taikai cluster up: interrupted; stopping the "
                            + cluster.members().stream().map(Member::name).toList()
                            + " it had started (no cluster is recorded in " + directory + ")");
                    cluster.killAllQuietly();
                },
                "taikai-cluster-up-interrupted");
        Runtime.getRuntime().addShutdownHook(interrupted);
        try {
            Path brokerLog = directory.resolve("kafka").resolve("broker.log");
            cluster.logOffsets.put("kafka", ProcessLogs.offset(brokerLog));
            KafkaBroker broker = KafkaBroker.start(libs, directory.resolve("kafka"), 0, ports, cluster.brokerTls());
            String kafka = broker.bootstrapServers();
            cluster.bootstrapServers = kafka;
            cluster.members.add(
                    new Member("kafka", "kafka", broker.pid(), Member.startOf(broker.pid()), 0, broker.port(), false));
            cluster.processes.put("kafka", broker.process());
            // the scheduler creates the topics; the others start once it is ready
            cluster.startAll(
                    () -> List.of(new Planned(
                            "scheduler",
                            "scheduler",
                            new Launch(
                                    apps.get(0), ports.next(), ports.next(), schedulerOptions(kafka, access, shape)))),
                    deadline,
                    readyWithin);
            cluster.startAll(() -> workersAndReferees(apps, kafka, access, shape, ports), deadline, readyWithin);
            cluster.save();
            forget(interrupted);
            return cluster;
        } catch (IOException | InterruptedException | RuntimeException e) {
            forget(interrupted);
            cluster.killAll();
            Files.deleteIfExists(directory.resolve(STATE));
            throw e;
        }
    }

    /** The broker's TLS and ACLs in a TLS cluster (its certificate issued at its first start); null in plaintext. */
    private KafkaBroker.Tls brokerTls() throws IOException {
        if (certificates == null) {
            return null;
        }
        Path folder = certificates.folder("kafka");
        if (!Files.exists(folder.resolve(dev.taikai.access.tls.TlsFiles.CERTIFICATE))) {
            certificates.issue("kafka", ServiceRole.KAFKA);
        }
        return new KafkaBroker.Tls(
                folder, KafkaAcls.PRINCIPAL_RULES, KafkaAcls.SUPER_USERS, certificates.folder("admin"));
    }

    /**
     * Kafka client properties for the operator: the bootstrap servers and, in a TLS cluster, the admin
     * certificate (a super user of the broker).
     */
    public Properties kafkaProperties() throws IOException {
        Properties properties = certificates == null
                ? new Properties()
                : KafkaBroker.tlsClient(
                        certificates.folder("admin"),
                        certificates.folder("admin").resolve("keystore.pem"));
        properties.put("bootstrap.servers", bootstrapServers);
        return properties;
    }

    /** Kafka client properties with the certificate in {@code folder} (one of {@link ClusterCertificates}). */
    public Properties kafkaProperties(Path folder) throws IOException {
        Properties properties = KafkaBroker.tlsClient(folder, folder.resolve("keystore.pem"));
        properties.put("bootstrap.servers", bootstrapServers);
        return properties;
    }

    /** A member about to be started. */
    private record Planned(String name, String role, Launch launch) {}

    /** The members of one start, each time on new ports. */
    private interface Plan {
        List<Planned> members() throws IOException;
    }

    /** The workers, and the referees that are given the workers' addresses. */
    private static List<Planned> workersAndReferees(
            List<Path> apps, String kafka, Path access, Shape shape, LoopbackPorts.Source ports) throws IOException {
        List<Planned> planned = new ArrayList<>();
        List<String> workerAddresses = new ArrayList<>();
        for (int i = 1; i <= shape.workers(); i++) {
            List<String> options = new ArrayList<>(List.of(
                    "-Dtaikai.worker.id=worker-" + i,
                    "-Dtaikai.worker.slots=" + shape.slotsPerWorker(),
                    "-Dtaikai.auth.tokens-file=" + access.resolve(TOKENS)));
            if (shape.extraCatalog() != null) {
                options.add("-Dtaikai.worker.catalog=" + shape.extraCatalog());
            }
            Launch launch = new Launch(apps.get(1), ports.next(), ports.next(), options);
            planned.add(new Planned("worker-" + i, "worker", launch));
            workerAddresses.add("127.0.0.1:" + launch.grpcPort());
        }
        for (int i = 1; i <= shape.referees(); i++) {
            planned.add(new Planned(
                    "referee-" + i,
                    "referee",
                    new Launch(
                            apps.get(2),
                            ports.next(),
                            ports.next(),
                            List.of(
                                    "-Dtaikai.referee.id=referee-" + i,
                                    "-Dtaikai.referee.workers=" + String.join(",", workerAddresses),
                                    "-Dtaikai.referee.max-games=" + shape.gamesPerReferee(),
                                    "-Dtaikai.kafka.bootstrap-servers=" + kafka,
                                    "-Dtaikai.auth.tokens-file=" + access.resolve(TOKENS),
                                    "-Dtaikai.referee.token-file=" + access.resolve(tokenFile(Role.REFEREE))))));
        }
        return planned;
    }

    /**
     * Starts the members of {@code plan} together and waits until they are ready. When one of them could
     * not bind a port, all of them are stopped and started again on new ports.
     */
    private void startAll(Plan plan, long deadlineNanos, Duration readyWithin)
            throws IOException, InterruptedException {
        for (int attempt = 1; ; attempt++) {
            List<Planned> planned = plan.members();
            for (Planned p : planned) {
                launch(p.name(), p.role(), p.launch());
            }
            List<String> names = planned.stream().map(Planned::name).toList();
            Optional<Member> unbound = awaitReady(names, deadlineNanos, readyWithin);
            if (unbound.isEmpty()) {
                return;
            }
            if (attempt == BIND_ATTEMPTS) {
                throw new StartFailure(
                        unbound.get().name(),
                        "could not bind its ports in " + BIND_ATTEMPTS + " attempts: another program took them",
                        log(unbound.get().name()));
            }
            for (Planned p : planned) {
                kill(member(p.name()));
                KafkaBroker.note(
                        log(p.name()),
                        "a port of " + unbound.get().name() + " was taken by another program before it could bind"
                                + " it; starting " + String.join(", ", names) + " again on new ports");
                synchronized (this) {
                    members.removeIf(m -> m.name().equals(p.name()));
                }
            }
        }
    }

    /**
     * Issues one token per role for this cluster, unless an earlier cluster in this folder did: {@code
     * access/tokens} holds their hashes (the services read it), {@code access/<role>.token} each token
     * itself, readable by this user only. Tokens never appear on a command line.
     */
    static Path issueTokens(Path directory) throws IOException {
        Path access = directory.resolve(ACCESS);
        Files.createDirectories(access);
        if (Files.exists(access.resolve(TOKENS))
                && java.util.Arrays.stream(Role.values())
                        .allMatch(role -> Files.exists(access.resolve(tokenFile(role))))) {
            // an earlier up in this folder issued them: tokens handed out since (and lines added to the
            // file, 'taikai token') keep working across a down and an up, as the tournaments do
            return access;
        }
        List<String> lines = new ArrayList<>(List.of("# Taikai access tokens of this local cluster (hashes only)"));
        for (Role role : Role.values()) {
            String token = Tokens.newToken();
            Path file = access.resolve(tokenFile(role));
            Files.deleteIfExists(file);
            Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
            Files.writeString(file, token + "\n");
            lines.add(Tokens.line(token, role, "local-" + role.id()));
        }
        Files.write(access.resolve(TOKENS), lines);
        return access;
    }

    private static void deleteTree(Path tree) throws IOException {
        if (!Files.exists(tree)) {
            return;
        }
        try (var paths = Files.walk(tree)) {
            for (Path path : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.delete(path);
            }
        }
    }

    private static String tokenFile(Role role) {
        return role.id() + ".token";
    }

    /** This cluster's token for {@code role}. */
    public String token(Role role) throws IOException {
        return Files.readString(directory.resolve(ACCESS).resolve(tokenFile(role)))
                .strip();
    }

    private static List<String> schedulerOptions(String kafka, Path access, Shape shape) {
        List<String> options = new ArrayList<>(List.of(
                "-Dtaikai.kafka.bootstrap-servers=" + kafka, "-Dtaikai.auth.tokens-file=" + access.resolve(TOKENS)));
        if (shape.extraCatalog() != null) {
            options.add("-Dtaikai.scheduler.catalog=" + shape.extraCatalog()); // the workers' catalog
        }
        return options;
    }

    /**
     * Starts a service and records it as a member (replacing an earlier member of that name). In a TLS
     * cluster it runs with its own certificate, issued at its first start.
     */
    private synchronized Member launch(String name, String role, Launch launch) throws IOException {
        logOffsets.put(name, ProcessLogs.offset(log(name)));
        List<String> options = new ArrayList<>(launch.options());
        if (certificates != null) {
            Path folder = certificates.folder(name);
            if (!Files.exists(folder.resolve(dev.taikai.access.tls.TlsFiles.CERTIFICATE))) {
                certificates.issue(name, ServiceRole.byId(role).orElseThrow());
            }
            options.add("-Dtaikai.tls.dir=" + folder);
        }
        Process process = service(launch.app(), directory, name, launch.httpPort(), launch.grpcPort(), options);
        processes.put(name, process);
        Member member = new Member(
                name,
                role,
                process.pid(),
                Member.startOf(process.pid()),
                launch.httpPort(),
                launch.grpcPort(),
                certificates != null);
        members.removeIf(m -> m.name().equals(name));
        members.add(member);
        launches.put(name, launch);
        return member;
    }

    /** Kills a member at once with SIGKILL, as a crash would, and waits until it is gone. */
    public void kill(String name) throws InterruptedException {
        Member member = member(name);
        Optional<ProcessHandle> handle = member.process();
        if (handle.isPresent()) {
            handle.get().destroyForcibly();
            try {
                handle.get().onExit().get(30, TimeUnit.SECONDS);
            } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
                throw new IllegalStateException(name + " did not die within 30 s of SIGKILL", e);
            }
        }
    }

    /**
     * Starts a member again after it stopped, on the same ports with the same configuration, and waits
     * until it is ready. The broker keeps its log, so it comes back with every topic and offset.
     */
    public Member restart(String name, Duration readyWithin) throws IOException, InterruptedException {
        Member old = member(name);
        if (old.running()) {
            throw new IllegalStateException(name + " is still running (pid " + old.pid() + ")");
        }
        Member member;
        if (old.role().equals("kafka")) {
            if (root == null) {
                throw new IllegalStateException("only the cluster that started the broker can restart it");
            }
            logOffsets.put(name, ProcessLogs.offset(log(name)));
            KafkaBroker broker = KafkaBroker.start(
                    KafkaBroker.libs(root),
                    directory.resolve("kafka"),
                    old.grpcPort(),
                    LoopbackPorts::next,
                    brokerTls());
            member = new Member("kafka", "kafka", broker.pid(), Member.startOf(broker.pid()), 0, broker.port(), false);
            processes.put("kafka", broker.process());
            synchronized (this) {
                members.replaceAll(m -> m.name().equals(name) ? member : m);
            }
        } else {
            Launch launch = launches.get(name);
            if (launch == null) {
                throw new IllegalStateException("only the cluster that started " + name + " can restart it");
            }
            member = launch(name, old.role(), launch);
        }
        save();
        awaitReady(readyWithin);
        return member;
    }

    /**
     * Starts one Quarkus service, in a session of its own ({@link OwnSession}); its output goes to
     * {@code <name>.log} in the cluster directory.
     */
    private static Process service(Path app, Path directory, String name, int http, int grpc, List<String> options)
            throws IOException {
        List<String> command = new ArrayList<>(OwnSession.prefix());
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
        List<String> services = members().stream()
                .filter(m -> !m.role().equals("kafka"))
                .map(Member::name)
                .toList();
        Optional<Member> unbound = awaitReady(services, System.nanoTime() + within.toNanos(), within);
        if (unbound.isPresent()) {
            throw new StartFailure(
                    unbound.get().name(),
                    "could not bind its ports: another program took them",
                    log(unbound.get().name()));
        }
    }

    /**
     * Waits until the members {@code names} answer their readiness checks with 200, watching every member
     * of the cluster meanwhile: one of {@code names} whose log says it could not bind a port is returned
     * (running or not); any member that exited ends the wait with its reason.
     */
    private Optional<Member> awaitReady(List<String> names, long deadlineNanos, Duration readyWithin)
            throws InterruptedException, IOException {
        HttpClient http = httpClient();
        List<String> pending = new ArrayList<>(names);
        while (true) {
            for (String name : pending) {
                // a Quarkus service that cannot bind its gRPC port keeps running, never ready
                if (ProcessLogs.bindFailed(log(name), logOffsets.getOrDefault(name, 0L))) {
                    return Optional.of(member(name));
                }
            }
            for (Member member : members()) {
                if (!member.running()) {
                    Path log = log(member.name());
                    long offset = logOffsets.getOrDefault(member.name(), 0L);
                    throw new StartFailure(
                            member.name(),
                            "exited while the cluster was starting: " + ProcessLogs.reason(log, offset, exitOf(member)),
                            log);
                }
            }
            pending.removeIf(name -> ready(http, member(name)));
            if (pending.isEmpty()) {
                return Optional.empty();
            }
            if (System.nanoTime() - deadlineNanos > 0) {
                String name = pending.get(0);
                throw new StartFailure(
                        name, "was not ready within " + readyWithin.toSeconds() + " s (still starting)", log(name));
            }
            Thread.sleep(200);
        }
    }

    /** "exit code 1" or "killed by signal 9", as far as this object started the member. */
    private String exitOf(Member member) {
        Process process = processes.get(member.name());
        if (process == null || process.isAlive()) {
            return "it exited";
        }
        int code = process.exitValue();
        return code > 128 && code < 128 + 65 ? "killed by signal " + (code - 128) : "exit code " + code;
    }

    /** The log of a member: {@code <name>.log} in the cluster directory, the broker's in {@code kafka/}. */
    private Path log(String name) {
        return name.equals("kafka")
                ? directory.resolve("kafka").resolve("broker.log")
                : directory.resolve(name + ".log");
    }

    /** Removes a shutdown hook; nothing when the JVM is already shutting down (the hook then runs). */
    private static void forget(Thread hook) {
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException e) {
            // shutting down: the hook stops what was started
        }
    }

    /** {@link #killAll()} from a shutdown hook, where nothing can be thrown to anyone. */
    private void killAllQuietly() {
        try {
            killAll();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Kills every member and whatever it started, and waits until they are gone. */
    private void killAll() throws InterruptedException {
        for (Member member : members()) {
            kill(member);
        }
        closeOperator();
    }

    /** Stops watching the operator's certificate files (they go with the cluster's folder). */
    private synchronized void closeOperator() {
        if (operator != null) {
            operator.close();
            operator = null;
        }
    }

    private static void kill(Member member) throws InterruptedException {
        Optional<ProcessHandle> handle = member.process();
        if (handle.isEmpty()) {
            return;
        }
        handle.get().descendants().forEach(ProcessHandle::destroyForcibly);
        handle.get().destroyForcibly();
        try {
            handle.get().onExit().get(30, TimeUnit.SECONDS);
        } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
            // reported by whoever looks for it next; there is nothing more to send it
        }
    }

    private static boolean ready(HttpClient http, Member member) {
        try {
            HttpResponse<Void> response = http.send(
                    HttpRequest.newBuilder(URI.create(member.http() + "/q/health/ready"))
                            .timeout(Duration.ofSeconds(2))
                            .build(),
                    HttpResponse.BodyHandlers.discarding());
            return response.statusCode() == 200;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private synchronized void save() throws IOException {
        ObjectNode state = JSON.createObjectNode();
        state.put("kafka", bootstrapServers);
        state.put("tls", certificates != null);
        ArrayNode list = state.putArray("members");
        for (Member m : members) {
            list.addObject()
                    .put("name", m.name())
                    .put("role", m.role())
                    .put("pid", m.pid())
                    .put("started_ms", m.startedMillis())
                    .put("http_port", m.httpPort())
                    .put("grpc_port", m.grpcPort());
        }
        Files.writeString(
                directory.resolve(STATE), JSON.writerWithDefaultPrettyPrinter().writeValueAsString(state));
    }

    /** Whether a cluster is recorded in {@code directory} (started and not stopped). */
    public static boolean isRecorded(Path directory) {
        return Files.exists(directory.resolve(STATE));
    }

    /** A cluster record that does not read: the message names the file and what is wrong with it. */
    public static final class UnreadableRecord extends IOException {
        private static final long serialVersionUID = 1L;

        UnreadableRecord(Path file, String why) {
            super("the cluster record " + file + " does not read: " + why);
        }
    }

    /** The cluster recorded in {@code directory}, if there is one, with its certificates when it runs TLS. */
    public static Optional<LocalCluster> recorded(Path directory) throws IOException {
        return recorded(directory, true);
    }

    /**
     * The cluster recorded in {@code directory}, if there is one; {@code certificates}: a TLS cluster's
     * certificates are read too, and their absence is an error (stopping the processes needs none).
     *
     * @throws UnreadableRecord when {@code cluster.json} is not the record {@link #save} writes
     */
    public static Optional<LocalCluster> recorded(Path directory, boolean certificates) throws IOException {
        Path file = directory.resolve(STATE);
        if (!Files.exists(file)) {
            return Optional.empty();
        }
        JsonNode state;
        try {
            state = JSON.readTree(file.toFile());
        } catch (com.fasterxml.jackson.core.JacksonException e) {
            throw new UnreadableRecord(file, "it is not JSON (" + e.getOriginalMessage() + ")");
        }
        if (state == null
                || !state.path("kafka").isTextual()
                || !state.path("members").isArray()) {
            throw new UnreadableRecord(file, "it has no 'kafka' address or no 'members' list");
        }
        boolean tls = state.path("tls").asBoolean(false);
        ClusterCertificates found = null;
        if (tls && certificates) {
            found = ClusterCertificates.existing(directory)
                    .orElseThrow(() -> new IOException("the cluster in " + directory + " runs TLS, but its CA is gone"
                            + " from " + directory.resolve("tls") + "; 'cluster down' stops it all the same"));
        }
        List<Member> members = new ArrayList<>();
        int index = 0;
        for (JsonNode m : state.get("members")) {
            for (String field : List.of("name", "role", "pid", "http_port", "grpc_port")) {
                if (m.path(field).isMissingNode() || m.path(field).isNull()) {
                    throw new UnreadableRecord(file, "member " + (index + 1) + " has no '" + field + "'");
                }
            }
            String role = m.get("role").asText();
            members.add(new Member(
                    m.get("name").asText(),
                    role,
                    m.get("pid").asLong(),
                    m.path("started_ms").asLong(0),
                    m.get("http_port").asInt(),
                    m.get("grpc_port").asInt(),
                    tls && !role.equals("kafka")));
            index++;
        }
        return Optional.of(new LocalCluster(directory, state.get("kafka").asText(), members, found));
    }

    /**
     * The processes a cluster in {@code directory} started, found without its record (one that no longer
     * reads): Java processes whose services' tokens file or broker's log configuration, as the process
     * itself resolves the path from its working directory, lies in {@code directory}. Linux ({@code
     * /proc}); none elsewhere. Never this process.
     */
    public static List<ProcessHandle> startedFrom(Path directory) {
        Path root = directory.toAbsolutePath().normalize();
        List<ProcessHandle> found = new ArrayList<>();
        ProcessHandle.allProcesses().forEach(process -> {
            if (process.pid() == ProcessHandle.current().pid()
                    || !process.info().command().orElse("").endsWith("/java")) {
                return;
            }
            Path cwd;
            try {
                cwd = Files.readSymbolicLink(Path.of("/proc", Long.toString(process.pid()), "cwd"));
            } catch (IOException | UnsupportedOperationException e) {
                return; // gone, another user's, or no /proc
            }
            for (String arg : process.info().arguments().orElse(new String[0])) {
                for (String marker : List.of("-Dtaikai.auth.tokens-file=", "-Dlog4j2.configurationFile=")) {
                    if (arg.startsWith(marker)) {
                        try {
                            if (cwd.resolve(arg.substring(marker.length()))
                                    .normalize()
                                    .startsWith(root)) {
                                found.add(process);
                                return;
                            }
                        } catch (java.nio.file.InvalidPathException e) {
                            // not a path: not ours
                        }
                    }
                }
            }
        });
        return found;
    }

    /**
     * Stops {@code processes} (SIGTERM, then SIGKILL with what they started after {@code grace}) and
     * forgets the cluster recorded in {@code directory}: {@code taikai cluster down} for a record that
     * no longer reads.
     */
    public static void stopStartedFrom(Path directory, List<ProcessHandle> processes, Duration grace)
            throws IOException, InterruptedException {
        for (ProcessHandle process : processes) {
            stopProcess(process, grace);
        }
        Files.deleteIfExists(directory.resolve(STATE));
    }

    private static void stopProcess(ProcessHandle handle, Duration grace) throws InterruptedException {
        handle.destroy();
        try {
            handle.onExit().get(grace.toMillis(), TimeUnit.MILLISECONDS);
        } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
            handle.descendants().forEach(ProcessHandle::destroyForcibly);
            handle.destroyForcibly();
        }
    }

    public synchronized List<Member> members() {
        return List.copyOf(members);
    }

    public Member member(String name) {
        return members().stream()
                .filter(m -> m.name().equals(name))
                .findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no cluster member " + name));
    }

    /** Whether the members speak TLS. */
    public boolean tls() {
        return certificates != null;
    }

    /** The cluster's certificates; empty for a plaintext cluster. */
    public Optional<ClusterCertificates> certificates() {
        return Optional.ofNullable(certificates);
    }

    /**
     * A TLS context for the operator's clients: the admin certificate, trusting the cluster's CA; empty
     * for a plaintext cluster.
     */
    public Optional<SSLContext> sslContext() throws IOException {
        if (certificates == null) {
            return Optional.empty();
        }
        synchronized (this) {
            if (operator == null) {
                operator = certificates.operator();
            }
        }
        try {
            return Optional.of(operator.clientContext());
        } catch (java.security.GeneralSecurityException e) {
            throw new IOException("cannot set up TLS with " + certificates.folder("admin") + ": " + e.getMessage(), e);
        }
    }

    /** A client of the scheduler's HTTP API with this cluster's token of {@code role}, over TLS when it runs it. */
    public SchedulerClient schedulerClient(Role role) throws IOException {
        return new SchedulerClient(scheduler().http(), token(role), sslContext().orElse(null));
    }

    /** The operator's TLS credentials (the admin certificate), for gRPC clients; empty for a plaintext cluster. */
    public Optional<TlsCredentials> operatorCredentials() throws IOException {
        sslContext();
        synchronized (this) {
            return Optional.ofNullable(operator);
        }
    }

    /** An HTTP client for the members' HTTP APIs, over TLS when the cluster runs it. */
    public HttpClient httpClient() throws IOException {
        HttpClient.Builder builder = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2));
        sslContext().ifPresent(builder::sslContext);
        return builder.build();
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
            members().stream().filter(m -> m.role().equals(role)).forEach(order::add);
        }
        for (Member member : order) {
            Optional<ProcessHandle> handle = member.process();
            if (handle.isPresent()) {
                stopProcess(handle.get(), grace);
            }
        }
        Files.deleteIfExists(directory.resolve(STATE));
        closeOperator();
    }
}
