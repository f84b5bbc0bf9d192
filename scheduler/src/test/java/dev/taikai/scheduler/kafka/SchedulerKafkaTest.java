package dev.taikai.scheduler.kafka;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.taikai.deploy.KafkaBroker;
import dev.taikai.events.DeadLetter;
import dev.taikai.events.Topics;
import dev.taikai.proto.events.v1.GameRecordEvent;
import dev.taikai.proto.tournament.v1.Format;
import dev.taikai.proto.tournament.v1.Status;
import dev.taikai.proto.tournament.v1.TournamentState;
import dev.taikai.referee.game.Pairing;
import dev.taikai.referee.messages.GameMessages;
import dev.taikai.rules.Result;
import dev.taikai.scheduler.registry.TournamentRegistry;
import dev.taikai.scheduler.registry.TournamentRegistryTest;
import dev.taikai.testkit.Await;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The scheduler's Kafka side against a real broker process: pairings go out within the concurrency,
 * records (duplicates included) are counted once, and a new scheduler rebuilds the same state from the
 * topics.
 */
class SchedulerKafkaTest {
    @TempDir
    static Path directory;

    /** How long a step may take on a loaded machine: a hang, not slowness, fails. */
    private static final Duration WITHIN = Duration.ofSeconds(60);

    private static KafkaBroker broker;

    @BeforeAll
    static void startBroker() throws Exception {
        broker = KafkaBroker.start(
                KafkaBroker.libs(Path.of("..").toAbsolutePath().normalize()), directory, 0);
        TopicSetup.ensure(kafka(), 4, (short) 1);
        TopicSetup.ensure(kafka(), 4, (short) 1); // a second time changes nothing
    }

    @AfterAll
    static void stopBroker() throws Exception {
        if (broker != null) { // null when it failed to start: that failure is the one to report
            broker.close();
        }
    }

