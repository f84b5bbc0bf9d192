package dev.taikai.scheduler.kafka;

import dev.taikai.events.DeadLetters;
import dev.taikai.events.Topics;
import dev.taikai.proto.events.v1.GameRecordEvent;
import dev.taikai.proto.events.v1.PairingEvent;
import dev.taikai.proto.events.v1.TournamentEvent;
import dev.taikai.proto.tournament.v1.TournamentState;
import dev.taikai.referee.game.Pairing;
import dev.taikai.referee.messages.GameMessages;
import dev.taikai.scheduler.registry.Refusal;
import dev.taikai.scheduler.registry.Scheduler;
import dev.taikai.scheduler.registry.TournamentRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.logging.Logger;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * The scheduler's Kafka side. On start it rebuilds the {@link TournamentRegistry} from the topics (every
 * tournament state, then every game record); from then on it follows the game records, counts them, and
 * hands out the next pairings of each running tournament, publishing the tournament's state after every
 * change. Creating and cancelling go through {@link #create} and {@link #cancel}, which publish at once.
 */
public final class SchedulerKafka implements Runnable, AutoCloseable, Scheduler.Publisher {
    private static final Logger LOG = Logger.getLogger(SchedulerKafka.class.getName());

    /** What the scheduler reports, for logs and metrics. */
    public interface Listener {
        Listener NONE = new Listener() {};

        default void counted(dev.taikai.proto.common.v1.GameRecord record, TournamentRegistry.Counted how) {}

        default void published(int pairings) {}

        default void poison(String topic, int partition, long offset, String why) {}

        /** A record of a planned game that did not hold up (see {@link TournamentRegistry#count}): dead-lettered. */
        default void refused(dev.taikai.proto.common.v1.GameRecord record, String why) {}
    }

    private final TournamentRegistry book;
    private final KafkaProducer<String, byte[]> producer;
    private final KafkaConsumer<String, byte[]> games;
    private final Properties kafka;
    private final Listener listener;
    private volatile boolean running = true;
    private volatile boolean rebuilt;

    public SchedulerKafka(TournamentRegistry book, Properties kafka, Listener listener) {
        this.book = book;
        this.kafka = kafka;
        this.listener = listener;
        Properties producerProps = new Properties();
        producerProps.putAll(kafka);
        producerProps.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
        producerProps.put(ProducerConfig.ACKS_CONFIG, "all");
        this.producer = new KafkaProducer<>(producerProps, new StringSerializer(), new ByteArraySerializer());
        this.games = consumer(kafka);
    }

    /** A consumer outside any group, committing nothing: it reads where it is told. */
    static KafkaConsumer<String, byte[]> consumer(Properties kafka) {
        Properties props = new Properties();
        props.putAll(kafka);
        props.remove(ConsumerConfig.GROUP_ID_CONFIG);
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        props.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, "1000");
        return new KafkaConsumer<>(props, new StringDeserializer(), new ByteArrayDeserializer());
    }

    /** Reads every tournament state and every game record there is, then hands out what is due. */
    public void rebuild() {
        try (KafkaConsumer<String, byte[]> states = consumer(kafka)) {
            readToEnd(states, Topics.TOURNAMENTS, record -> {
                try {
                    book.restore(Topics.tournament(record.value()).getState());
                } catch (Topics.Poison | IllegalArgumentException e) {
                    deadLetter(record, e.getMessage());
                }
            });
        }
        readToEnd(games, Topics.GAMES, this::count);
        rebuilt = true;
        for (String id : book.running()) {
            publishNext(id);
        }
    }

    /** Polls {@code topic} from its beginning up to the end offsets it has now; leaves the consumer there. */
    private static void readToEnd(
            KafkaConsumer<String, byte[]> consumer,
            String topic,
            java.util.function.Consumer<ConsumerRecord<String, byte[]>> each) {
        List<TopicPartition> partitions = consumer.partitionsFor(topic, Duration.ofSeconds(30)).stream()
                .map(p -> new TopicPartition(topic, p.partition()))
                .toList();
        consumer.assign(partitions);
        consumer.seekToBeginning(partitions);
        Map<TopicPartition, Long> end = consumer.endOffsets(partitions);
        Set<TopicPartition> behind = new HashSet<>(partitions);
        while (!behind.isEmpty()) {
            for (ConsumerRecord<String, byte[]> record : consumer.poll(Duration.ofMillis(200))) {
                if (record.value() != null) {
                    each.accept(record);
                }
            }
            behind.removeIf(p -> consumer.position(p) >= end.get(p));
        }
    }

    @Override
    public void run() {
        try {
            while (running) {
                Set<String> touched = new HashSet<>();
                for (ConsumerRecord<String, byte[]> record : games.poll(Duration.ofMillis(100))) {
                    if (record.value() != null) {
                        String tournament = count(record);
                        if (tournament != null) {
                            touched.add(tournament);
                        }
                    }
                }
                for (String id : touched) {
                    publishNext(id);
                }
            }
        } catch (WakeupException e) {
            // closing
        } finally {
            games.close();
        }
    }

    /** Reports an unreadable record and copies it to the dead-letter topic; consumption goes on. */
    private void deadLetter(ConsumerRecord<String, byte[]> record, String why) {
        listener.poison(record.topic(), record.partition(), record.offset(), why);
        copyToDeadLetters(record, why);
    }

    /** Copies a record to the dead-letter topic with the reason in its headers. */
    private void copyToDeadLetters(ConsumerRecord<String, byte[]> record, String why) {
        DeadLetters.copy(producer, record, "scheduler", why);
    }

    /** Counts one record; returns its tournament id when it was counted. */
    private String count(ConsumerRecord<String, byte[]> record) {
        GameRecordEvent event;
        try {
            event = Topics.game(record.value());
        } catch (Topics.Poison e) {
            deadLetter(record, e.getMessage());
            return null;
        }
        TournamentRegistry.Counted how;
        try {
            how = book.count(event.getRecord(), why -> {
                listener.refused(event.getRecord(), why);
                copyToDeadLetters(record, "record refused: " + why);
            });
        } catch (RuntimeException e) {
            // a record the book cannot take must not stop the counting of all others, nor a restart
            deadLetter(record, "record not counted: " + e);
            return null;
        }
        listener.counted(event.getRecord(), how);
        return how == TournamentRegistry.Counted.COUNTED
                ? event.getRecord().getAssignment().getTournamentId()
                : null;
    }

    /** Creates a tournament and hands out its first games. */
    @Override
    public TournamentState create(String id, dev.taikai.proto.tournament.v1.TournamentSpec spec) {
        TournamentState state = book.create(id, spec, System.currentTimeMillis());
        publishState(state);
        publishNext(id);
        return book.state(id).orElseThrow();
    }

    /** Cancels a tournament; the referees see its state and start no further game of it. */
    @Override
    public java.util.Optional<TournamentState> cancel(String id, String reason) {
        var state = book.cancel(id, reason, System.currentTimeMillis());
        state.ifPresent(this::publishState);
        return state;
    }

    /** Changes a league's pool and hands out what that makes possible (a round, when it was waiting). */
    @Override
    public java.util.Optional<TournamentState> changeLeague(
            String id, dev.taikai.proto.tournament.v1.Entrant entrant, boolean leave) {
        var state = book.changeLeague(id, entrant, leave, System.currentTimeMillis());
        if (state.isPresent()) {
            publishState(state.get());
            publishNext(id);
        }
        return state.isPresent() ? book.state(id) : state;
    }

    /** Hands out the next pairings of {@code id} (within its concurrency) and publishes its state. */
    private synchronized void publishNext(String id) {
        List<Pairing> next = book.nextPairings(id);
        List<Future<RecordMetadata>> sent = new ArrayList<>();
        long now = System.currentTimeMillis();
        for (Pairing pairing : next) {
            PairingEvent event = PairingEvent.newBuilder()
                    .setSchemaVersion(Topics.SCHEMA_VERSION)
                    .setAssignment(GameMessages.toProto(pairing))
                    .setPublishedUnixMs(now)
                    .build();
            sent.add(producer.send(new ProducerRecord<>(Topics.PAIRINGS, pairing.gameId(), event.toByteArray())));
        }
        await(sent);
        if (!next.isEmpty()) {
            listener.published(next.size());
        }
        book.state(id).ifPresent(this::publishState);
    }

    private void publishState(TournamentState state) {
        TournamentEvent event = TournamentEvent.newBuilder()
                .setSchemaVersion(Topics.SCHEMA_VERSION)
                .setState(state)
                .build();
        await(List.of(
                producer.send(new ProducerRecord<>(Topics.TOURNAMENTS, state.getTournamentId(), event.toByteArray()))));
    }

    private static void await(List<Future<RecordMetadata>> sent) {
        for (Future<RecordMetadata> future : sent) {
            try {
                future.get();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new Refusal(Refusal.Reason.UNAVAILABLE, "interrupted while publishing");
            } catch (ExecutionException e) {
                throw new Refusal(Refusal.Reason.UNAVAILABLE, "publishing to Kafka failed: " + e.getCause());
            }
        }
    }

    /** True once the state has been rebuilt from Kafka. */
    @Override
    public boolean ready() {
        return rebuilt;
    }

    @Override
    public void close() {
        running = false;
        games.wakeup();
        producer.close(Duration.ofSeconds(5));
        LOG.fine("scheduler Kafka side closed");
    }
}
