package dev.taikai.deploy;

import java.io.IOException;
import java.lang.reflect.Method;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * A real Apache Kafka broker as its own process: one KRaft node (broker and controller) on loopback, run
 * from the Maven Central jars that this module copies to {@code deploy/target/kafka-libs}. Used by
 * {@code taikai cluster up} and by the tests that need a broker.
 */
public final class KafkaBroker implements AutoCloseable {
    /** How long formatting and starting may take; a JVM on a loaded two-core machine is slow to start. */
    static final Duration STARTUP = Duration.ofSeconds(120);

    private static final int BIND_ATTEMPTS = 3;
    private static final String MEMBER = "kafka";
    private static final String NODE_ID = "1";
    /** What the broker logs (logger kafka.server.KafkaRaftServer, INFO) once it serves. */
    private static final String STARTED = "Kafka Server started";

    /**
     * A broker whose listeners (clients' and controller's) speak only TLS and require a client certificate
     * of the CA, with ACLs enforced by KRaft's authorizer: nothing is allowed that no ACL allows, except
     * to {@code superUsers}.
     *
     * @param certificates the broker's folder of {@code tls.crt}, {@code tls.key} (unencrypted PKCS#8) and
     *     {@code ca.crt}, as a cert-manager Secret holds them; a certificate replaced there is used for new
     *     connections within seconds ({@link ReloadingBroker})
     * @param principalRules Kafka's {@code ssl.principal.mapping.rules}: from a certificate's subject to
     *     the principal its ACLs name
     * @param superUsers Kafka's {@code super.users}; the broker's own certificate must map to one of them
     * @param operator the folder of a super user's certificate, with which the broker's ACLs ({@link
     *     KafkaAcls}) are created once it has started
     */
    public record Tls(Path certificates, String principalRules, String superUsers, Path operator) {}

    private final Process process;
    private final int port;
    private final Path directory;

    private KafkaBroker(Process process, int port, Path directory) {
        this.process = process;
        this.port = port;
        this.directory = directory;
    }

    /** {@code deploy/target/kafka-libs} under the project root, checked to hold the broker's jars. */
    public static Path libs(Path projectRoot) {
        Path libs = projectRoot.resolve("deploy").resolve("target").resolve("kafka-libs");
        try (var jars = Files.list(libs)) {
            if (jars.noneMatch(jar -> jar.getFileName().toString().startsWith("kafka_2.13-"))) {
                throw new IllegalStateException(
                        "no Kafka broker jars in " + libs + "; build them with: mvn -pl deploy package");
            }
        } catch (IOException e) {
            throw new IllegalStateException(
                    "no Kafka broker jars in " + libs + "; build them with: mvn -pl deploy package");
        }
        return libs;
    }

    /**
     * Formats {@code directory} (unless it already holds a formatted log) and starts a broker listening on
     * {@code port} (0: a port of {@link LoopbackPorts}), its controller on another such port, and waits
     * until it accepts connections. Its output goes to {@code directory/broker.log}. When the broker could
     * not bind a port it chose (another program took it in between), it starts again on new ports, up to
     * {@value #BIND_ATTEMPTS} times, and says so in the log.
     *
     * @throws StartFailure with the reason in words and the log, when it cannot be started
     */
    public static KafkaBroker start(Path libs, Path directory, int port) throws IOException, InterruptedException {
        return start(libs, directory, port, LoopbackPorts::next);
    }

    /** {@link #start(Path, Path, int)} with the ports it chooses taken from {@code ports}. */
    public static KafkaBroker start(Path libs, Path directory, int port, LoopbackPorts.Source ports)
            throws IOException, InterruptedException {
        return start(libs, directory, port, ports, null);
    }

    /** {@link #start(Path, Path, int, LoopbackPorts.Source)} over TLS with ACLs, or in plaintext when {@code tls} is null. */
    public static KafkaBroker start(Path libs, Path directory, int port, LoopbackPorts.Source ports, Tls tls)
            throws IOException, InterruptedException {
        Files.createDirectories(directory);
        Path log = directory.resolve("broker.log");
        for (int attempt = 1; ; attempt++) {
            int brokerPort = port == 0 ? ports.next() : port;
            int controllerPort = ports.next();
            long offset = ProcessLogs.offset(log);
            try {
                return startOnce(libs, directory, brokerPort, controllerPort, tls);
            } catch (StartFailure e) {
                if (attempt == BIND_ATTEMPTS || !ProcessLogs.bindFailed(log, offset)) {
                    throw e;
                }
                note(
                        log,
                        "port " + brokerPort + " or " + controllerPort + " was taken by another program before the"
                                + " broker could bind it; starting again on new ports");
            }
        }
    }

