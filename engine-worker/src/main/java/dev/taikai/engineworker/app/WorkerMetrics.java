package dev.taikai.engineworker.app;

import dev.taikai.enginehost.host.EngineHost;
import dev.taikai.enginehost.host.HostListener;
import dev.taikai.enginehost.session.EngineFailure;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.Locale;
import org.jboss.logging.Logger;

/** The worker's metrics (names in docs/distributed.md) and its log of sessions and engine failures. */
final class WorkerMetrics implements HostListener {
    private static final Logger LOG = Logger.getLogger(WorkerMetrics.class);

    private final MeterRegistry registry;

    WorkerMetrics(MeterRegistry registry) {
        this.registry = registry;
    }

    static void gauges(MeterRegistry registry, EngineHost host) {
        Gauge.builder("taikai.worker.sessions.active", host, EngineHost::activeSessions)
                .description("Engine sessions open now")
                .register(registry);
        Gauge.builder("taikai.worker.slots", host, EngineHost::slots)
                .description("Engine slots of this worker")
                .register(registry);
        Gauge.builder("taikai.worker.slots.free", host, EngineHost::freeSlots)
                .description("Engine slots a new session can have now (free, or held by a session idle between games)")
                .register(registry);
        Gauge.builder("taikai.worker.sessions.idle", host, EngineHost::parkedSessions)
                .description("Engine sessions idle between games, whose slots go to new sessions that need them")
                .register(registry);
    }

    @Override
    public void sessionOpened(String engineId) {
        Counter.builder("taikai.worker.sessions.opened")
                .description("Engine sessions started")
                .tag("engine", engineId)
                .register(registry)
                .increment();
    }

    @Override
    public void engineFailed(String engineId, EngineFailure failure) {
        String kind = failure.kind().name().toLowerCase(Locale.ROOT);
        LOG.warnf("engine %s failed: %s", engineId, failure);
        Counter.builder("taikai.worker.engine.failures")
                .description("Engines that crashed, stalled, broke the protocol or did not start, by kind")
                .tag("engine", engineId)
                .tag("kind", kind)
                .register(registry)
                .increment();
    }
}
