package dev.taikai.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.taikai.access.Role;
import dev.taikai.access.grpc.BearerToken;
import dev.taikai.access.grpc.GrpcTls;
import dev.taikai.access.tls.LocalCa;
import dev.taikai.access.tls.PeerIdentity;
import dev.taikai.access.tls.ServiceRole;
import dev.taikai.access.tls.TlsCredentials;
import dev.taikai.access.tls.TlsFiles;
import dev.taikai.cli.cluster.ClusterCertificates;
import dev.taikai.cli.cluster.LocalCluster;
import dev.taikai.deploy.KafkaAcls;
import dev.taikai.events.Topics;
import dev.taikai.proto.common.v1.Variant;
import dev.taikai.proto.worker.v1.EngineWorkerGrpc;
import dev.taikai.proto.worker.v1.SessionEvent;
import dev.taikai.proto.worker.v1.SessionRequest;
import dev.taikai.proto.worker.v1.StartEngine;
import dev.taikai.testkit.Await;
import grpc.health.v1.HealthGrpc;
import grpc.health.v1.HealthOuterClass.HealthCheckRequest;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.netty.NettyChannelBuilder;
import io.grpc.stub.StreamObserver;
import java.io.IOException;
import java.math.BigInteger;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A local cluster's transport (issue 19, docs/security.md), checked with real processes and real
 * connections: every listener refuses plaintext and certificates of another CA; a worker opens sessions
 * only for a referee's certificate, whatever token comes with it; the broker takes records from referees
 * only; a certificate replaced on disk is what new connections see within seconds.
 */
class ClusterTlsTest {
    @TempDir
    static Path dir;

    private static LocalCluster cluster;
    private static ClusterCertificates certificates;

    @BeforeAll
    static void up() throws Exception {
        ClusterProbe.threeFakes(dir);
        cluster = ClusterProbe.start(
                dir.resolve("cluster"),
                new LocalCluster.Shape(1, 1, 2, 1, dir.resolve("fakes.yaml").toString()));
        certificates = cluster.certificates().orElseThrow();
    }

    @AfterAll
    static void down() throws Exception {
        if (cluster != null) {
            ClusterProbe.stop(cluster, "cluster-tls-logs");
        }
    }

