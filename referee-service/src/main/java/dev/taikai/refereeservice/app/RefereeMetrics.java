package dev.taikai.refereeservice.app;

import dev.taikai.access.quarkus.BadInputLog;
import dev.taikai.proto.common.v1.GameRecord;
import dev.taikai.referee.game.GameAssignment;
import dev.taikai.referee.game.GameObserver;
import dev.taikai.referee.game.MoveRecord;
import dev.taikai.referee.game.Pairing;
import dev.taikai.refereeservice.kafka.PairingConsumer;
import dev.taikai.refereeservice.live.LiveGames;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import org.jboss.logging.Logger;

/** The referee's metrics (names in docs/distributed.md) and its log of what happened to which game. */
final class RefereeMetrics implements PairingConsumer.Listener {
    private static final Logger LOG = Logger.getLogger(RefereeMetrics.class);

    private final MeterRegistry registry;
    private final Counter moves;
    private final Timer moveLatency;
    private final Timer transportOverhead;

    RefereeMetrics(MeterRegistry registry, LiveGames live) {
        this.registry = registry;
        this.moves = Counter.builder("taikai.referee.moves")
                .description("Moves played")
                .register(registry);
        this.moveLatency = Timer.builder("taikai.referee.move.latency")
                .description("From sending go to having the move back, as the referee measures it")
                .publishPercentileHistogram()
                .minimumExpectedValue(Duration.ofNanos(100_000))
                .register(registry);
        this.transportOverhead = Timer.builder("taikai.referee.move.transport")
                .description("The referee's measurement of a move minus the worker's pipe measurement")
                .publishPercentileHistogram()
                .minimumExpectedValue(Duration.ofNanos(10_000))
                .maximumExpectedValue(Duration.ofSeconds(1))
                .register(registry);
        Gauge.builder("taikai.referee.games.active", live, LiveGames::playingCount)
                .description("Games in play on this replica")
                .register(registry);
    }

    void lag(PairingConsumer consumer) {
        Gauge.builder("taikai.referee.pairings.lag", consumer, PairingConsumer::lag)
                .description(
                        "Pairings waiting for this replica: in its partitions and not fetched, or fetched and not started")
                .register(registry);
    }

    void started(Pairing pairing) {
        Counter.builder("taikai.referee.games.started")
                .description("Games started (again after an abandoned attempt)")
                .register(registry)
                .increment();
        GameAssignment g = pairing.game();
        LOG.infof("game %s: %s (sente) vs %s (gote) started", pairing.gameId(), g.sente(), g.gote());
    }

    /** Wraps {@code observer} so that every move also feeds the move metrics. */
    GameObserver observing(Pairing pairing, GameObserver observer) {
        return new GameObserver() {
            @Override
            public void started(GameAssignment assignment, String startSfen) {
                observer.started(assignment, startSfen);
            }

            @Override
            public void moved(int ply, MoveRecord move, long senteRemaining, long goteRemaining, List<String> pv) {
                moves.increment();
                moveLatency.record(move.refereeNanos(), TimeUnit.NANOSECONDS);
                transportOverhead.record(Math.max(0, move.refereeNanos() - move.timeNanos()), TimeUnit.NANOSECONDS);
                observer.moved(ply, move, senteRemaining, goteRemaining, pv);
            }

            @Override
            public void finished(dev.taikai.referee.game.GameRecord record) {
                observer.finished(record);
            }
        };
    }

    @Override
    public void published(GameRecord record) {
        String termination = record.getTermination()
                .name()
                .substring("TERMINATION_".length())
                .toLowerCase(Locale.ROOT);
        Counter.builder("taikai.referee.games.finished")
                .description("Games finished and published, by termination")
                .tag("termination", termination)
                .register(registry)
                .increment();
        LOG.infof(
                "game %s: %s vs %s: %s by %s after %d plies (%s)",
                record.getAssignment().getGameId(),
                record.getAssignment().getSente().getName(),
                record.getAssignment().getGote().getName(),
                record.getResult().name().substring("RESULT_".length()).toLowerCase(Locale.ROOT),
                termination,
                record.getMovesCount(),
                record.getDetail());
    }

    @Override
    public void abandoned(String gameId, Exception why) {
        Counter.builder("taikai.referee.games.aborted")
                .description("Game attempts abandoned for an infrastructure fault (played again)")
                .register(registry)
                .increment();
        LOG.warnf("game %s abandoned, to be played again: %s", gameId, why.toString());
    }

    @Override
    public void skipped(String gameId, String why) {
        LOG.infof("game %s not started: %s", gameId, why);
    }

    @Override
    public void poison(String topic, int partition, long offset, String why) {
        Counter.builder("taikai.referee.poison")
                .description("Unreadable messages set aside")
                .tag("topic", topic)
                .register(registry)
                .increment();
        BadInputLog.warn(
                "poison-" + topic,
                topic + " partition " + partition + " offset " + offset
                        + ": unreadable, skipped (kept in the dead-letter topic): " + why);
    }
}
