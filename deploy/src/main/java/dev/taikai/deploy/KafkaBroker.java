package dev.taikai.deploy;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

/**
 * A real Apache Kafka broker as its own process: one KRaft node (broker and controller) on loopback, run
 * from the Maven Central jars that this module copies to {@code deploy/target/kafka-libs}. Used by
 * {@code taikai cluster up} and by the tests that need a broker.
 */
public final class KafkaBroker implements AutoCloseable {
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
     * {@code port} (0: a free one), its controller on another free port, and waits until it accepts
     * connections. Its output goes to {@code directory/broker.log}.
     */
    public static KafkaBroker start(Path libs, Path directory, int port) throws IOException, InterruptedException {
        Files.createDirectories(directory);
        int brokerPort = port == 0 ? freePort() : port;
        int controllerPort = freePort();
        Path data = directory.resolve("data");
        Path config = directory.resolve("server.properties");
        Files.writeString(
                config,
                String.join(
                                "\n",
                                "process.roles=broker,controller",
                                "node.id=1",
                                "controller.quorum.voters=1@127.0.0.1:" + controllerPort,
                                "listeners=PLAINTEXT://127.0.0.1:" + brokerPort + ",CONTROLLER://127.0.0.1:"
                                        + controllerPort,
                                "advertised.listeners=PLAINTEXT://127.0.0.1:" + brokerPort,
                                "controller.listener.names=CONTROLLER",
                                "listener.security.protocol.map=CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT",
                                "inter.broker.listener.name=PLAINTEXT",
                                "log.dirs=" + data,
                                "num.partitions=1",
                                "auto.create.topics.enable=false",
                                "offsets.topic.replication.factor=1",
                                "offsets.topic.num.partitions=4",
                                "transaction.state.log.replication.factor=1",
                                "transaction.state.log.min.isr=1",
                                "group.initial.rebalance.delay.ms=0",
                                "log.cleaner.backoff.ms=1000",
                                "")
                        + "\n",
                StandardCharsets.UTF_8);
        Path log = directory.resolve("broker.log");
        if (!Files.exists(data.resolve("meta.properties"))) {
            Process format = java(
                            libs, "kafka.tools.StorageTool", log, "format", "-t", clusterId(), "-c", config.toString())
                    .start();
            if (!format.waitFor(60, TimeUnit.SECONDS) || format.exitValue() != 0) {
                format.destroyForcibly();
                throw new IOException("formatting the Kafka log directory failed (" + lastLines(log) + "); see " + log);
            }
        }
        Process broker = java(libs, "kafka.Kafka", log, config.toString()).start();
        KafkaBroker started = new KafkaBroker(broker, brokerPort, directory);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!accepts(brokerPort)) {
            if (!broker.isAlive() || System.nanoTime() > deadline) {
                broker.destroyForcibly();
                throw new IOException("the Kafka broker did not start (" + lastLines(log) + "); see " + log);
            }
            Thread.sleep(100);
        }
        return started;
    }

    private static ProcessBuilder java(Path libs, String main, Path log, String... args) {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(List.of(
                "-Xms128m", "-Xmx384m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-Djava.awt.headless=true"));
        command.add("-Dlog4j2.configurationFile=" + log4j(log.getParent()));
        command.add("-cp");
        command.add(libs.toAbsolutePath() + "/*");
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

    private static String clusterId() {
        // a base64url UUID without padding, as kafka-storage random-uuid prints it
        UUID uuid = UUID.randomUUID();
        java.nio.ByteBuffer bytes = java.nio.ByteBuffer.allocate(16);
        bytes.putLong(uuid.getMostSignificantBits()).putLong(uuid.getLeastSignificantBits());
        return java.util.Base64.getUrlEncoder().withoutPadding().encodeToString(bytes.array());
    }

    /** The last lines of a log, joined, for an error message. */
    private static String lastLines(Path log) {
        try {
            List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
            return String.join(" | ", lines.subList(Math.max(0, lines.size() - 3), lines.size()));
        } catch (IOException e) {
            return "no log";
        }
    }

    public static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            socket.setReuseAddress(true);
            return socket.getLocalPort();
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
