package dev.taikai.refereeservice.app;

import dev.taikai.access.grpc.BearerToken;
import dev.taikai.access.grpc.GrpcTls;
import dev.taikai.access.quarkus.ServiceTls;
import dev.taikai.proto.events.v1.RefereeStatus;
import dev.taikai.proto.events.v1.WorkerStatus;
import dev.taikai.referee.game.Pairing;
import dev.taikai.refereeservice.kafka.LiveFeed;
import dev.taikai.refereeservice.kafka.PairingConsumer;
import dev.taikai.refereeservice.kafka.TournamentStatuses;
import dev.taikai.refereeservice.live.LiveGames;
import dev.taikai.refereeservice.remote.RemoteGames;
import dev.taikai.refereeservice.remote.SessionPool;
import dev.taikai.refereeservice.remote.WorkerPool;
import grpc.health.v1.HealthOuterClass.HealthCheckResponse.ServingStatus;
import io.grpc.ClientInterceptor;
import io.grpc.netty.NettyChannelBuilder;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.kafka.KafkaClientMetrics;
import io.netty.handler.ssl.SslContext;
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
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

/**
 * Wires a referee replica (docs/distributed.md lists every key): the workers it uses, the pairing
 * consumer with its capacity, the record producer, live games, metrics; on shutdown it stops taking games
 * and gives the running ones {@code taikai.referee.drain-seconds} to finish (unfinished ones are played
 * again by another replica).
 */
@ApplicationScoped
public class RefereeApplication {
    private static final Logger LOG = Logger.getLogger(RefereeApplication.class);

    @Inject
    ServiceTls tls;

    @Inject
    Instance<GrpcHealthStorage> grpcHealth;

    @ConfigProperty(name = "taikai.referee.id")
    String refereeId;

    @ConfigProperty(name = "taikai.referee.workers")
    List<String> workers;

    @ConfigProperty(name = "taikai.referee.max-games", defaultValue = "4")
    int maxGames;

    @ConfigProperty(name = "taikai.referee.transport-allowance-ms", defaultValue = "25")
    long transportAllowanceMillis;

    @ConfigProperty(name = "taikai.referee.session-idle-ms", defaultValue = "10000")
    long sessionIdleMillis;

    @ConfigProperty(name = "taikai.referee.workers-unreachable-ms", defaultValue = "10000")
    long workersUnreachableMillis;

    @ConfigProperty(name = "taikai.referee.drain-seconds", defaultValue = "30")
    int drainSeconds;

    @ConfigProperty(name = "taikai.referee.kafka-session-timeout-ms", defaultValue = "10000")
    int kafkaSessionTimeoutMillis;

    /** The referee's bearer token for the workers, kept in a file (never on a command line). */
    @ConfigProperty(name = "taikai.referee.token-file")
    Optional<String> tokenFile;

    @ConfigProperty(name = "taikai.kafka.bootstrap-servers")
    String bootstrapServers;

    @Inject
    MeterRegistry registry;

    private final LiveGames live = new LiveGames(1000);
    /** How often the referee's state goes on the live topic. */
    private static final int LIVE_STATUS_SECONDS = 5;
    /** How long a live event may wait for others to share its request to the broker. */
    private static final int LIVE_LINGER_MS = 25;

    private LiveFeed liveFeed;
    private ScheduledExecutorService liveStatus;
    private WorkerPool workerPool;
    private SessionPool sessions;
    private TournamentStatuses statuses;
    private PairingConsumer consumer;
    private KafkaProducer<String, byte[]> producer;
    private KafkaProducer<String, byte[]> liveProducer;
    private ScheduledExecutorService housekeeping;
    private volatile boolean draining;

    @Produces
    @Singleton
    LiveGames liveGames() {
        return live;
    }

    /** The referee's client certificate for the workers (mutual TLS), or null in plaintext. */
    private SslContext workerTls() {
        try {
            return tls.credentials().isPresent()
                    ? GrpcTls.client(tls.credentials().get())
                    : null;
        } catch (javax.net.ssl.SSLException e) {
            throw new ConfigurationException("cannot set up TLS to the workers: " + e.getMessage());
        }
    }

    private static NettyChannelBuilder encrypted(NettyChannelBuilder builder, SslContext tls) {
        return tls == null ? builder.usePlaintext() : builder.sslContext(tls);
    }

