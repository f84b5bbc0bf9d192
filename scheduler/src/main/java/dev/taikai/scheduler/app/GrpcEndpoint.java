package dev.taikai.scheduler.app;

import dev.taikai.scheduler.grpc.SchedulerService;
import dev.taikai.scheduler.registry.Scheduler;
import io.quarkus.grpc.GrpcService;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;

/**
 * Serves {@link SchedulerService} on the Quarkus gRPC server. The scheduler is looked up on use: it is made
 * at the application's start ({@link SchedulerApplication}), after the gRPC server's, so that a
 * configuration that cannot work stops the scheduler with one line and not a stack trace.
 */
@GrpcService
public class GrpcEndpoint extends SchedulerService {
    @Inject
    public GrpcEndpoint(Instance<Scheduler> scheduler) {
        super(scheduler::get);
    }
}
