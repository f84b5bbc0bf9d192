package dev.taikai.refereeservice.kafka;

import dev.taikai.events.Topics;
import dev.taikai.proto.events.v1.TournamentEvent;
import dev.taikai.proto.tournament.v1.Status;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;
import java.util.logging.Logger;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * Every tournament's status as the scheduler last published it, read from the whole tournaments topic
 * and followed from then on; a referee asks it before starting a game, so that no game of a cancelled or
 * concluded tournament starts.
 */
public final class TournamentStatuses implements Runnable, AutoCloseable {
    private static final Logger LOG = Logger.getLogger(TournamentStatuses.class.getName());

    private final KafkaConsumer<String, byte[]> consumer;
    private final Map<String, Status> statuses = new ConcurrentHashMap<>();
    private volatile boolean running = true;
    private volatile boolean caughtUp;

    public TournamentStatuses(Properties kafka) {
        Properties props = new Properties();
        props.putAll(kafka);
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        props.remove(ConsumerConfig.GROUP_ID_CONFIG);
        this.consumer = new KafkaConsumer<>(props, new StringDeserializer(), new ByteArrayDeserializer());
    }

    @Override
    public void run() {
        try {
            List<TopicPartition> partitions = List.of();
            while (running && partitions.isEmpty()) { // the scheduler creates the topic; wait for it
                partitions = consumer.partitionsFor(Topics.TOURNAMENTS, Duration.ofSeconds(30)).stream()
                        .map(p -> new TopicPartition(p.topic(), p.partition()))
                        .toList();
                if (partitions.isEmpty()) {
                    Thread.sleep(500);
                }
            }
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> end = consumer.endOffsets(partitions);
            while (running) {
                for (ConsumerRecord<String, byte[]> record : consumer.poll(Duration.ofMillis(200))) {
                    if (record.value() == null) {
                        continue;
                    }
                    try {
                        TournamentEvent event = Topics.tournament(record.value());
                        statuses.put(
                                event.getState().getTournamentId(),
                                event.getState().getStatus());
                    } catch (Topics.Poison e) {
                        LOG.warning("tournaments topic, offset " + record.offset() + ": skipped: " + e.getMessage());
                    }
                }
                if (!caughtUp) {
                    caughtUp = end.entrySet().stream().allMatch(e -> consumer.position(e.getKey()) >= e.getValue());
                }
            }
        } catch (WakeupException e) {
            // closing
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            consumer.close();
        }
    }

    /** True once every status published before this referee started has been read. */
    public boolean caughtUp() {
        return caughtUp;
    }

    /**
     * True when the tournament starts no further game: it was cancelled or aborted (or has finished, when
     * nothing is left to start). An SPRT that concluded is not among them: the games it had handed out
     * are played out and counted, so that its pentanomial counts whole pairs.
     */
    public boolean startsNoGame(String tournamentId) {
        Status status = statuses.get(tournamentId);
        return status == Status.STATUS_CANCELLED || status == Status.STATUS_ABORTED || status == Status.STATUS_FINISHED;
    }

    @Override
    public void close() {
        running = false;
        consumer.wakeup();
    }
}
