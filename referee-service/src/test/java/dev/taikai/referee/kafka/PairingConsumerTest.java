package dev.taikai.referee.kafka;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.taikai.deploy.KafkaBroker;
import dev.taikai.proto.events.v1.PairingEvent;
import dev.taikai.proto.events.v1.TournamentEvent;
import dev.taikai.proto.tournament.v1.Status;
import dev.taikai.proto.tournament.v1.TournamentState;
import dev.taikai.referee.game.Adjudication;
import dev.taikai.referee.game.GameAssignment;
import dev.taikai.referee.game.GameObserver;
import dev.taikai.referee.game.Opening;
import dev.taikai.referee.game.Pairing;
import dev.taikai.referee.game.TimeControl;
import dev.taikai.referee.messages.DeadLetter;
import dev.taikai.referee.messages.GameMessages;
import dev.taikai.referee.messages.Topics;
import dev.taikai.referee.remote.RemoteGames;
import dev.taikai.referee.remote.SessionPool;
import dev.taikai.referee.remote.WorkerPool;
import dev.taikai.rules.Position;
import dev.taikai.rules.Variant;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
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
 * The referee's Kafka side against a real broker process and a real worker service: pairings in, records
 * out, each game once; a stopped tournament's games are not started; garbage is skipped.
 */
class PairingConsumerTest {
    @TempDir
    static Path directory;

    private static KafkaBroker broker;

