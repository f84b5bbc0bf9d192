package dev.taikai.access.grpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.taikai.access.Gate;
import dev.taikai.access.Role;
import dev.taikai.access.Tokens;
import dev.taikai.proto.worker.v1.Capacity;
import dev.taikai.proto.worker.v1.EngineWorkerGrpc;
import dev.taikai.proto.worker.v1.GetCapacityRequest;
import io.grpc.ManagedChannel;
import io.grpc.Server;
import io.grpc.ServerInterceptors;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.inprocess.InProcessChannelBuilder;
import io.grpc.inprocess.InProcessServerBuilder;
import io.grpc.stub.StreamObserver;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The interceptor over the in-process transport: refused calls never reach the service. */
class GrpcGateTest {
    @TempDir
    Path dir;

    @Test
    void callsWithoutTheRightTokenNeverReachTheService() throws Exception {
        String referee = Tokens.newToken();
        String worker = Tokens.newToken();
        Path file = dir.resolve("tokens");
        Files.write(file, List.of(Tokens.line(referee, Role.REFEREE, "r1"), Tokens.line(worker, Role.WORKER, "w2")));
        AtomicInteger reached = new AtomicInteger();
        var service = new EngineWorkerGrpc.EngineWorkerImplBase() {
            @Override
            public void getCapacity(GetCapacityRequest request, StreamObserver<Capacity> response) {
                reached.incrementAndGet();
                response.onNext(Capacity.newBuilder().setSlots(3).build());
                response.onCompleted();
            }
        };
        String name = InProcessServerBuilder.generateName();
        Server server = serve(name, service, file);
        ManagedChannel channel = InProcessChannelBuilder.forName(name).build();
        try {
            var stub = EngineWorkerGrpc.newBlockingStub(channel);
            var none = assertThrows(
                    StatusRuntimeException.class, () -> stub.getCapacity(GetCapacityRequest.getDefaultInstance()));
            assertEquals(Status.Code.UNAUTHENTICATED, none.getStatus().getCode());
            var wrongRole = assertThrows(
                    StatusRuntimeException.class,
                    () -> stub.withCallCredentials(new BearerToken(worker))
                            .getCapacity(GetCapacityRequest.getDefaultInstance()));
            assertEquals(Status.Code.PERMISSION_DENIED, wrongRole.getStatus().getCode());
            assertTrue(wrongRole.getStatus().getDescription().contains("'w2' (worker) may not call"));
            assertEquals(0, reached.get());
            assertEquals(
                    3,
                    stub.withCallCredentials(new BearerToken(referee))
                            .getCapacity(GetCapacityRequest.getDefaultInstance())
                            .getSlots());
            assertEquals(1, reached.get());
        } finally {
            channel.shutdownNow();
            server.shutdownNow();
        }
    }

    /** A watch stream opened with a token went on sending after the token was revoked: it is checked only at the call's start. */
    @Test
    @org.junit.jupiter.api.Timeout(60) // before the fix the stream never ended
    void aWatchEndsOnceItsTokenIsRevoked() throws Exception {
        String viewer = Tokens.newToken();
        String admin = Tokens.newToken();
        Path file = dir.resolve("tokens");
        Files.write(file, List.of(Tokens.line(viewer, Role.VIEWER, "v"), Tokens.line(admin, Role.ADMIN, "a")));
        java.util.concurrent.CountDownLatch stopped = new java.util.concurrent.CountDownLatch(1);
        var service = new dev.taikai.proto.scheduler.v1.SchedulerGrpc.SchedulerImplBase() {
            @Override
            public void watchTournament(
                    dev.taikai.proto.scheduler.v1.WatchTournamentRequest request,
                    StreamObserver<dev.taikai.proto.scheduler.v1.TournamentProgress> response) {
                var stream = (io.grpc.stub.ServerCallStreamObserver<dev.taikai.proto.scheduler.v1.TournamentProgress>)
                        response;
                Thread sender = new Thread(() -> {
                    while (!stream.isCancelled()) { // a progress every 50 ms, as a busy tournament's
                        stream.onNext(dev.taikai.proto.scheduler.v1.TournamentProgress.getDefaultInstance());
                        try {
                            Thread.sleep(50);
                        } catch (InterruptedException e) {
                            return;
                        }
                    }
                    stopped.countDown();
                });
                sender.setDaemon(true);
                sender.start();
            }
        };
        String name = InProcessServerBuilder.generateName();
        Server server = serve(name, service, file);
        ManagedChannel channel = InProcessChannelBuilder.forName(name).build();
        try {
            var watch = dev.taikai.proto.scheduler.v1.SchedulerGrpc.newBlockingStub(channel)
                    .withCallCredentials(new BearerToken(viewer))
                    .watchTournament(dev.taikai.proto.scheduler.v1.WatchTournamentRequest.getDefaultInstance());
            watch.next();
            Files.write(file, List.of(Tokens.line(admin, Role.ADMIN, "a")));
            Files.setLastModifiedTime(
                    file, java.nio.file.attribute.FileTime.fromMillis(System.currentTimeMillis() + 5000));
            long revoked = System.nanoTime();
            var ended = assertThrows(StatusRuntimeException.class, () -> {
                while (watch.hasNext()) {
                    watch.next();
                }
            });
            assertEquals(
                    Status.Code.UNAUTHENTICATED,
                    ended.getStatus().getCode(),
                    ended.getStatus().toString());
            assertTrue(
                    ended.getStatus().getDescription().contains("unknown or revoked token"),
                    ended.getStatus().toString());
            // a file read at most every 0.5 s, a stream checked at most every second
            assertTrue(System.nanoTime() - revoked < 10_000_000_000L, "within seconds of the revocation");
            assertTrue(
                    stopped.await(10, java.util.concurrent.TimeUnit.SECONDS), "the service sees the stream cancelled");
        } finally {
            channel.shutdownNow();
            server.shutdownNow();
        }
    }

    /** {@code service} behind a gate of the tokens in {@code file}, in process under {@code name}. */
    private static Server serve(String name, io.grpc.BindableService service, Path file) throws Exception {
        return InProcessServerBuilder.forName(name)
                .addService(ServerInterceptors.intercept(service, new GrpcGate(new Gate(Tokens.read(file)))))
                .build()
                .start();
    }
}