    void start(@Observes StartupEvent event) {
        Properties kafka = tls.kafkaClient();
        kafka.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        kafka.put(CommonClientConfigs.CLIENT_ID_CONFIG, "referee-" + refereeId);
        Properties producerProps = new Properties();
        producerProps.putAll(kafka);
        producerProps.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
        producerProps.put(ProducerConfig.ACKS_CONFIG, "all");
        // A send waits for the topic's metadata at most this long (Kafka's default: a minute), so a game's
        // thread is free again soon when the broker is down; the record is then sent again a second later.
        producerProps.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, "1000");
        producer = new KafkaProducer<>(producerProps, new StringSerializer(), new ByteArraySerializer());

        List<ClientInterceptor> credentials = workerCredentials();
        SslContext workerTls = workerTls();
        workerPool = new WorkerPool(
                workers,
                // answers are only queued for the game's thread, so they are taken on the network thread
                address -> encrypted(NettyChannelBuilder.forTarget(address), workerTls)
                        .directExecutor()
                        .intercept(credentials)
                        .keepAliveTime(10, TimeUnit.SECONDS)
                        .keepAliveTimeout(5, TimeUnit.SECONDS)
                        .keepAliveWithoutCalls(true)
                        .build());
        sessions = new SessionPool(workerPool, sessionIdleMillis, workersUnreachableMillis);
        RemoteGames games = new RemoteGames(sessions, transportAllowanceMillis, refereeId);
        RefereeMetrics metrics = new RefereeMetrics(registry, live);

