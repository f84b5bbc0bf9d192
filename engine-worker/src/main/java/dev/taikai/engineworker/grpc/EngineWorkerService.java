package dev.taikai.engineworker.grpc;

import dev.taikai.enginehost.catalog.EngineSpec;
import dev.taikai.enginehost.host.EngineHost;
import dev.taikai.proto.worker.v1.Capacity;
import dev.taikai.proto.worker.v1.Catalog;
import dev.taikai.proto.worker.v1.CatalogEngine;
import dev.taikai.proto.worker.v1.EngineWorkerGrpc;
import dev.taikai.proto.worker.v1.GetCapacityRequest;
import dev.taikai.proto.worker.v1.GetCatalogRequest;
import dev.taikai.proto.worker.v1.SessionEvent;
import dev.taikai.proto.worker.v1.SessionRequest;
import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.StreamObserver;
import java.util.function.Supplier;

/**
 * The engine worker's gRPC face over an {@link EngineHost}: sessions as bidirectional streams, capacity
 * and catalog queries. Plain grpc-java, served by Quarkus in the worker application and by in-process
 * servers in tests.
 */
public class EngineWorkerService extends EngineWorkerGrpc.EngineWorkerImplBase {
    private final Supplier<EngineHost> hosts;

    public EngineWorkerService(EngineHost host) {
        this(() -> host);
    }

    /**
     * A service whose host is made on first use: a worker whose host cannot be made (its catalog file does
     * not read) then fails to start where the application says why in one line, not inside the gRPC server.
     */
    protected EngineWorkerService(Supplier<EngineHost> hosts) {
        this.hosts = hosts;
    }

    @Override
    public StreamObserver<SessionRequest> session(StreamObserver<SessionEvent> events) {
        return new SessionStream(hosts.get(), (ServerCallStreamObserver<SessionEvent>) events);
    }

    @Override
    public void getCapacity(GetCapacityRequest request, StreamObserver<Capacity> response) {
        EngineHost host = hosts.get();
        response.onNext(Capacity.newBuilder()
                .setWorkerId(host.workerId())
                .setSlots(host.slots())
                .setFree(host.draining() ? 0 : host.freeSlots())
                .setDraining(host.draining())
                .build());
        response.onCompleted();
    }

    @Override
    public void getCatalog(GetCatalogRequest request, StreamObserver<Catalog> response) {
        EngineHost host = hosts.get();
        Catalog.Builder catalog = Catalog.newBuilder().setWorkerId(host.workerId());
        for (EngineSpec engine : host.catalog().engines()) {
            catalog.addEngines(CatalogEngine.newBuilder()
                    .setId(engine.id())
                    .setNotation(engine.notation().id())
                    .putAllOptions(engine.options()));
        }
        response.onNext(catalog.build());
        response.onCompleted();
    }
}