    private static KafkaBroker startOnce(Path libs, Path directory, int brokerPort, int controllerPort, Tls tls)
            throws IOException, InterruptedException {
        Path data = directory.resolve("data");
        Path config = directory.resolve("server.properties");
        String protocol = tls == null ? "PLAINTEXT" : "SSL";
        List<String> lines = new ArrayList<>(List.of(
                "process.roles=broker,controller",
                "node.id=" + NODE_ID,
                "controller.quorum.voters=" + NODE_ID + "@127.0.0.1:" + controllerPort,
                "listeners=BROKER://127.0.0.1:" + brokerPort + ",CONTROLLER://127.0.0.1:" + controllerPort,
                "advertised.listeners=BROKER://127.0.0.1:" + brokerPort,
                "controller.listener.names=CONTROLLER",
                "listener.security.protocol.map=CONTROLLER:" + protocol + ",BROKER:" + protocol,
                "inter.broker.listener.name=BROKER",
                "log.dirs=" + data,
                "num.partitions=1",
                "auto.create.topics.enable=false",
                "offsets.topic.replication.factor=1",
                "offsets.topic.num.partitions=4",
                "transaction.state.log.replication.factor=1",
                "transaction.state.log.min.isr=1",
                "group.initial.rebalance.delay.ms=0",
                "log.cleaner.backoff.ms=1000"));
        if (tls != null) {
            lines.addAll(List.of(
                    "ssl.keystore.type=PEM",
                    "ssl.keystore.location=" + keystore(tls.certificates(), directory.resolve("keystore.pem")),
                    "ssl.truststore.type=PEM",
                    "ssl.truststore.location=" + tls.certificates().resolve("ca.crt"),
                    "ssl.client.auth=required",
                    "ssl.principal.mapping.rules=" + tls.principalRules(),
                    "authorizer.class.name=org.apache.kafka.metadata.authorizer.StandardAuthorizer",
                    "allow.everyone.if.no.acl.found=false",
                    "super.users=" + tls.superUsers()));
        }
        lines.add("");
        Files.writeString(config, String.join("\n", lines), StandardCharsets.UTF_8);
        Path log = directory.resolve("broker.log");
        if (!Files.exists(data.resolve("meta.properties"))) {
            long offset = ProcessLogs.offset(log);
            Process format = java(
                            libs,
                            "kafka.tools.StorageTool",
                            log,
                            "format",
                            "--cluster-id",
                            clusterId(libs),
                            "--config",
                            config.toString())
                    .start();
            if (!format.waitFor(STARTUP.toSeconds(), TimeUnit.SECONDS)) {
                destroy(format);
                throw new StartFailure(
                        MEMBER,
                        "formatting its log directory did not finish within " + STARTUP.toSeconds() + " s",
                        log);
            }
            if (format.exitValue() != 0) {
                throw new StartFailure(
                        MEMBER,
                        "formatting its log directory failed: "
                                + ProcessLogs.reason(log, offset, "exit code " + format.exitValue()),
                        log);
            }
        }
        long offset = ProcessLogs.offset(log);
        Process broker = (tls == null
                        ? java(libs, null, "kafka.Kafka", log, true, config.toString())
                        : java(
                                libs,
                                ownCode(),
                                ReloadingBroker.class.getName(),
                                log,
                                true,
                                config.toString(),
                                tls.certificates().toString(),
                                directory.resolve("keystore.pem").toString(),
                                "127.0.0.1:" + brokerPort,
                                NODE_ID))
                .start();
        long deadline = System.nanoTime() + STARTUP.toNanos();
        // Another program listening on the port would accept connections too: the broker says it has started.
        while (!(ProcessLogs.since(log, offset).contains(STARTED) && accepts(brokerPort))) {
            if (!broker.isAlive()) {
                throw new StartFailure(
                        MEMBER,
                        "the broker exited while starting: "
                                + ProcessLogs.reason(log, offset, "exit code " + broker.exitValue()),
                        log);
            }
            if (System.nanoTime() - deadline > 0) {
                destroy(broker);
                throw new StartFailure(
                        MEMBER, "the broker did not accept connections within " + STARTUP.toSeconds() + " s", log);
            }
            Thread.sleep(100);
        }
        if (tls != null) {
            try {
                createAcls(libs, directory, brokerPort, tls, log);
            } catch (IOException | InterruptedException | RuntimeException e) {
                destroy(broker);
                throw e;
            }
        }
        return new KafkaBroker(broker, brokerPort, directory);
    }