    @BeforeAll
    static void startBroker() throws Exception {
        broker = KafkaBroker.start(
                KafkaBroker.libs(Path.of("..").toAbsolutePath().normalize()), directory, 0);
        try (Admin admin = Admin.create(kafka())) {
            admin.createTopics(List.of(
                            new NewTopic(Topics.TOURNAMENTS, 1, (short) 1),
                            new NewTopic(Topics.PAIRINGS, 4, (short) 1),
                            new NewTopic(Topics.GAMES, 1, (short) 1),
                            new NewTopic(Topics.DEAD_LETTERS, 1, (short) 1)))
                    .all()
                    .get(60, TimeUnit.SECONDS);
        }
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

    private static Pairing pairing(String tournament, int game) {
        GameAssignment assignment = new GameAssignment(
                "r1-p1-g" + game,
                1,
                1,
                game,
                Variant.MINISHOGI,
                game % 2 == 1 ? "alice" : "bob",
                game % 2 == 1 ? "bob" : "alice",
                Opening.start(Position.start(Variant.MINISHOGI)),
                TimeControl.byoyomi(0, 200),
                TimeControl.byoyomi(0, 200),
                0,
                Adjudication.DEFAULT.withMoveLimit(30));
        return new Pairing(
                tournament,
                assignment,
                new Pairing.Engine("fake", Map.of()),
                new Pairing.Engine("fake", Map.of()),
                game - 1);
    }

    @Test
    void everyPairingIsPlayedOnceAndStoppedTournamentsAreSkipped() throws Exception {
        try (KafkaProducer<String, byte[]> producer =
                new KafkaProducer<>(kafka(), new StringSerializer(), new ByteArraySerializer())) {
            producer.send(new ProducerRecord<>(
                            Topics.TOURNAMENTS,
                            "stopped",
                            TournamentEvent.newBuilder()
                                    .setSchemaVersion(1)
                                    .setState(TournamentState.newBuilder()
                                            .setTournamentId("stopped")
                                            .setStatus(Status.STATUS_CANCELLED))
                                    .build()
                                    .toByteArray()))
                    .get();
            for (int game = 1; game <= 6; game++) {
                Pairing p = pairing("live", game);
                producer.send(new ProducerRecord<>(Topics.PAIRINGS, p.gameId(), event(p)))
                        .get();
            }
            producer.send(new ProducerRecord<>(Topics.PAIRINGS, "garbage", new byte[] {1, 2, 3}))
                    .get();
            producer.send(new ProducerRecord<>(
                            Topics.PAIRINGS,
                            "v2",
                            PairingEvent.newBuilder()
                                    .setSchemaVersion(2)
                                    .build()
                                    .toByteArray()))
                    .get();
            for (int game = 1; game <= 2; game++) {
                Pairing p = pairing("stopped", game);
                producer.send(new ProducerRecord<>(Topics.PAIRINGS, p.gameId(), event(p)))
                        .get();
            }
        }

        List<String> poison = new ArrayList<>();
        List<String> skipped = new ArrayList<>();
        try (var worker = new dev.taikai.referee.remote.InProcessWorker("w1", 4);
                WorkerPool workers = worker.pool();
                SessionPool sessions = new SessionPool(workers, 10_000, 5_000);
                KafkaProducer<String, byte[]> records =
                        new KafkaProducer<>(kafka(), new StringSerializer(), new ByteArraySerializer());
                TournamentStatuses statuses = new TournamentStatuses(kafka())) {
            Thread statusThread = new Thread(statuses);
            statusThread.start();
            RemoteGames games = new RemoteGames(sessions, 25, "ref-1");
            Properties consumerProps = kafka();
            consumerProps.put(ConsumerConfig.GROUP_ID_CONFIG, "referees-test");
            PairingConsumer consumer = new PairingConsumer(
                    consumerProps,
                    records,
                    statuses,
                    2,
                    pairing -> games.play(pairing, GameObserver.NONE),
                    new PairingConsumer.Listener() {
                        @Override
                        public void poison(String topic, long offset, String why) {
                            poison.add(why);
                        }

                        @Override
                        public void skipped(String gameId, String why) {
                            skipped.add(gameId);
                        }
                    });
            Thread consumerThread = new Thread(consumer);
            consumerThread.start();

            Map<String, Integer> counts = readGames(6, Duration.ofSeconds(90));
            consumer.close();
            consumerThread.join(10_000);
            assertEquals(6, counts.size(), counts.toString());
            assertTrue(counts.values().stream().allMatch(n -> n == 1), "each game once: " + counts);
            assertEquals(List.of("stopped/r1-p1-g1", "stopped/r1-p1-g2"), skipped);
            assertEquals(2, poison.size(), poison.toString());
            assertTrue(poison.get(1).contains("schema version 2"), poison.toString());
        }
        List<ConsumerRecord<String, byte[]>> letters = read(Topics.DEAD_LETTERS, 2, Duration.ofSeconds(30));
        assertEquals(2, letters.size(), "both unreadable pairings are in the dead-letter topic");
        assertArrayEquals(new byte[] {1, 2, 3}, letters.get(0).value(), "the original bytes");
        assertTrue(
                letters.get(0).key().startsWith(Topics.PAIRINGS + "/"),
                letters.get(0).key());
        assertEquals("garbage", header(letters.get(0), DeadLetter.SOURCE_KEY));
        assertEquals("referee", header(letters.get(0), DeadLetter.SERVICE));
        assertTrue(header(letters.get(1), DeadLetter.REASON).contains("schema version 2"));
        assertEquals(Map.of(), committedLag(), "every pairing committed once finished");
    }

    private static byte[] event(Pairing pairing) {
        return PairingEvent.newBuilder()
                .setSchemaVersion(1)
                .setAssignment(GameMessages.toProto(pairing))
                .build()
                .toByteArray();
    }

    /** Game ids on the games topic and how often each appears, once {@code expected} ids are there. */
    private static Map<String, Integer> readGames(int expected, Duration within) throws Exception {
        Properties props = kafka();
        props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        Map<String, Integer> counts = new HashMap<>();
        try (KafkaConsumer<String, byte[]> consumer =
                new KafkaConsumer<>(props, new StringDeserializer(), new ByteArrayDeserializer())) {
            var partition = new org.apache.kafka.common.TopicPartition(Topics.GAMES, 0);
            consumer.assign(List.of(partition));
            consumer.seekToBeginning(List.of(partition));
            long deadline = System.nanoTime() + within.toNanos();
            while (counts.size() < expected && System.nanoTime() < deadline) {
                for (ConsumerRecord<String, byte[]> record : consumer.poll(Duration.ofMillis(200))) {
                    String id = Topics.game(record.value())
                            .getRecord()
                            .getAssignment()
                            .getGameId();
                    counts.merge(id, 1, Integer::sum);
                }
            }
            Thread.sleep(1000);
            for (ConsumerRecord<String, byte[]> record : consumer.poll(Duration.ofMillis(500))) {
                String id =
                        Topics.game(record.value()).getRecord().getAssignment().getGameId();
                counts.merge(id, 1, Integer::sum);
            }
        }
        return counts;
    }

    /** The first {@code expected} records of a one-partition topic (fewer if they do not come in time). */
    private static List<ConsumerRecord<String, byte[]>> read(String topic, int expected, Duration within) {
        List<ConsumerRecord<String, byte[]>> records = new ArrayList<>();
        try (KafkaConsumer<String, byte[]> consumer =
                new KafkaConsumer<>(kafka(), new StringDeserializer(), new ByteArrayDeserializer())) {
            var partition = new org.apache.kafka.common.TopicPartition(topic, 0);
            consumer.assign(List.of(partition));
            consumer.seekToBeginning(List.of(partition));
            long deadline = System.nanoTime() + within.toNanos();
            while (records.size() < expected && System.nanoTime() < deadline) {
                consumer.poll(Duration.ofMillis(200)).forEach(records::add);
            }
        }
        return records;
    }

    private static String header(ConsumerRecord<String, byte[]> record, String name) {
        var header = record.headers().lastHeader(name);
        return header == null ? null : new String(header.value(), java.nio.charset.StandardCharsets.UTF_8);
    }

    /** Partitions of the pairings topic whose committed offset is short of the end. */
    private static Map<Integer, Long> committedLag() throws Exception {
        try (Admin admin = Admin.create(kafka())) {
            var committed = admin.listConsumerGroupOffsets("referees-test")
                    .partitionsToOffsetAndMetadata()
                    .get(30, TimeUnit.SECONDS);
            Map<Integer, Long> lag = new HashMap<>();
            Properties props = kafka();
            try (KafkaConsumer<String, byte[]> consumer =
                    new KafkaConsumer<>(props, new StringDeserializer(), new ByteArrayDeserializer())) {
                var partitions = consumer.partitionsFor(Topics.PAIRINGS).stream()
                        .map(p -> new org.apache.kafka.common.TopicPartition(Topics.PAIRINGS, p.partition()))
                        .toList();
                var ends = consumer.endOffsets(partitions);
                for (var partition : partitions) {
                    long end = ends.get(partition);
                    long at = committed.containsKey(partition)
                            ? committed.get(partition).offset()
                            : 0;
                    if (end > 0 && at < end) {
                        lag.put(partition.partition(), end - at);
                    }
                }
            }
            return lag;
        }
    }
}
