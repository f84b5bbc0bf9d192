package dev.taikai.engineworker.app;

import dev.taikai.enginehost.host.EngineHost;
import dev.taikai.engineworker.grpc.EngineWorkerService;
import io.quarkus.grpc.GrpcService;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;

/**
 * Serves {@link EngineWorkerService} on the Quarkus gRPC server. The host is looked up on use: it is made at
 * the application's start ({@link WorkerApplication}), after the gRPC server's, so that a configuration
 * that cannot work stops the worker with one line and not a stack trace.
 */
@GrpcService
public class GrpcEndpoint extends EngineWorkerService {
    @Inject
    public GrpcEndpoint(Instance<EngineHost> host) {
        super(host::get);
    }
}