    /**
     * Creates {@link KafkaAcls#all} with the operator's certificate, by {@link BrokerAcls} in a process of its
     * own on the broker's jars (the command line carries no Kafka client). A broker without them refuses
     * every service, so a failure stops the broker and fails the start.
     */
    private static void createAcls(Path libs, Path directory, int brokerPort, Tls tls, Path log)
            throws IOException, InterruptedException {
        Properties client = tlsClient(tls.operator(), directory.resolve("operator-keystore.pem"));
        client.put("bootstrap.servers", "127.0.0.1:" + brokerPort);
        Path file = directory.resolve("operator.properties");
        try (var out = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            client.store(out, "the operator's client, for the broker's ACLs");
        }
        long offset = ProcessLogs.offset(log);
        Process acls = java(libs, ownCode(), BrokerAcls.class.getName(), log, false, file.toString())
                .start();
        if (!acls.waitFor(STARTUP.toSeconds(), TimeUnit.SECONDS) || acls.exitValue() != 0) {
            destroy(acls);
            throw new StartFailure(
                    MEMBER,
                    "its ACLs could not be created: " + ProcessLogs.reason(log, offset, "the ACL tool failed"),
                    log);
        }
    }

    /** This module's classes (a jar or a folder), for the class path of a JVM on the broker's jars. */
    private static String ownCode() throws IOException {
        try {
            return Path.of(KafkaBroker.class
                            .getProtectionDomain()
                            .getCodeSource()
                            .getLocation()
                            .toURI())
                    .toString();
        } catch (java.net.URISyntaxException e) {
            throw new IOException("cannot find the deploy module's code: " + e.getMessage(), e);
        }
    }

    /**
     * The configuration of a Kafka client with the certificate in {@code certificates} (a folder of {@code
     * tls.crt}, {@code tls.key} and {@code ca.crt}), whose key store is written to {@code keystore}.
     */
    public static Properties tlsClient(Path certificates, Path keystore) throws IOException {
        return tlsClientOf(keystore(certificates, keystore), certificates.resolve("ca.crt"));
    }

    /** The configuration of a Kafka client with the PEM key store {@code keystore}, trusting {@code ca}. */
    static Properties tlsClientOf(Path keystore, Path ca) {
        Properties client = new Properties();
        client.put("security.protocol", "SSL");
        client.put("ssl.keystore.type", "PEM");
        client.put("ssl.keystore.location", keystore.toString());
        client.put("ssl.truststore.type", "PEM");
        client.put("ssl.truststore.location", ca.toString());
        return client;
    }

    /**
     * Kafka reads a PEM key store as one file of the key and then the certificate chain: written to {@code
     * keystore} (readable by this user only) from the certificate folder.
     */
    private static Path keystore(Path certificates, Path keystore) throws IOException {
        ReloadingBroker.writeKeyStore(keystore, ReloadingBroker.keyStoreOf(certificates));
        return keystore;
    }

    private static void destroy(Process process) throws InterruptedException {
        process.destroyForcibly();
        process.waitFor(30, TimeUnit.SECONDS);
    }

    /** Appends a line of the launcher's own to a process's log. */
    public static void note(Path log, String line) {
        try {
            Files.writeString(
                    log,
                    "taikai: " + line + "\n",
                    StandardCharsets.UTF_8,
                    java.nio.file.StandardOpenOption.CREATE,
                    java.nio.file.StandardOpenOption.APPEND);
        } catch (IOException e) {
            // the log is for reading after the fact; a start does not fail for want of it
        }
    }

