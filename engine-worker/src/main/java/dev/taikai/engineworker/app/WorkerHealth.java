package dev.taikai.engineworker.app;

import dev.taikai.enginehost.host.EngineHost;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;

/** Ready while the worker takes sessions; DOWN once it drains for shutdown. */
@Readiness
@ApplicationScoped
public class WorkerHealth implements HealthCheck {
    @Inject
    EngineHost host;

    @Override
    public HealthCheckResponse call() {
        return HealthCheckResponse.named("engine-host")
                .status(!host.draining())
                .withData("slots", host.slots())
                .withData("free", host.freeSlots())
                .build();
    }
}
