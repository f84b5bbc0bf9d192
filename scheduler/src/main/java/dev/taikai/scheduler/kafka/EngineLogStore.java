package dev.taikai.scheduler.kafka;

import dev.taikai.events.Topics;
import dev.taikai.proto.events.v1.EngineLogEvent;
import dev.taikai.referee.game.Pairing;
import dev.taikai.scheduler.registry.EngineLogs;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;
import java.util.logging.Logger;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;

/**
 * The games' engine logs, kept where the referees publish them: on {@link Topics#ENGINE_LOGS} (a week).
 * The scheduler holds only an index, game id to the first log published for it (a replayed game may
 * publish another, and the first record is the one counted); a request reads that one message from Kafka.
 * So logs cost the scheduler no memory and no disk, and outlive its restarts.
 */
public final class EngineLogStore implements EngineLogs, Runnable, AutoCloseable {
    private static final Logger LOG = Logger.getLogger(EngineLogStore.class.getName());
    /** The longest a request waits for the index to catch up, or for Kafka to return a message. */
    private static final Duration WAIT = Duration.ofSeconds(10);

    private record Where(TopicPartition partition, long offset) {}

    private final Map<String, Where> index = new ConcurrentHashMap<>();
    /** The follower's position in each partition: every log before it is indexed. */
    private final Map<TopicPartition, Long> indexed = new ConcurrentHashMap<>();

    private final KafkaConsumer<String, byte[]> follower;
    private final KafkaConsumer<String, byte[]> reader;
    private final List<TopicPartition> partitions;
    private volatile boolean running = true;

    public EngineLogStore(Properties kafka) {
        follower = SchedulerKafka.consumer(kafka);
        reader = SchedulerKafka.consumer(kafka);
        partitions = follower.partitionsFor(Topics.ENGINE_LOGS, Duration.ofSeconds(30)).stream()
                .map(p -> new TopicPartition(Topics.ENGINE_LOGS, p.partition()))
                .toList();
        follower.assign(partitions);
        follower.seekToBeginning(partitions);
    }

    /** Follows the topic from its beginning, indexing each game's first log; stops at {@link #close}. */
    @Override
    public void run() {
        try {
            while (running) {
                for (ConsumerRecord<String, byte[]> record : follower.poll(Duration.ofMillis(100))) {
                    if (record.key() != null && record.value() != null) {
                        index.putIfAbsent(
                                record.key(),
                                new Where(new TopicPartition(record.topic(), record.partition()), record.offset()));
                    }
                }
                for (TopicPartition partition : partitions) {
                    indexed.put(partition, follower.position(partition));
                }
            }
        } catch (WakeupException e) {
            // closing
        } finally {
            follower.close();
        }
    }

    /** {@inheritDoc} The index catches up with the topic first when it does not know the game. */
    @Override
    public Optional<byte[]> log(String tournamentId, String localId) throws Unavailable, InterruptedException {
        String gameId = Pairing.globalId(tournamentId, localId);
        Where where = index.get(gameId);
        if (where == null) {
            awaitIndexed();
            where = index.get(gameId);
            if (where == null) {
                return Optional.empty();
            }
        }
        return Optional.of(read(gameId, where));
    }

    /** Waits until the index has seen every log in the topic now. */
    private void awaitIndexed() throws Unavailable, InterruptedException {
        Map<TopicPartition, Long> end;
        synchronized (reader) {
            try {
                end = reader.endOffsets(partitions, WAIT);
            } catch (org.apache.kafka.common.errors.TimeoutException e) {
                throw new Unavailable("Kafka did not answer within " + WAIT.toSeconds() + " s");
            }
        }
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (end.entrySet().stream().anyMatch(e -> indexed.getOrDefault(e.getKey(), 0L) < e.getValue())) {
            if (System.nanoTime() > deadline) {
                throw new Unavailable("the engine logs are still being indexed; try again");
            }
            Thread.sleep(20);
        }
    }

    private byte[] read(String gameId, Where where) throws Unavailable {
        synchronized (reader) {
            reader.assign(List.of(where.partition()));
            reader.seek(where.partition(), where.offset());
            long deadline = System.nanoTime() + WAIT.toNanos();
            while (System.nanoTime() < deadline) {
                for (ConsumerRecord<String, byte[]> record : reader.poll(Duration.ofMillis(200))) {
                    if (record.offset() != where.offset()) {
                        continue;
                    }
                    try {
                        EngineLogEvent event = Topics.engineLog(record.value());
                        if (!event.getGameId().equals(gameId)) {
                            throw new Unavailable("the engine log at " + where + " is of game " + event.getGameId());
                        }
                        return event.getLogGzip().toByteArray();
                    } catch (Topics.Poison e) {
                        LOG.warning("engine log of " + gameId + " unreadable: " + e.getMessage());
                        throw new Unavailable("the engine log of " + gameId + " is unreadable: " + e.getMessage());
                    }
                }
            }
            throw new Unavailable(
                    "Kafka did not return the engine log of " + gameId + " within " + WAIT.toSeconds() + " s");
        }
    }

    @Override
    public void close() {
        running = false;
        follower.wakeup();
        synchronized (reader) {
            reader.close();
        }
    }
}
