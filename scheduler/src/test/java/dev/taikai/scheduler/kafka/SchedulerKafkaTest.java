package dev.taikai.scheduler.kafka;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.taikai.deploy.KafkaBroker;
import dev.taikai.proto.events.v1.GameRecordEvent;
import dev.taikai.proto.tournament.v1.Format;
import dev.taikai.proto.tournament.v1.Status;
import dev.taikai.proto.tournament.v1.TournamentState;
import dev.taikai.referee.game.Pairing;
import dev.taikai.referee.messages.DeadLetter;
import dev.taikai.referee.messages.GameMessages;
import dev.taikai.referee.messages.Topics;
import dev.taikai.rules.Result;
import dev.taikai.scheduler.book.TournamentBook;
import dev.taikai.scheduler.book.TournamentBookTest;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
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
        broker.close();
    }

    private static Properties kafka() {
        Properties props = new Properties();
        props.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers());
        return props;
    }

    @Test
    void pairingsOutRecordsInAndTheStateRebuildsFromTheTopics() throws Exception {
        TournamentBook book = new TournamentBook(16);
        SchedulerKafka kafka = new SchedulerKafka(book, kafka(), SchedulerKafka.Listener.NONE);
        kafka.rebuild();
        assertTrue(kafka.ready());
        Thread follower = new Thread(kafka);
        follower.start();
        TournamentState created = kafka.create("t1", TournamentBookTest.spec(Format.FORMAT_ROUND_ROBIN, 3, 1, 2));
        assertEquals(2, created.getPublishedGames());

        try (KafkaConsumer<String, byte[]> pairings = consumer();
                KafkaProducer<String, byte[]> referee =
                        new KafkaProducer<>(kafka(), new StringSerializer(), new ByteArraySerializer())) {
            pairings.subscribe(List.of(Topics.PAIRINGS));
            List<String> seen = new ArrayList<>();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (seen.size() < 6 && System.nanoTime() < deadline) {
                for (ConsumerRecord<String, byte[]> record : pairings.poll(Duration.ofMillis(200))) {
                    Pairing pairing =
                            GameMessages.pairing(Topics.pairing(record.value()).getAssignment());
                    seen.add(pairing.gameId());
                    byte[] event = GameRecordEvent.newBuilder()
                            .setSchemaVersion(1)
                            .setRecord(TournamentBookTest.record(pairing, Result.SENTE_WINS))
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
        awaitStatus(book, Status.STATUS_FINISHED);
        assertEquals(6, book.state("t1").orElseThrow().getFinishedGames());
        kafka.close();
        follower.join(10_000);

        TournamentBook rebuilt = new TournamentBook(16);
        SchedulerKafka again = new SchedulerKafka(rebuilt, kafka(), SchedulerKafka.Listener.NONE);
        again.rebuild();
        again.close();
        assertEquals(book.states(), rebuilt.states(), "the same tournaments, byte for byte");
        assertEquals(book.standings("t1"), rebuilt.standings("t1"));

        // the garbage record went to the dead-letter topic, keyed by where it was (read again, same key)
        Set<String> keys = new HashSet<>();
        try (KafkaConsumer<String, byte[]> letters =
                new KafkaConsumer<>(kafka(), new StringDeserializer(), new ByteArrayDeserializer())) {
            var partition = new org.apache.kafka.common.TopicPartition(Topics.DEAD_LETTERS, 0);
            letters.assign(List.of(partition));
            letters.seekToBeginning(List.of(partition));
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (keys.isEmpty() && System.nanoTime() < deadline) {
                for (ConsumerRecord<String, byte[]> letter : letters.poll(Duration.ofMillis(200))) {
                    assertArrayEquals(new byte[] {9, 9, 9}, letter.value());
                    assertEquals(
                            "scheduler",
                            new String(letter.headers()
                                    .lastHeader(DeadLetter.SERVICE)
                                    .value()));
                    keys.add(letter.key());
                }
            }
        }
        assertEquals(1, keys.size(), "one dead letter, however often it is read: " + keys);
        assertTrue(keys.iterator().next().startsWith(Topics.GAMES + "/"), keys.toString());
    }

    private static KafkaConsumer<String, byte[]> consumer() {
        Properties props = kafka();
        props.put(ConsumerConfig.GROUP_ID_CONFIG, "fake-referee");
        props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        return new KafkaConsumer<>(props, new StringDeserializer(), new ByteArrayDeserializer());
    }

    private static void awaitStatus(TournamentBook book, Status status) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (book.state("t1").orElseThrow().getStatus() != status && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
        assertEquals(status, book.state("t1").orElseThrow().getStatus());
    }
}
