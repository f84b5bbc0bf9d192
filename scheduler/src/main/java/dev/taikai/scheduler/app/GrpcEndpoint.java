package dev.taikai.scheduler.app;

import dev.taikai.scheduler.grpc.SchedulerService;
import dev.taikai.scheduler.registry.Scheduler;
import io.quarkus.grpc.GrpcService;
import jakarta.inject.Inject;

/** Serves {@link SchedulerService} on the Quarkus gRPC server. */
@GrpcService
public class GrpcEndpoint extends SchedulerService {
    @Inject
    public GrpcEndpoint(Scheduler scheduler) {
        super(scheduler);
    }
}