    private static Properties kafka() {
        Properties props = new Properties();
        props.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers());
        return props;
    }

    @Test
    void pairingsOutRecordsInAndTheStateRebuildsFromTheTopics() throws Exception {
        TournamentRegistry book = new TournamentRegistry(16);
        PoisonCount poison = new PoisonCount();
        try (Following kafka = Following.start(new SchedulerKafka(book, kafka(), poison))) {
            TournamentState created =
                    kafka.scheduler.create("t1", TournamentRegistryTest.spec(Format.FORMAT_ROUND_ROBIN, 3, 1, 2));
            assertEquals(2, created.getPublishedGames());

            try (KafkaConsumer<String, byte[]> pairings = consumer();
                    KafkaProducer<String, byte[]> referee =
                            new KafkaProducer<>(kafka(), new StringSerializer(), new ByteArraySerializer())) {
                pairings.subscribe(List.of(Topics.PAIRINGS));
                List<String> seen = new ArrayList<>();
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
                while (seen.size() < 6 && System.nanoTime() < deadline) {
                    for (ConsumerRecord<String, byte[]> record : pairings.poll(Duration.ofMillis(200))) {
                        Pairing pairing = GameMessages.pairing(
                                Topics.pairing(record.value()).getAssignment());
                        seen.add(pairing.gameId());
                        byte[] event = GameRecordEvent.newBuilder()
                                .setSchemaVersion(1)
                                .setRecord(TournamentRegistryTest.record(pairing, Result.SENTE_WINS))
                                .build()
                                .toByteArray();
                        referee.send(new ProducerRecord<>(Topics.GAMES, "t1", event))
                                .get();
                        referee.send(new ProducerRecord<>(Topics.GAMES, "t1", event))
                                .get(); // delivered twice
                    }
                }
                assertEquals(6, seen.size(), "every game of the plan handed out: " + seen);
                assertEquals(6, seen.stream().distinct().count(), "each once");
                referee.send(new ProducerRecord<>(Topics.GAMES, "t1", new byte[] {9, 9, 9}))
                        .get();
            }
            Await.until(
                    WITHIN,
                    "the tournament finished",
                    () -> book.state("t1").orElseThrow().getStatus() == Status.STATUS_FINISHED,
                    () -> book.state("t1").orElseThrow());
            assertEquals(6, book.state("t1").orElseThrow().getFinishedGames());
            // the garbage came after every record: once it is reported, everything before it was counted
            Await.until(WITHIN, "the garbage record reported", () -> poison.count.get() == 1);
        }

        TournamentRegistry rebuilt = new TournamentRegistry(16);
        PoisonCount poisonAgain = new PoisonCount();
        try (Following again = Following.start(new SchedulerKafka(rebuilt, kafka(), poisonAgain))) {
            assertEquals(book.states(), rebuilt.states(), "the same tournaments, byte for byte");
            assertEquals(book.standings("t1"), rebuilt.standings("t1"));
            assertEquals(1, poisonAgain.count.get(), "the rebuild reads the garbage record too");
        }

        // the garbage record went to the dead-letter topic, keyed by where it was (read again, same key);
        // both schedulers have closed, so every letter they sent is in the topic
        List<ConsumerRecord<String, byte[]>> letters = readToEnd(Topics.DEAD_LETTERS);
        assertFalse(letters.isEmpty(), "the garbage record is in the dead-letter topic");
        Set<String> keys = new HashSet<>();
        for (ConsumerRecord<String, byte[]> letter : letters) {
            assertArrayEquals(new byte[] {9, 9, 9}, letter.value());
            assertEquals(
                    "scheduler",
                    new String(letter.headers().lastHeader(DeadLetter.SERVICE).value()));
            keys.add(letter.key());
        }
        assertEquals(1, keys.size(), "one dead letter, however often it is read: " + keys);
        assertTrue(keys.iterator().next().startsWith(Topics.GAMES + "/"), keys.toString());
    }

    /** Counts the unreadable records a scheduler reports. */
    private static final class PoisonCount implements SchedulerKafka.Listener {
        final AtomicInteger count = new AtomicInteger();

        @Override
        public void poison(String topic, int partition, long offset, String why) {
            count.incrementAndGet();
        }
    }

    /**
     * A scheduler rebuilt from the topics and following the game records on a thread of its own; closing
     * it closes the scheduler and checks that the thread has ended.
     */
    private record Following(SchedulerKafka scheduler, Thread thread) implements AutoCloseable {
        static Following start(SchedulerKafka scheduler) {
            try {
                scheduler.rebuild();
                assertTrue(scheduler.ready());
            } catch (RuntimeException | AssertionError e) {
                scheduler.close();
                throw e;
            }
            Thread thread = new Thread(scheduler, "scheduler-games");
            thread.start();
            return new Following(scheduler, thread);
        }

        @Override
        public void close() throws InterruptedException {
            scheduler.close();
            thread.join(WITHIN.toMillis());
            assertFalse(thread.isAlive(), "the scheduler's follower ended");
        }
    }

    private static KafkaConsumer<String, byte[]> consumer() {
        Properties props = kafka();
        props.put(ConsumerConfig.GROUP_ID_CONFIG, "fake-referee");
        props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        return new KafkaConsumer<>(props, new StringDeserializer(), new ByteArrayDeserializer());
    }

    /** Every record of a one-partition topic, up to the end it has now. */
    private static List<ConsumerRecord<String, byte[]>> readToEnd(String topic) {
        List<ConsumerRecord<String, byte[]>> records = new ArrayList<>();
        try (KafkaConsumer<String, byte[]> consumer =
                new KafkaConsumer<>(kafka(), new StringDeserializer(), new ByteArrayDeserializer())) {
            var partition = new TopicPartition(topic, 0);
            consumer.assign(List.of(partition));
            consumer.seekToBeginning(List.of(partition));
            long end = consumer.endOffsets(List.of(partition)).get(partition);
            Await.until(WITHIN, "read " + topic + " to offset " + end, () -> {
                consumer.poll(Duration.ofMillis(200)).forEach(records::add);
                return consumer.position(partition) >= end;
            });
        }
        return records;
    }
}
