package dev.taikai.scheduler.app;

import dev.taikai.access.quarkus.ServiceTls;
import dev.taikai.enginehost.catalog.BuiltinCatalog;
import dev.taikai.enginehost.catalog.Catalog;
import dev.taikai.enginehost.config.ConfigException;
import dev.taikai.scheduler.kafka.EngineLogStore;
import dev.taikai.scheduler.kafka.LiveConsumer;
import dev.taikai.scheduler.kafka.SchedulerKafka;
import dev.taikai.scheduler.kafka.TopicSetup;
import dev.taikai.scheduler.live.LiveView;
import dev.taikai.scheduler.registry.EngineLogs;
import dev.taikai.scheduler.registry.Scheduler;
import dev.taikai.scheduler.registry.TournamentRegistry;
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
import java.util.Properties;
import org.apache.kafka.clients.CommonClientConfigs;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

/**
 * Wires the scheduler (docs/distributed.md lists every key): creates the topics when missing, rebuilds
 * the book from Kafka, then follows the game records. One scheduler instance runs at a time.
 */
@ApplicationScoped
public class SchedulerApplication {
    private static final Logger LOG = Logger.getLogger(SchedulerApplication.class);

    @Inject
    Instance<GrpcHealthStorage> grpcHealth;

    @ConfigProperty(name = "taikai.kafka.bootstrap-servers")
    String bootstrapServers;

    @ConfigProperty(name = "taikai.kafka.replication-factor", defaultValue = "1")
    short replication;

    @ConfigProperty(name = "taikai.kafka.pairing-partitions", defaultValue = "8")
    int pairingPartitions;

    /** Games of one tournament in play at once when its spec does not say. */
    @ConfigProperty(name = "taikai.scheduler.concurrency", defaultValue = "16")
    int defaultConcurrency;

    /** The catalog file the workers add to the built-in engines; with it, unknown engine ids are refused. */
    @ConfigProperty(name = "taikai.scheduler.catalog")
    Optional<String> catalogFile;

    @Inject
    MeterRegistry registry;

    @Inject
    ServiceTls tls;

    private Properties kafkaProps;
    private SchedulerKafka kafka;
    private volatile EngineLogStore engineLogs;
    private final LiveView live = new LiveView();
    private LiveConsumer liveConsumer;

    /** What the referees play now, for the dashboard (the live topic). */
    @Produces
    @Singleton
    LiveView liveView() {
        return live;
    }

    @Produces
    @Singleton
    Scheduler scheduler() {
        kafkaProps = tls.kafkaClient();
        kafkaProps.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        kafkaProps.put(CommonClientConfigs.CLIENT_ID_CONFIG, "scheduler");
        TournamentRegistry book = new TournamentRegistry(defaultConcurrency);
        kafka = new SchedulerKafka(book, kafkaProps, new SchedulerMetrics(registry, book));
        return new Scheduler(book, kafka, workersCatalog());
    }

    /** The built-in engines and those of {@code taikai.scheduler.catalog}: what the workers can start. */
    private Catalog workersCatalog() {
        Catalog catalog = BuiltinCatalog.get();
        if (catalogFile.isPresent() && !catalogFile.get().isBlank()) {
            try {
                catalog = catalog.with(Catalog.read(Path.of(catalogFile.get())));
            } catch (ConfigException e) {
                throw new ConfigurationException("taikai.scheduler.catalog: " + e.getMessage());
            }
        }
        LOG.infof("scheduler: tournaments may name the engines %s", catalog.ids());
        return catalog;
    }

    void start(@Observes StartupEvent event, Scheduler scheduler) throws Exception {
        TopicSetup.ensure(kafkaProps, pairingPartitions, replication);
        long started = System.nanoTime();
        kafka.rebuild();
        LOG.infof(
                "scheduler: rebuilt %d tournaments from Kafka %s in %d ms",
                scheduler.book().states().size(), bootstrapServers, (System.nanoTime() - started) / 1_000_000);
        Thread follower = new Thread(kafka, "scheduler-games");
        follower.setDaemon(true);
        follower.start();
        engineLogs = new EngineLogStore(kafkaProps);
        Thread logs = new Thread(engineLogs, "scheduler-engine-logs");
        logs.setDaemon(true);
        logs.start();
        liveConsumer = new LiveConsumer(kafkaProps, live);
        Thread liveThread = new Thread(liveConsumer, "scheduler-live");
        liveThread.setDaemon(true);
        liveThread.start();
        SchedulerMetrics.live(registry, live);
    }

    /** The games' engine logs, for the API: unavailable until the scheduler has started. */
    @Produces
    @Singleton
    EngineLogs engineLogs() {
        return (tournamentId, localId) -> {
            EngineLogStore store = engineLogs;
            if (store == null) {
                throw new EngineLogs.Unavailable("the scheduler is starting; try again");
            }
            return store.log(tournamentId, localId);
        };
    }

    boolean ready() {
        return kafka != null && kafka.ready();
    }

    void stop(@Observes ShutdownEvent event) {
        // gRPC health says NOT_SERVING before anything stops, so balancers and probes move away first
        grpcHealth.stream().forEach(health -> {
            health.setStatus(GrpcHealthStorage.DEFAULT_SERVICE_NAME, ServingStatus.NOT_SERVING);
            health.getStatuses().keySet().forEach(name -> health.setStatus(name, ServingStatus.NOT_SERVING));
        });
        if (kafka != null) {
            kafka.close();
        }
        if (engineLogs != null) {
            engineLogs.close();
        }
        if (liveConsumer != null) {
            liveConsumer.close();
        }
    }
}
