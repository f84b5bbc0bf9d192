package dev.taikai.scheduler.app;

import dev.taikai.access.quarkus.BadInputLog;
import dev.taikai.enginehost.catalog.EngineText;
import dev.taikai.proto.common.v1.GameRecord;
import dev.taikai.scheduler.kafka.SchedulerKafka;
import dev.taikai.scheduler.registry.TournamentRegistry;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.Locale;
import org.jboss.logging.Logger;

/** The scheduler's metrics (names in docs/distributed.md) and its log of counted games. */
final class SchedulerMetrics implements SchedulerKafka.Listener {
    private static final Logger LOG = Logger.getLogger(SchedulerMetrics.class);

    private final MeterRegistry registry;
    private final Counter published;

    /** The live view's meters: streams open, games in play, events taken and dropped (docs/distributed.md). */
    static void live(MeterRegistry registry, dev.taikai.scheduler.live.LiveView live) {
        Gauge.builder("taikai.scheduler.live.streams", live, v -> v.subscribers())
                .description("Dashboard event streams open (GET /api/live)")
                .register(registry);
        Gauge.builder("taikai.scheduler.live.games", live, v -> v.gamesInPlay())
                .description("Games in play, as the referees' live events tell")
                .register(registry);
        io.micrometer.core.instrument.FunctionCounter.builder("taikai.scheduler.live.events", live, v -> v.events())
                .description("Live events taken from the live topic")
                .register(registry);
        io.micrometer.core.instrument.FunctionCounter.builder("taikai.scheduler.live.dropped", live, v -> v.dropped())
                .description("Live events a slow stream could not take (it starts again from a snapshot)")
                .register(registry);
    }

    SchedulerMetrics(MeterRegistry registry, TournamentRegistry book) {
        this.registry = registry;
        this.published = Counter.builder("taikai.scheduler.pairings.published")
                .description("Pairings handed out to the referees")
                .register(registry);
        Gauge.builder(
                        "taikai.scheduler.tournaments.running",
                        book,
                        b -> b.running().size())
                .description("Tournaments handing out games")
                .register(registry);
        Gauge.builder("taikai.scheduler.games.queued", book, SchedulerMetrics::queued)
                .description("Games handed out and not yet counted, over all running tournaments")
                .register(registry);
    }

    private static double queued(TournamentRegistry book) {
        return book.states().stream()
                .filter(s -> s.getStatus() == dev.taikai.proto.tournament.v1.Status.STATUS_RUNNING)
                .mapToInt(s -> s.getPublishedGames() - s.getFinishedGames())
                .sum();
    }

    @Override
    public void counted(GameRecord record, TournamentRegistry.Counted how) {
        Counter.builder("taikai.scheduler.records")
                .description("Game records read, by what counting did with them")
                .tag("outcome", how.name().toLowerCase(Locale.ROOT))
                .register(registry)
                .increment();
        if (how != TournamentRegistry.Counted.COUNTED && how != TournamentRegistry.Counted.REFUSED) {
            LOG.infof(
                    "game %s: record %s, not counted",
                    record.getAssignment().getGameId(), how.name().toLowerCase(Locale.ROOT));
        }
    }

    @Override
    public void refused(GameRecord record, String why) {
        BadInputLog.warn(
                "refused-record",
                "game " + EngineText.shown(record.getAssignment().getGameId())
                        + ": record refused, not counted, copied to the dead letters: " + why);
    }

    @Override
    public void published(int pairings) {
        published.increment(pairings);
    }

    @Override
    public void poison(String topic, int partition, long offset, String why) {
        Counter.builder("taikai.scheduler.poison")
                .description("Unreadable messages skipped")
                .tag("topic", topic)
                .register(registry)
                .increment();
        BadInputLog.warn(
                "poison-" + topic,
                topic + " partition " + partition + " offset " + offset
                        + ": unreadable, skipped (kept in the dead-letter topic): " + why);
    }
}
