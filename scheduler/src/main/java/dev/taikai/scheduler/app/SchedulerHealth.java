package dev.taikai.scheduler.app;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;

/** Ready once the book has been rebuilt from Kafka. */
@Readiness
@ApplicationScoped
public class SchedulerHealth implements HealthCheck {
    @Inject
    SchedulerApplication application;

    @Override
    public HealthCheckResponse call() {
        return HealthCheckResponse.named("scheduler")
                .status(application.ready())
                .build();
    }
}
