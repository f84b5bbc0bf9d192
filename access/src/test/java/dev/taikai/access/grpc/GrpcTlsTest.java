package dev.taikai.access.grpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.taikai.access.Gate;
import dev.taikai.access.Role;
import dev.taikai.access.Tokens;
import dev.taikai.access.tls.LocalCa;
import dev.taikai.access.tls.PeerIdentity;
import dev.taikai.access.tls.ServiceRole;
import dev.taikai.access.tls.TlsCredentials;
import dev.taikai.access.tls.TlsFiles;
import dev.taikai.proto.worker.v1.EngineWorkerGrpc;
import dev.taikai.proto.worker.v1.SessionEvent;
import dev.taikai.proto.worker.v1.SessionRequest;
import dev.taikai.testkit.Await;
import io.grpc.ManagedChannel;
import io.grpc.Server;
import io.grpc.ServerInterceptors;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.netty.NettyChannelBuilder;
import io.grpc.netty.NettyServerBuilder;
import io.grpc.stub.StreamObserver;
import java.math.BigInteger;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import javax.net.ssl.SSLSocket;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A worker's gRPC listener over real TLS on loopback (Netty, as the services run it): who may connect,
 * who may open an engine session, and a certificate replaced on disk.
 */
class GrpcTlsTest {
    private static final List<String> LOOPBACK = List.of("127.0.0.1", "localhost");
    private static final Duration VALID = Duration.ofDays(1);

    @TempDir
    Path dir;

    private LocalCa ca;
    private final AtomicInteger sessions = new AtomicInteger();
    private TlsCredentials workerTls;
    private Server server;
    private String refereeToken;

    @BeforeEach
    void startWorker() throws Exception {
        ca = LocalCa.create("test CA", VALID);
        ca.save(dir.resolve("ca"));
        TlsFiles worker = ca.issue(new PeerIdentity("worker-1", ServiceRole.WORKER), LOOPBACK, VALID, dir.resolve("w"));
        refereeToken = Tokens.newToken();
        Path tokens = dir.resolve("tokens");
        Files.write(tokens, List.of(Tokens.line(refereeToken, Role.REFEREE, "r1")));
        var service = new EngineWorkerGrpc.EngineWorkerImplBase() {
            @Override
            public StreamObserver<SessionRequest> session(StreamObserver<SessionEvent> out) {
                sessions.incrementAndGet();
                out.onCompleted();
                return new StreamObserver<>() {
                    @Override
                    public void onNext(SessionRequest value) {}

                    @Override
                    public void onError(Throwable t) {}

                    @Override
                    public void onCompleted() {}
                };
            }
        };
        workerTls = TlsCredentials.watch(worker);
        server = NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", 0))
                .sslContext(GrpcTls.server(workerTls, true))
                .addService(ServerInterceptors.intercept(service, new GrpcGate(new Gate(Tokens.read(tokens)), true)))
                .build()
                .start();
    }

    @AfterEach
    void stop() throws InterruptedException {
        server.shutdownNow().awaitTermination(10, TimeUnit.SECONDS);
        workerTls.close();
    }

    @Test
    void boringSslCarriesTheseTestsAsItDoesTheServices() {
        // the services and these tests have netty-tcnative for Linux x86-64 (and the services for ARM64)
        if (System.getProperty("os.arch").equals("amd64")) {
            assertTrue(GrpcTls.implementation().startsWith("BoringSSL"), GrpcTls.implementation());
        }
    }

    @Test
    void aRefereeCertificateAndTokenOpenASession() throws Exception {
        assertEquals(Status.Code.OK, session(client(ServiceRole.REFEREE, ca)));
        assertEquals(1, sessions.get());
    }

    @Test
    void aPlaintextClientCannotConnect() throws Exception {
        ManagedChannel plain = NettyChannelBuilder.forAddress("127.0.0.1", server.getPort())
                .usePlaintext()
                .build();
        assertEquals(Status.Code.UNAVAILABLE, session(plain));
        assertEquals(0, sessions.get());
    }

