package dev.taikai.refereeservice.app;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;

/** Ready once the pairing consumer runs. */
@Readiness
@ApplicationScoped
public class RefereeHealth implements HealthCheck {
    @Inject
    RefereeApplication application;

    @Override
    public HealthCheckResponse call() {
        return HealthCheckResponse.named("referee")
                .status(application.serving())
                .withData("games", application.running())
                .build();
    }
}
