package dev.taikai.referee.remote;

import dev.taikai.enginehost.catalog.Catalog;
import dev.taikai.enginehost.catalog.EngineSpec;
import dev.taikai.enginehost.host.EngineHost;
import dev.taikai.enginehost.host.HostListener;
import dev.taikai.enginehost.usi.Timeouts;
import dev.taikai.engineworker.grpc.EngineWorkerService;
import dev.taikai.testkit.FakeEngines;
import io.grpc.ManagedChannel;
import io.grpc.Server;
import io.grpc.inprocess.InProcessChannelBuilder;
import io.grpc.inprocess.InProcessServerBuilder;
import java.io.IOException;
import java.util.List;

/**
 * A real engine worker service on gRPC's in-process transport, hosting fake engines as processes: {@code
 * fake} (random legal moves), {@code crash} (exits on go), {@code slow} (thinks 3 s per move).
 */
public final class InProcessWorker implements AutoCloseable {
    static final Timeouts QUICK = new Timeouts(10_000, 5_000, 300, 5_000, 500, 500);

    final EngineHost host;
    final Server server;
    final String name = InProcessServerBuilder.generateName();

    public InProcessWorker(String workerId, int slots) throws IOException {
        Catalog catalog = Catalog.of(List.of(
                EngineSpec.of("fake", FakeEngines.command()),
                EngineSpec.of("crash", FakeEngines.command("--crash-on-go")),
                EngineSpec.of("slow", FakeEngines.command("--think-ms", "3000"))));
        host = new EngineHost(workerId, catalog, slots, QUICK, HostListener.NONE);
        server = InProcessServerBuilder.forName(name)
                .addService(new EngineWorkerService(host))
                .build()
                .start();
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