    @Test
    void everyListenerRefusesPlaintext() throws Exception {
        HttpClient plain =
                HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
        for (LocalCluster.Member member : services()) {
            // the same port answers HTTPS (the probe's client, with the CA) but not HTTP
            assertEquals(200, ClusterProbe.status(member.http() + "/q/health/ready"), member.name());
            String url = "http://127.0.0.1:" + member.httpPort() + "/q/health/ready";
            assertThrows(IOException.class, () -> httpStatus(plain, url), member.name() + " over HTTP");
            ManagedChannel channel = NettyChannelBuilder.forAddress("127.0.0.1", member.grpcPort())
                    .usePlaintext()
                    .build();
            try {
                assertEquals(Status.Code.UNAVAILABLE, health(channel), member.name() + " over plaintext gRPC");
            } finally {
                channel.shutdownNow();
            }
        }
        Properties plainKafka = new Properties();
        plainKafka.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, cluster.bootstrapServers());
        assertTrue(!kafkaAnswers(plainKafka), "the broker answers no plaintext client");
        assertTrue(kafkaAnswers(cluster.kafkaProperties()), "and answers the operator's certificate");
    }

    @Test
    void aCertificateOfAnotherCaIsRefused() throws Exception {
        // a referee's name and role, signed by a CA the cluster does not know; the client trusts the cluster
        Path stranger = dir.resolve("stranger");
        LocalCa other = LocalCa.create("someone else's CA", Duration.ofDays(1));
        other.issue(
                new PeerIdentity("referee-1", ServiceRole.REFEREE), List.of("127.0.0.1"), Duration.ofDays(1), stranger);
        Files.copy(certificates.caCertificate(), stranger.resolve(TlsFiles.CA), StandardCopyOption.REPLACE_EXISTING);
        try (TlsCredentials credentials = TlsCredentials.watch(TlsFiles.in(stranger))) {
            for (LocalCluster.Member member : services()) {
                ManagedChannel channel = NettyChannelBuilder.forAddress("127.0.0.1", member.grpcPort())
                        .sslContext(GrpcTls.client(credentials))
                        .build();
                try {
                    assertEquals(Status.Code.UNAVAILABLE, health(channel), member.name() + " over gRPC");
                } finally {
                    channel.shutdownNow();
                }
                HttpClient client = HttpClient.newBuilder()
                        .connectTimeout(Duration.ofSeconds(5))
                        .sslContext(credentials.clientContext())
                        .build();
                assertThrows(
                        IOException.class,
                        () -> httpStatus(client, member.http() + "/q/health/ready"),
                        member.name() + " over HTTPS");
            }
        }
        Properties kafka = cluster.kafkaProperties();
        kafka.putAll(dev.taikai.deploy.KafkaBroker.tlsClient(stranger, stranger.resolve("keystore.pem")));
        assertTrue(!kafkaAnswers(kafka), "the broker refuses the stranger");
    }

    @Test
    void aWorkerOpensSessionsOnlyForARefereeCertificate() throws Exception {
        String refereeToken = cluster.token(Role.REFEREE);
        // the operator's certificate (role admin) with a referee's token: refused, and the reason says why
        ManagedChannel operator =
                ClusterProbe.channel(cluster, cluster.member("worker-1")).build();
        try {
            Object refused = openSession(operator, refereeToken);
            StatusRuntimeException status = assertInstanceOf(StatusRuntimeException.class, refused);
            assertEquals(Status.Code.PERMISSION_DENIED, status.getStatus().getCode());
            assertTrue(status.getStatus().getDescription().contains("referee"), status.getMessage());
        } finally {
            operator.shutdownNow();
        }
        // a referee's certificate with the same token: the engine starts
        try (TlsCredentials referee = TlsCredentials.watch(TlsFiles.in(certificates.folder("referee-1")))) {
            ManagedChannel channel = NettyChannelBuilder.forTarget(
                            cluster.member("worker-1").grpc())
                    .sslContext(GrpcTls.client(referee))
                    .build();
            try {
                Object answer = openSession(channel, refereeToken);
                assertInstanceOf(SessionEvent.class, answer, String.valueOf(answer));
            } finally {
                channel.shutdownNow();
            }
        }
    }

    @Test
    void onlyRefereesWriteGameRecordsAndOnlyTheSchedulerPairings() throws Exception {
        assertEquals(
                List.of(
                        Topics.TOURNAMENTS,
                        Topics.PAIRINGS,
                        Topics.GAMES,
                        Topics.ENGINE_LOGS,
                        Topics.LIVE,
                        Topics.DEAD_LETTERS),
                KafkaAcls.topics(),
                "the ACLs name the topics the services use");
        Path worker = certificates.folder("worker-1");
        Path scheduler = certificates.folder("scheduler");
        Path referee = certificates.folder("referee-1");
        assertRefused(worker, Topics.GAMES);
        assertRefused(scheduler, Topics.GAMES);
        assertRefused(worker, Topics.PAIRINGS);
        assertRefused(referee, Topics.PAIRINGS);
        assertRefused(referee, Topics.TOURNAMENTS);
    }

    @Test
    void aCertificateReplacedOnDiskIsServedWithinSeconds() throws Exception {
        LocalCluster.Member scheduler = cluster.scheduler();
        LocalCluster.Member worker = cluster.member("worker-1");
        SSLContext context = cluster.sslContext().orElseThrow();
        BigInteger before = served(context, scheduler.httpPort()).getSerialNumber();
        assertEquals(before, served(context, scheduler.grpcPort()).getSerialNumber());

        LocalCluster.Member kafka = cluster.member("kafka");
        int controllerPort = controllerPort();
        BigInteger kafkaBefore = served(context, kafka.grpcPort()).getSerialNumber();
        assertEquals(kafkaBefore, served(context, controllerPort).getSerialNumber());

        long start = System.nanoTime();
        certificates.issue("scheduler", ServiceRole.SCHEDULER);
        certificates.issue("worker-1", ServiceRole.WORKER);
        certificates.issue("kafka", ServiceRole.KAFKA);
        BigInteger now = LocalCa.readCertificate(
                        certificates.folder("scheduler").resolve(TlsFiles.CERTIFICATE))
                .getSerialNumber();
        BigInteger workerNow = LocalCa.readCertificate(
                        certificates.folder("worker-1").resolve(TlsFiles.CERTIFICATE))
                .getSerialNumber();
        assertNotEquals(before, now);
        for (int port : List.of(scheduler.httpPort(), scheduler.grpcPort())) {
            Await.until(
                    Duration.ofSeconds(30),
                    "the scheduler's port " + port + " serves its new certificate",
                    () -> now.equals(servedOrNull(context, port)));
        }
        Await.until(
                Duration.ofSeconds(30),
                "the worker's gRPC port serves its new certificate",
                () -> workerNow.equals(servedOrNull(context, worker.grpcPort())));
        // the broker too, on both listeners, without a restart
        BigInteger kafkaNow = LocalCa.readCertificate(
                        certificates.folder("kafka").resolve(TlsFiles.CERTIFICATE))
                .getSerialNumber();
        assertNotEquals(kafkaBefore, kafkaNow);
        for (int port : List.of(kafka.grpcPort(), controllerPort)) {
            Await.until(
                    Duration.ofSeconds(60),
                    "the broker's port " + port + " serves its new certificate",
                    () -> kafkaNow.equals(servedOrNull(context, port)));
        }
        assertEquals(kafka.pid(), cluster.member("kafka").pid(), "the same broker process");
        Path brokerLog = dir.resolve("cluster").resolve("kafka").resolve("broker.log");
        Await.until(
                Duration.ofSeconds(30),
                "the broker's log says it took the new certificate",
                () -> logSince(brokerLog, 0).contains("changed; the listeners use them for new connections"));
        System.out.printf(
                "certificates replaced on disk served on new connections after %d ms%n",
                (System.nanoTime() - start) / 1_000_000);
        // and the services go on working with them: the API answers, the broker takes new clients, the
        // referee still reaches the worker
        assertEquals(200, ClusterProbe.status(scheduler.http() + "/q/health/ready"));
        assertTrue(kafkaAnswers(cluster.kafkaProperties()), "the broker answers a new client");
        try (TlsCredentials referee = TlsCredentials.watch(TlsFiles.in(certificates.folder("referee-1")))) {
            ManagedChannel channel = NettyChannelBuilder.forTarget(worker.grpc())
                    .sslContext(GrpcTls.client(referee))
                    .build();
            try {
                Object answer = openSession(channel, cluster.token(Role.REFEREE));
                assertInstanceOf(SessionEvent.class, answer, String.valueOf(answer));
            } finally {
                channel.shutdownNow();
            }
        }
    }

    /**
     * A key that does not belong to the broker's certificate (a key written before its certificate, or the
     * wrong file) is not handed to the broker: it goes on serving the certificate in use, says why in its
     * log, and takes the next good one.
     */
    @Test
    void aBrokerKeyThatDoesNotMatchItsCertificateIsNotTaken() throws Exception {
        SSLContext context = cluster.sslContext().orElseThrow();
        int port = cluster.member("kafka").grpcPort();
        Path folder = certificates.folder("kafka");
        Path brokerLog = dir.resolve("cluster").resolve("kafka").resolve("broker.log");
        BigInteger before = served(context, port).getSerialNumber();
        int linesBefore = Files.readAllLines(brokerLog).size();

        Files.copy(
                certificates.folder("admin").resolve(TlsFiles.KEY),
                folder.resolve(TlsFiles.KEY),
                StandardCopyOption.REPLACE_EXISTING);
        Await.until(
                Duration.ofSeconds(30),
                "the broker's log says why",
                () -> logSince(brokerLog, linesBefore)
                        .contains(
                                "the key in tls.key does not match the certificate in tls.crt; the broker keeps the ones in use"));
        assertEquals(before, served(context, port).getSerialNumber(), "the certificate in use");
        assertTrue(kafkaAnswers(cluster.kafkaProperties()), "the broker answers a new client");
        assertTheNextGoodCertificateIsServed(folder, context, port);
    }

    /**
     * A CA added to the broker's {@code ca.crt} (the first step of a CA rotation: trust the old CA and the
     * next, then issue from the next) is trusted for new connections within seconds, without a restart, as
     * the services trust theirs; the certificates of the old CA still are.
     */
    @Test
    void aCaAddedToTheBrokersCaFileIsTrustedWithinSeconds() throws Exception {
        Path reissued = dir.resolve("reissued");
        LocalCa next = LocalCa.create("the cluster's next CA", Duration.ofDays(1));
        next.issue(new PeerIdentity("admin", ServiceRole.ADMIN), List.of("127.0.0.1"), Duration.ofDays(1), reissued);
        byte[] nextCa = Files.readAllBytes(reissued.resolve(TlsFiles.CA));
        // the client trusts the broker's certificate, of the CA in use
        Files.copy(certificates.caCertificate(), reissued.resolve(TlsFiles.CA), StandardCopyOption.REPLACE_EXISTING);
        Properties kafka = cluster.kafkaProperties();
        kafka.putAll(dev.taikai.deploy.KafkaBroker.tlsClient(reissued, reissued.resolve("keystore.pem")));
        assertTrue(!kafkaAnswers(kafka), "the broker refuses the next CA's certificate before it trusts that CA");

        Path brokerCa = certificates.folder("kafka").resolve(TlsFiles.CA);
        byte[] before = Files.readAllBytes(brokerCa);
        Path brokerLog = dir.resolve("cluster").resolve("kafka").resolve("broker.log");
        int linesBefore = Files.readAllLines(brokerLog).size();
        long start = System.nanoTime();
        try {
            replace(
                    brokerCa,
                    new String(before, StandardCharsets.US_ASCII) + new String(nextCa, StandardCharsets.US_ASCII));
            Await.until(Duration.ofSeconds(60), "the broker answers a certificate of the next CA", () -> {
                try {
                    return kafkaAnswers(kafka);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return false;
                }
            });
            System.out.printf(
                    "a CA added to the broker's ca.crt trusted for new connections after %d ms%n",
                    (System.nanoTime() - start) / 1_000_000);
            assertTrue(kafkaAnswers(cluster.kafkaProperties()), "and still one of the CA in use");
        } finally {
            replace(brokerCa, new String(before, StandardCharsets.US_ASCII));
        }
        Await.until(
                Duration.ofSeconds(60),
                "the broker takes its CA file back",
                () -> logSince(brokerLog, linesBefore)
                                .split("changed; the listeners use them for new connections", -1)
                                .length
                        > 2);
    }

    /**
     * A broker certificate whose subject is not the one in use is refused by Kafka, which keeps serving the
     * certificate in use. Kafka answers the request to reload before it has reloaded, and says the refusal
     * only in its own log; the broker's log said that the listeners used the new certificate. It now says
     * that Kafka did not take it, and the next good certificate is taken.
     */
    @Test
    void aBrokerCertificateKafkaRefusesIsSaidToBeRefused() throws Exception {
        int port = cluster.member("kafka").grpcPort();
        Path folder = certificates.folder("kafka");
        SSLContext context = cluster.sslContext().orElseThrow();
        BigInteger before = served(context, port).getSerialNumber();
        Path brokerLog = dir.resolve("cluster").resolve("kafka").resolve("broker.log");
        int linesBefore = Files.readAllLines(brokerLog).size();
        // signed by the cluster's CA, but for another name: Kafka refuses a subject that changes
        LocalCa.load(dir.resolve("cluster").resolve("tls").resolve("ca"))
                .issue(
                        new PeerIdentity("kafka-2", ServiceRole.KAFKA),
                        List.of("127.0.0.1", "localhost"),
                        Duration.ofDays(1),
                        folder);
        Await.until(
                Duration.ofSeconds(60),
                "the broker's log says what became of the certificate",
                () -> logSince(brokerLog, linesBefore).contains("taikai: the certificate files in"));
        assertTrue(
                logSince(brokerLog, linesBefore).contains("changed, and Kafka did not take them"),
                logSince(brokerLog, linesBefore));
        assertEquals(before, served(context, port).getSerialNumber(), "the certificate in use");
        assertTheNextGoodCertificateIsServed(folder, context, port);
        assertTrue(kafkaAnswers(cluster.kafkaProperties()), "the broker answers a new client");
    }

    /** Issues the broker a good certificate, and waits until its listener on {@code port} serves it. */
    private static void assertTheNextGoodCertificateIsServed(Path folder, SSLContext context, int port)
            throws Exception {
        certificates.issue("kafka", ServiceRole.KAFKA);
        BigInteger now =
                LocalCa.readCertificate(folder.resolve(TlsFiles.CERTIFICATE)).getSerialNumber();
        Await.until(
                Duration.ofSeconds(60),
                "the broker serves the next good certificate",
                () -> now.equals(servedOrNull(context, port)));
    }

    /** Writes {@code text} to {@code file} at once, as a mounted Secret changes. */
    private static void replace(Path file, String text) throws IOException {
        Path next = file.resolveSibling(file.getFileName() + ".next");
        Files.writeString(next, text, StandardCharsets.US_ASCII);
        Files.move(next, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    /** The lines of {@code log} after its first {@code skip}, as one text ("" while it cannot be read). */
    private static String logSince(Path log, int skip) {
        try {
            List<String> lines = Files.readAllLines(log);
            return String.join("\n", lines.subList(Math.min(skip, lines.size()), lines.size()));
        } catch (IOException e) {
            return "";
        }
    }

    /** The scheduler, referees and workers (the broker is checked through Kafka clients). */
    private static List<LocalCluster.Member> services() {
        return cluster.members().stream().filter(m -> !m.role().equals("kafka")).toList();
    }

    private static int httpStatus(HttpClient client, String url) throws IOException, InterruptedException {
        return client.send(
                        HttpRequest.newBuilder(URI.create(url))
                                .timeout(Duration.ofSeconds(10))
                                .build(),
                        HttpResponse.BodyHandlers.discarding())
                .statusCode();
    }

    /** The gRPC health check's outcome: OK, or the code it failed with. */
    private static Status.Code health(ManagedChannel channel) {
        try {
            HealthGrpc.newBlockingStub(channel)
                    .withDeadlineAfter(20, TimeUnit.SECONDS)
                    .check(HealthCheckRequest.getDefaultInstance());
            return Status.Code.OK;
        } catch (StatusRuntimeException e) {
            return e.getStatus().getCode();
        }
    }

    /** Whether the broker tells a client with {@code properties} its cluster id. */
    private static boolean kafkaAnswers(Properties properties) throws InterruptedException {
        Properties admin = new Properties();
        admin.putAll(properties);
        admin.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, "5000");
        admin.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, "8000");
        try (Admin client = Admin.create(admin)) {
            client.describeCluster().clusterId().get(20, TimeUnit.SECONDS);
            return true;
        } catch (ExecutionException | java.util.concurrent.TimeoutException e) {
            return false;
        }
    }

    /** A record written to {@code topic} with the certificate in {@code folder} is refused by the broker's ACLs. */
    private static void assertRefused(Path folder, String topic) throws Exception {
        Properties properties = cluster.kafkaProperties(folder);
        properties.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, "20000");
        properties.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, "20000");
        properties.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, "10000");
        try (var producer = new KafkaProducer<>(properties, new StringSerializer(), new ByteArraySerializer())) {
            ExecutionException refused = assertThrows(
                    ExecutionException.class,
                    () -> producer.send(new ProducerRecord<>(topic, "forged", new byte[] {1, 2, 3}))
                            .get(30, TimeUnit.SECONDS),
                    folder.getFileName() + " writes to " + topic);
            assertInstanceOf(
                    TopicAuthorizationException.class,
                    refused.getCause(),
                    folder.getFileName() + " on " + topic + ": " + refused.getCause());
        }
    }

    /** Asks for an engine on a session with {@code token}: the first answer (an event or the error). */
    private static Object openSession(ManagedChannel channel, String token) throws InterruptedException {
        LinkedBlockingQueue<Object> answers = new LinkedBlockingQueue<>();
        StreamObserver<SessionRequest> requests = EngineWorkerGrpc.newStub(channel)
                .withCallCredentials(new BearerToken(token))
                .session(new StreamObserver<>() {
                    @Override
                    public void onNext(SessionEvent value) {
                        answers.add(value);
                    }

                    @Override
                    public void onError(Throwable t) {
                        answers.add(t);
                    }

                    @Override
                    public void onCompleted() {
                        answers.add("completed");
                    }
                });
        requests.onNext(SessionRequest.newBuilder()
                .setRequestId(1)
                .setStart(StartEngine.newBuilder().setEngineId("fake-a").setVariant(Variant.VARIANT_MINISHOGI))
                .build());
        Object answer = answers.poll(30, TimeUnit.SECONDS);
        if (answer instanceof SessionEvent) {
            requests.onCompleted();
        }
        return answer;
    }

    /** The certificate a new TLS connection to {@code port} is shown. */
    private static X509Certificate served(SSLContext context, int port) throws IOException {
        try (SSLSocket socket = (SSLSocket) context.getSocketFactory().createSocket("127.0.0.1", port)) {
            socket.setSoTimeout(10_000);
            socket.startHandshake();
            return (X509Certificate) socket.getSession().getPeerCertificates()[0];
        }
    }

    /** The broker's controller listener's port, from the configuration it was started with. */
    private static int controllerPort() throws IOException {
        Properties server = new Properties();
        try (var in =
                Files.newBufferedReader(dir.resolve("cluster").resolve("kafka").resolve("server.properties"))) {
            server.load(in);
        }
        String voters = server.getProperty("controller.quorum.voters");
        return Integer.parseInt(voters.substring(voters.lastIndexOf(':') + 1));
    }

    private static BigInteger servedOrNull(SSLContext context, int port) {
        try {
            return served(context, port).getSerialNumber();
        } catch (IOException e) {
            return null;
        }
    }
}
