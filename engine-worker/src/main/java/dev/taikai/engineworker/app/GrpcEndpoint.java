package dev.taikai.engineworker.app;

import dev.taikai.enginehost.host.EngineHost;
import dev.taikai.engineworker.grpc.EngineWorkerService;
import io.quarkus.grpc.GrpcService;
import jakarta.inject.Inject;

/** Serves {@link EngineWorkerService} on the Quarkus gRPC server. */
@GrpcService
public class GrpcEndpoint extends EngineWorkerService {
    @Inject
    public GrpcEndpoint(EngineHost host) {
        super(host);
    }
}
