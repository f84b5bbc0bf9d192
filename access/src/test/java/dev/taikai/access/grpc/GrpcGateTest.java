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
        Server server = InProcessServerBuilder.forName(name)
                .addService(ServerInterceptors.intercept(service, new GrpcGate(new Gate(Tokens.read(file)))))
                .build()
                .start();
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
}
