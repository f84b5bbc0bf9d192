package dev.taikai.engineworker.app;

import dev.taikai.enginehost.catalog.BuiltinCatalog;
import dev.taikai.enginehost.catalog.Catalog;
import dev.taikai.enginehost.config.ConfigException;
import dev.taikai.enginehost.host.EngineHost;
import dev.taikai.enginehost.host.HostLimits;
import dev.taikai.enginehost.session.EngineNetwork;
import dev.taikai.enginehost.session.Timeouts;
import grpc.health.v1.HealthOuterClass.HealthCheckResponse.ServingStatus;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.grpc.runtime.health.GrpcHealthStorage;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.quarkus.runtime.configuration.ConfigurationException;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.Instance;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import java.nio.file.Path;
import java.util.Optional;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

/**
 * Wires the worker: the engine host from configuration (docs/distributed.md lists every key), its
 * metrics, and a drain on shutdown that gives running sessions {@code taikai.worker.drain-seconds} to end
 * before their engines are killed.
 */
@ApplicationScoped
public class WorkerApplication {
    private static final Logger LOG = Logger.getLogger(WorkerApplication.class);

    @Inject
    Instance<GrpcHealthStorage> grpcHealth;

    @ConfigProperty(name = "taikai.worker.id")
    String workerId;

    /** Engine slots; 0 for one per core. */
    @ConfigProperty(name = "taikai.worker.slots", defaultValue = "0")
    int slots;

    /** A catalog file whose engines are added to the built-in ones (fairy-stockfish, crazywa, sjaakii, taikai-1..4). */
    @ConfigProperty(name = "taikai.worker.catalog")
    Optional<String> catalogFile;

    @ConfigProperty(name = "taikai.worker.drain-seconds", defaultValue = "30")
    int drainSeconds;

    private EngineHost host;

    @Produces
    @Singleton
    EngineHost host(MeterRegistry registry) {
        Catalog catalog = BuiltinCatalog.get();
        if (catalogFile.isPresent() && !catalogFile.get().isBlank()) {
            try {
                catalog = catalog.with(Catalog.read(Path.of(catalogFile.get())));
            } catch (ConfigException e) { // the worker does not start: Quarkus prints this line alone
                throw new ConfigurationException("taikai.worker.catalog: " + e.getMessage());
            }
        }
        int engineSlots = slots > 0 ? slots : Runtime.getRuntime().availableProcessors();
        host = new EngineHost(workerId, catalog, engineSlots, Timeouts.DEFAULT, new WorkerMetrics(registry));
        WorkerMetrics.gauges(registry, host);
        LOG.infof(
                "worker %s: %d engine slots, catalog %s",
                workerId,
                engineSlots,
                catalog.engines().stream().map(e -> e.id()).toList());
        HostLimits.ofThisProcess()
                .warning(engineSlots, 0)
                .ifPresent(too -> LOG.warnf("worker %s: limits too low for its engine slots: %s", workerId, too));
        EngineNetwork.Isolation network = EngineNetwork.isolation();
        if (network.isolated()) {
            LOG.infof("worker %s: %s", workerId, network.description());
        } else {
            LOG.warnf("worker %s: %s", workerId, network.description());
        }
        return host;
    }

    void started(@Observes StartupEvent event, EngineHost host) {
        // SIGTERM: health says NOT_SERVING at once, while Quarkus's own shutdown still holds the listener
        // open, so that probes and balancers see it before anything stops (the drain follows in stopping)
        Runtime.getRuntime().addShutdownHook(new Thread(this::notServing, "worker-not-serving"));
        LOG.infof("worker %s ready", host.workerId());
    }

    /**
     * How long health says NOT_SERVING, at least, before the listener closes: a probe or balancer that asks
     * now and then sees it even when the worker has no session to drain.
     */
    static final long NOT_SERVING_AT_LEAST_MILLIS = 1000;

    /** gRPC health NOT_SERVING: balancers and probes move away before anything stops. */
    private void notServing() {
        grpcHealth.stream().forEach(health -> {
            health.setStatus(GrpcHealthStorage.DEFAULT_SERVICE_NAME, ServingStatus.NOT_SERVING);
            health.getStatuses().keySet().forEach(name -> health.setStatus(name, ServingStatus.NOT_SERVING));
        });
    }

    void stopping(@Observes ShutdownEvent event) {
        long notServingSince = System.nanoTime();
        notServing();
        if (host == null) {
            return;
        }
        host.drain();
        long deadline = System.nanoTime() + drainSeconds * 1_000_000_000L;
        long notServingUntil = notServingSince + NOT_SERVING_AT_LEAST_MILLIS * 1_000_000L;
        while ((host.activeSessions() > 0 && System.nanoTime() < deadline) || System.nanoTime() < notServingUntil) {
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        if (host.activeSessions() > 0) {
            LOG.warnf("worker %s: killing %d engines still in session", workerId, host.activeSessions());
        }
        host.close();
    }
}
