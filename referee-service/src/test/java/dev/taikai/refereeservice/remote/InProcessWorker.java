package dev.taikai.refereeservice.remote;

import dev.taikai.enginehost.catalog.Catalog;
import dev.taikai.enginehost.catalog.EngineSpec;
import dev.taikai.enginehost.host.EngineHost;
import dev.taikai.enginehost.host.HostListener;
import dev.taikai.enginehost.session.Timeouts;
import dev.taikai.engineworker.grpc.EngineWorkerService;
import dev.taikai.proto.worker.v1.SessionRequest;
import dev.taikai.testkit.FakeEngines;
import io.grpc.ForwardingServerCallListener;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.Server;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.ServerInterceptors;
import io.grpc.inprocess.InProcessChannelBuilder;
import io.grpc.inprocess.InProcessServerBuilder;
import java.io.IOException;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A real engine worker service on gRPC's in-process transport, hosting fake engines as processes: {@code
 * fake} (random legal moves), {@code crash} (exits on go), {@code slow} (thinks 3 s per move).
 */
public final class InProcessWorker implements AutoCloseable {
    final EngineHost host;
    final Server server;
    final String name = InProcessServerBuilder.generateName();
    private final AtomicBoolean drainOnNewGame = new AtomicBoolean();

    public InProcessWorker(String workerId, int slots) throws IOException {
        Catalog catalog = Catalog.of(List.of(
                EngineSpec.of("fake", FakeEngines.command()),
                EngineSpec.of("crash", FakeEngines.command("--crash-on-go")),
                EngineSpec.of("slow", FakeEngines.command("--think-ms", "3000"))));
        // the worker's own deadlines, as in service: the referee's waits are built on them, and a loaded
        // machine does not make an engine that answers in time look stalled
        host = new EngineHost(workerId, catalog, slots, Timeouts.DEFAULT, HostListener.NONE);
        server = InProcessServerBuilder.forName(name)
                .addService(ServerInterceptors.intercept(new EngineWorkerService(host), new DrainOnNewGame()))
                .build()
                .start();
    }

    /**
     * Makes the worker begin to drain as the next new_game request reaches it, just before the request is
     * handed to its session: the race of a referee that readies a session while the worker starts to drain.
     */
    void drainOnNextNewGame() {
        drainOnNewGame.set(true);
    }

    private final class DrainOnNewGame implements ServerInterceptor {
        @Override
        public <Q, A> ServerCall.Listener<Q> interceptCall(
                ServerCall<Q, A> call, Metadata headers, ServerCallHandler<Q, A> next) {
            return new ForwardingServerCallListener.SimpleForwardingServerCallListener<>(
                    next.startCall(call, headers)) {
                @Override
                public void onMessage(Q message) {
                    if (message instanceof SessionRequest request
                            && request.hasNewGame()
                            && drainOnNewGame.compareAndSet(true, false)) {
                        host.drain();
                    }
                    super.onMessage(message);
                }
            };
        }
    }

    ManagedChannel channel() {
        return InProcessChannelBuilder.forName(name).build();
    }

    /** A pool whose one target, 127.0.0.1:1, is this worker. */
    public WorkerPool pool() {
        return new WorkerPool(List.of("127.0.0.1:1"), address -> channel());
    }

    @Override
    public void close() {
        server.shutdownNow();
        host.close();
    }
}