        statuses = new TournamentStatuses(kafka);
        Properties consumerProps = new Properties();
        consumerProps.putAll(kafka);
        consumerProps.put(ConsumerConfig.GROUP_ID_CONFIG, "taikai-referees");
        // a replica that dies is noticed within this time; its unfinished games go to the others
        consumerProps.put(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG, String.valueOf(kafkaSessionTimeoutMillis));
        consumerProps.put(
                ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG,
                String.valueOf(Math.max(500, kafkaSessionTimeoutMillis / 4)));
        consumer = new PairingConsumer(
                consumerProps, producer, statuses, maxGames, pairing -> play(games, pairing, metrics), metrics);
        new KafkaClientMetrics(producer).bindTo(registry);
        metrics.lag(consumer);
        liveProducer = liveProducer(kafka);
        new KafkaClientMetrics(liveProducer).bindTo(registry);
        liveFeed = new LiveFeed(liveProducer, refereeId);
        live.feedTo(liveFeed);
        thread(statuses, "referee-tournaments");
        thread(consumer, "referee-pairings");
        thread(liveFeed, "referee-live");
        housekeeping = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "referee-housekeeping");
            t.setDaemon(true);
            return t;
        });
        housekeeping.scheduleWithFixedDelay(sessions::closeStale, 1, 1, TimeUnit.SECONDS);
        // the referee's state for the dashboard; its own thread, as a capacity poll may take seconds
        liveStatus = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "referee-live-status");
            t.setDaemon(true);
            return t;
        });
        liveStatus.scheduleWithFixedDelay(this::publishStatus, 0, LIVE_STATUS_SECONDS, TimeUnit.SECONDS);
        // SIGTERM: health says NOT_SERVING at once, while Quarkus's own shutdown still holds the listener
        // open, so that probes and balancers see it before anything stops (the drain follows in stop); only
        // once started: a referee that failed to start has no health to change
        Runtime.getRuntime().addShutdownHook(new Thread(this::notServing, "referee-not-serving"));
        LOG.infof(
                "referee %s: up to %d games at once, workers %s, Kafka %s, transport allowance %d ms",
                refereeId, maxGames, workers, bootstrapServers, transportAllowanceMillis);
    }

    /**
     * The live topic's own producer: a record per move, so the records wait up to {@link #LIVE_LINGER_MS}
     * to go out together (a request per move was most of the broker's work), and one leader's
     * acknowledgement is enough for events that a viewer may miss (the game records keep the idempotent
     * producer's guarantees).
     */
    private static KafkaProducer<String, byte[]> liveProducer(Properties kafka) {
        Properties props = new Properties();
        props.putAll(kafka);
        props.put(
                CommonClientConfigs.CLIENT_ID_CONFIG,
                kafka.getProperty(CommonClientConfigs.CLIENT_ID_CONFIG) + "-live");
        props.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "false");
        props.put(ProducerConfig.ACKS_CONFIG, "1");
        props.put(ProducerConfig.LINGER_MS_CONFIG, String.valueOf(LIVE_LINGER_MS));
        props.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, "1000");
        return new KafkaProducer<>(props, new StringSerializer(), new ByteArraySerializer());
    }

    /** The referee's games and its workers' capacities, on the live topic. */
    private void publishStatus() {
        try {
            RefereeStatus.Builder status = RefereeStatus.newBuilder()
                    .setGamesInPlay(live.playing().size())
                    .setGamesCapacity(maxGames);
            workerPool
                    .capacities()
                    .forEach((address, capacity) -> status.addWorkers(WorkerStatus.newBuilder()
                            .setWorkerId(capacity.getWorkerId())
                            .setAddress(address)
                            .setSlots(capacity.getSlots())
                            .setFree(Math.max(0, capacity.getFree()))
                            .setReachable(capacity.getFree() >= 0)));
            liveFeed.status(status);
        } catch (RuntimeException e) {
            LOG.debugf("live status not published: %s", e.getMessage());
        }
    }

    /** Sends the referee's token with every call to a worker; nothing when none is configured. */
    private List<ClientInterceptor> workerCredentials() {
        if (tokenFile.isEmpty() || tokenFile.get().isBlank()) {
            LOG.warn("taikai.referee.token-file is not set: workers that require a token will refuse this referee");
            return List.of();
        }
        try {
            return List.of(BearerToken.fromFile(Path.of(tokenFile.get())).interceptor());
        } catch (java.io.IOException e) {
            throw new ConfigurationException("cannot read taikai.referee.token-file: " + e.getMessage());
        }
    }

    private PairingConsumer.Played play(RemoteGames games, Pairing pairing, RefereeMetrics metrics) {
        metrics.started(pairing);
        var observer = live.begin(pairing);
        try {
            var played = games.playLogged(pairing, metrics.observing(pairing, observer));
            live.finish(pairing, played.record());
            return new PairingConsumer.Played(played.record(), played.logGzip());
        } catch (RuntimeException e) {
            live.abandon(pairing);
            throw e;
        }
    }

    private static void thread(Runnable body, String name) {
        Thread thread = new Thread(body, name);
        thread.setDaemon(true);
        thread.start();
    }

    /** True once the consumer runs and until shutdown begins; for the readiness check. */
    boolean serving() {
        return consumer != null && !draining;
    }

    int running() {
        return consumer == null ? 0 : consumer.running();
    }

    /**
     * How long health says NOT_SERVING, at least, before the listener closes: a probe or balancer that asks
     * now and then sees it even when the referee has nothing to drain.
     */
    static final long NOT_SERVING_AT_LEAST_MILLIS = 1000;

    /** gRPC health NOT_SERVING and HTTP readiness down: balancers and probes move away first. */
    private void notServing() {
        draining = true;
        grpcHealth.stream().forEach(health -> {
            health.setStatus(GrpcHealthStorage.DEFAULT_SERVICE_NAME, ServingStatus.NOT_SERVING);
            health.getStatuses().keySet().forEach(name -> health.setStatus(name, ServingStatus.NOT_SERVING));
        });
    }

    void stop(@Observes ShutdownEvent event) {
        long notServingSince = System.nanoTime();
        draining = true;
        notServing();
        LOG.infof("referee %s: stopping: health NOT_SERVING, %d games to finish", refereeId, running());
        if (consumer == null) {
            return;
        }
        consumer.stopTaking();
        try {
            if (!consumer.awaitIdle(drainSeconds * 1000L)) {
                LOG.warnf(
                        "referee %s: %d games still running; they will be played again elsewhere",
                        refereeId, consumer.running());
            }
            long left = NOT_SERVING_AT_LEAST_MILLIS - (System.nanoTime() - notServingSince) / 1_000_000;
            if (left > 0) {
                Thread.sleep(left);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        consumer.close();
        statuses.close();
        housekeeping.shutdownNow();
        if (liveStatus != null) {
            liveStatus.shutdownNow();
        }
        if (liveFeed != null) {
            liveFeed.close();
        }
        sessions.close();
        workerPool.close();
        if (liveProducer != null) {
            liveProducer.close();
        }
        producer.close();
    }
}