    @Test
    void aCertificateOfAnotherCaCannotConnect() throws Exception {
        LocalCa other = LocalCa.create("another CA", VALID);
        Path otherFiles = dir.resolve("other");
        other.issue(new PeerIdentity("referee-1", ServiceRole.REFEREE), LOOPBACK, VALID, otherFiles);
        // the client trusts the worker's CA, so only its own certificate can fail the handshake
        Files.copy(
                dir.resolve("ca").resolve(TlsFiles.CA),
                otherFiles.resolve(TlsFiles.CA),
                java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        try (TlsCredentials rogue = TlsCredentials.watch(TlsFiles.in(otherFiles))) {
            assertEquals(Status.Code.UNAVAILABLE, session(channel(rogue)));
        }
        assertEquals(0, sessions.get());
    }

    @Test
    void aValidTokenWithoutARefereeCertificateOpensNoSession() throws Exception {
        StatusRuntimeException refused =
                assertThrows(StatusRuntimeException.class, () -> sessionOrThrow(client(ServiceRole.SCHEDULER, ca)));
        assertEquals(Status.Code.PERMISSION_DENIED, refused.getStatus().getCode());
        assertTrue(
                refused.getStatus()
                        .getDescription()
                        .contains("needs the client certificate of a referee; this"
                                + " connection presented that of scheduler-1 (scheduler)"),
                refused.getStatus().getDescription());
        assertEquals(0, sessions.get());
    }

    @Test
    void aCertificateReplacedOnDiskServesNewConnectionsWithinSeconds() throws Exception {
        try (TlsCredentials referee = credentials(ServiceRole.REFEREE, ca)) {
            BigInteger before = servedCertificate(referee).getSerialNumber();
            ca.issue(new PeerIdentity("worker-1", ServiceRole.WORKER), LOOPBACK, VALID, dir.resolve("w"));
            BigInteger replaced = LocalCa.readCertificate(dir.resolve("w").resolve(TlsFiles.CERTIFICATE))
                    .getSerialNumber();
            assertNotEquals(before, replaced);
            Await.until(
                    Duration.ofSeconds(20),
                    "the worker serves its new certificate",
                    () -> replaced.equals(servedCertificate(referee).getSerialNumber()));
            assertEquals(Status.Code.OK, session(channel(referee)));
        }
    }

    /** The certificate the server shows a new TLS connection now. */
    private X509Certificate servedCertificate(TlsCredentials client) {
        try (SSLSocket socket =
                (SSLSocket) client.clientContext().getSocketFactory().createSocket("127.0.0.1", server.getPort())) {
            socket.startHandshake();
            return (X509Certificate) socket.getSession().getPeerCertificates()[0];
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private TlsCredentials credentials(ServiceRole role, LocalCa issuer) throws Exception {
        Path files = dir.resolve(role.id() + "-" + System.nanoTime());
        issuer.issue(new PeerIdentity(role.id() + "-1", role), LOOPBACK, VALID, files);
        return TlsCredentials.watch(TlsFiles.in(files));
    }

    private ManagedChannel client(ServiceRole role, LocalCa issuer) throws Exception {
        return channel(credentials(role, issuer));
    }

    private ManagedChannel channel(TlsCredentials credentials) throws Exception {
        return NettyChannelBuilder.forAddress("127.0.0.1", server.getPort())
                .sslContext(GrpcTls.client(credentials))
                .build();
    }

    private Status.Code session(ManagedChannel channel) throws Exception {
        try {
            sessionOrThrow(channel);
            return Status.Code.OK;
        } catch (StatusRuntimeException e) {
            return e.getStatus().getCode();
        }
    }

    /** Opens a session with the referee's token and waits for its end. */
    private void sessionOrThrow(ManagedChannel channel) throws Exception {
        try {
            CompletableFuture<Void> done = new CompletableFuture<>();
            var stub = EngineWorkerGrpc.newStub(channel).withCallCredentials(new BearerToken(refereeToken));
            StreamObserver<SessionRequest> requests = stub.session(new StreamObserver<>() {
                @Override
                public void onNext(SessionEvent value) {}

                @Override
                public void onError(Throwable t) {
                    done.completeExceptionally(t);
                }

                @Override
                public void onCompleted() {
                    done.complete(null);
                }
            });
            requests.onCompleted();
            try {
                done.get(30, TimeUnit.SECONDS);
            } catch (java.util.concurrent.ExecutionException e) {
                if (e.getCause() instanceof StatusRuntimeException status) {
                    throw status;
                }
                throw e;
            }
        } finally {
            channel.shutdownNow();
        }
    }
}