    private static ProcessBuilder java(Path libs, String main, Path log, String... args) {
        return java(libs, null, main, log, false, args);
    }

    /**
     * A JVM on the broker's jars (and {@code extra} on the class path, when not null). A short-lived tool
     * runs with the first-tier JIT only; the broker itself ({@code longRunning}) gets the optimising one
     * too, without which AES-GCM runs as plain Java (its intrinsics are C2's): TLS cost the first-tier
     * broker a fifth of its CPU; and a session of its own ({@link OwnSession}).
     */
    private static ProcessBuilder java(
            Path libs, String extra, String main, Path log, boolean longRunning, String... args) {
        List<String> command = new ArrayList<>();
        if (longRunning) {
            command.addAll(OwnSession.prefix());
        }
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(List.of("-Xms128m", "-Xmx384m", "-XX:+UseSerialGC", "-Djava.awt.headless=true"));
        if (!longRunning) {
            command.add("-XX:TieredStopAtLevel=1");
        }
        command.add("-Dlog4j2.configurationFile=" + log4j(log.getParent()));
        command.add("-cp");
        command.add(libs.toAbsolutePath() + "/*" + (extra == null ? "" : java.io.File.pathSeparator + extra));
        command.add(main);
        command.addAll(List.of(args));
        return new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
    }

    /** A log4j2 configuration that writes warnings and the start line to standard output. */
    private static Path log4j(Path directory) {
        Path file = directory.resolve("log4j2.properties");
        try {
            Files.writeString(
                    file,
                    String.join(
                            "\n",
                            "appender.out.type=Console",
                            "appender.out.name=out",
                            "appender.out.layout.type=PatternLayout",
                            "appender.out.layout.pattern=[%d] %p %m (%c)%n",
                            "rootLogger.level=WARN",
                            "rootLogger.appenderRef.out.ref=out",
                            "logger.server.name=kafka.server.KafkaRaftServer",
                            "logger.server.level=INFO",
                            ""),
                    StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IllegalStateException("cannot write " + file, e);
        }
        return file;
    }

    /** A new cluster id from {@link #clusterIds}. */
    private static String clusterId(Path libs) throws IOException {
        return clusterIds(libs).get();
    }

    /**
     * Kafka's own cluster id generator ({@code Uuid.randomUuid()}, as {@code kafka-storage random-uuid}
     * prints it), loaded from the broker's jars so that it is the version that formats the log. It never
     * makes an id that starts with '-', which the storage tool's argument parser would read as a flag.
     */
    static Supplier<String> clusterIds(Path libs) throws IOException {
        Path clients;
        try (var jars = Files.list(libs)) {
            clients = jars.filter(jar -> jar.getFileName().toString().startsWith("kafka-clients-"))
                    .findFirst()
                    .orElseThrow(() -> new IOException("no kafka-clients jar in " + libs));
        }
        try {
            ClassLoader loader = new URLClassLoader(new URL[] {clients.toUri().toURL()}, null);
            Method randomUuid =
                    Class.forName("org.apache.kafka.common.Uuid", true, loader).getMethod("randomUuid");
            return () -> {
                try {
                    return randomUuid.invoke(null).toString();
                } catch (ReflectiveOperationException e) {
                    throw new IllegalStateException("Kafka's Uuid.randomUuid failed", e);
                }
            };
        } catch (ReflectiveOperationException e) {
            throw new IOException("cannot load Kafka's cluster id generator from " + clients + ": " + e, e);
        }
    }

    private static boolean accepts(int port) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", port), 200);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    public String bootstrapServers() {
        return "127.0.0.1:" + port;
    }

    public int port() {
        return port;
    }

    public long pid() {
        return process.pid();
    }

    /** The broker's process, for its exit status. */
    public Process process() {
        return process;
    }

    public Path directory() {
        return directory;
    }

    public boolean alive() {
        return process.isAlive();
    }

    /** Kills the broker at once, as a crash would (its log stays, so it can be started again). */
    public void kill() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor(30, TimeUnit.SECONDS);
    }

    /** Stops the broker (SIGTERM, then SIGKILL after 30 s). */
    @Override
    public void close() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            process.waitFor(10, TimeUnit.SECONDS);
        }
    }
}
