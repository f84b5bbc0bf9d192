package dev.taikai.refereeservice.kafka;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.taikai.deploy.KafkaBroker;
import dev.taikai.events.DeadLetter;
import dev.taikai.events.Topics;
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
import dev.taikai.referee.messages.GameMessages;
import dev.taikai.refereeservice.remote.RemoteGames;
import dev.taikai.refereeservice.remote.SessionPool;
import dev.taikai.refereeservice.remote.WorkerPool;
import dev.taikai.rules.Position;
import dev.taikai.rules.Variant;
import dev.taikai.testkit.Await;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
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
 * The referee's Kafka side against a real broker process and a real worker service: pairings in, records
 * out, each game once; a stopped tournament's games are not started; garbage is skipped.
 */
class PairingConsumerTest {
    @TempDir
    static Path directory;

    private static final String GROUP = "referees-test";

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
        if (broker != null) { // null when it failed to start: that failure is the one to report
            broker.close();
        }
    }

    private static Properties kafka() {
        Properties props = new Properties();
        props.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers());
        return props;
    }

    /** A tournament's state as the scheduler publishes it, with only its status. */
    private static ProducerRecord<String, byte[]> status(String tournamentId, Status status) {
        return new ProducerRecord<>(
                Topics.TOURNAMENTS,
                tournamentId,
                TournamentEvent.newBuilder()
                        .setSchemaVersion(1)
                        .setState(TournamentState.newBuilder()
                                .setTournamentId(tournamentId)
                                .setStatus(status))
                        .build()
                        .toByteArray());
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
    void everyPairingIsPlayedOnceAndCancelledTournamentsAreSkipped() throws Exception {
        try (KafkaProducer<String, byte[]> producer =
                new KafkaProducer<>(kafka(), new StringSerializer(), new ByteArraySerializer())) {
            producer.send(status("stopped", Status.STATUS_CANCELLED)).get();
            producer.send(status("sprt", Status.STATUS_SPRT_CONCLUDED)).get();
            for (int game = 1; game <= 2; game++) {
                Pairing p = pairing("sprt", game);
                producer.send(new ProducerRecord<>(Topics.PAIRINGS, p.gameId(), event(p)))
                        .get();
            }
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

        List<String> poison = new CopyOnWriteArrayList<>();
        List<String> skipped = new CopyOnWriteArrayList<>();
        try (var worker = new dev.taikai.refereeservice.remote.InProcessWorker("w1", 4);
                WorkerPool workers = worker.pool();
                SessionPool sessions = new SessionPool(workers, 10_000, 5_000);
                KafkaProducer<String, byte[]> records =
                        new KafkaProducer<>(kafka(), new StringSerializer(), new ByteArraySerializer());
                Running<TournamentStatuses> statuses = Running.start(new TournamentStatuses(kafka()), "statuses")) {
            RemoteGames games = new RemoteGames(sessions, 25, "ref-1");
            Properties consumerProps = kafka();
            consumerProps.put(ConsumerConfig.GROUP_ID_CONFIG, GROUP);
            PairingConsumer consumer = new PairingConsumer(
                    consumerProps,
                    records,
                    statuses.task(),
                    2,
                    pairing -> new PairingConsumer.Played(games.play(pairing, GameObserver.NONE), null),
                    new PairingConsumer.Listener() {
                        @Override
                        public void poison(String topic, int partition, long offset, String why) {
                            poison.add(why);
                        }

                        @Override
                        public void skipped(String gameId, String why) {
                            skipped.add(gameId);
                        }
                    });
            try (Running<PairingConsumer> running = Running.start(consumer, "pairings")) {
                // a pairing is committed once it is played and its record is in Kafka, skipped, or dead-lettered
                awaitEveryPairingCommitted(Duration.ofSeconds(180));
            }
            assertEquals(
                    Set.of("stopped/r1-p1-g1", "stopped/r1-p1-g2"),
                    Set.copyOf(skipped),
                    "the stopped tournament's games, each skipped once: " + skipped);
            assertEquals(2, skipped.size(), skipped.toString());
            assertEquals(2, poison.size(), poison.toString());
            assertEquals(
                    1,
                    poison.stream()
                            .filter(why -> why.contains("schema version 2"))
                            .count(),
                    poison.toString());
        }
        // the consumer and the producer of records are closed: every record there will be is in the topic
        Map<String, Integer> counts = new HashMap<>();
        for (ConsumerRecord<String, byte[]> record : readToEnd(Topics.GAMES)) {
            counts.merge(Topics.game(record.value()).getRecord().getAssignment().getGameId(), 1, Integer::sum);
        }
        Set<String> live = new HashSet<>();
        for (int game = 1; game <= 6; game++) {
            live.add(pairing("live", game).gameId());
        }
        for (int game = 1; game <= 2; game++) {
            live.add(pairing("sprt", game).gameId()); // handed out before its SPRT concluded: played out
        }
        assertEquals(live, counts.keySet(), "every live pairing played, and an SPRT's, no cancelled one: " + counts);
        assertTrue(counts.values().stream().allMatch(n -> n == 1), "each game once: " + counts);

        List<ConsumerRecord<String, byte[]>> letters = readToEnd(Topics.DEAD_LETTERS);
        assertEquals(2, letters.size(), "both unreadable pairings are in the dead-letter topic");
        ConsumerRecord<String, byte[]> garbage = letters.stream()
                .filter(letter -> "garbage".equals(header(letter, DeadLetter.SOURCE_KEY)))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no dead letter of the garbage pairing"));
        assertArrayEquals(new byte[] {1, 2, 3}, garbage.value(), "the original bytes");
        assertTrue(garbage.key().startsWith(Topics.PAIRINGS + "/"), garbage.key());
        assertEquals("referee", header(garbage, DeadLetter.SERVICE));
        ConsumerRecord<String, byte[]> newer = letters.stream()
                .filter(letter -> "v2".equals(header(letter, DeadLetter.SOURCE_KEY)))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no dead letter of the schema version 2 pairing"));
        assertTrue(header(newer, DeadLetter.REASON).contains("schema version 2"), header(newer, DeadLetter.REASON));
        assertEquals(Map.of(), committedLag(), "every pairing committed once finished");
    }

    /**
     * A task on a thread of its own; closing it closes the task and checks that the thread has ended, so a
     * failing test leaves nothing running.
     */
    private record Running<T extends Runnable & AutoCloseable>(T task, Thread thread) implements AutoCloseable {
        static <T extends Runnable & AutoCloseable> Running<T> start(T task, String name) {
            Thread thread = new Thread(task, name);
            thread.start();
            return new Running<>(task, thread);
        }

        @Override
        public void close() throws Exception {
            task.close();
            thread.join(Duration.ofSeconds(60).toMillis());
            assertFalse(thread.isAlive(), thread.getName() + " ended");
        }
    }

    private static byte[] event(Pairing pairing) {
        return PairingEvent.newBuilder()
                .setSchemaVersion(1)
                .setAssignment(GameMessages.toProto(pairing))
                .build()
                .toByteArray();
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
            Await.until(Duration.ofSeconds(60), "read " + topic + " to offset " + end, () -> {
                consumer.poll(Duration.ofMillis(200)).forEach(records::add);
                return consumer.position(partition) >= end;
            });
        }
        return records;
    }

    private static String header(ConsumerRecord<String, byte[]> record, String name) {
        var header = record.headers().lastHeader(name);
        return header == null ? null : new String(header.value(), java.nio.charset.StandardCharsets.UTF_8);
    }

    /** Waits until the group has committed every pairing there is. */
    private static void awaitEveryPairingCommitted(Duration within) throws Exception {
        try (Admin admin = Admin.create(kafka());
                KafkaConsumer<String, byte[]> ends =
                        new KafkaConsumer<>(kafka(), new StringDeserializer(), new ByteArrayDeserializer())) {
            Await.until(
                    within,
                    "every pairing committed",
                    () -> committedLag(admin, ends).isEmpty(),
                    () -> committedLag(admin, ends));
        }
    }

    /** Partitions of the pairings topic whose committed offset is short of the end. */
    private static Map<Integer, Long> committedLag() throws Exception {
        try (Admin admin = Admin.create(kafka());
                KafkaConsumer<String, byte[]> ends =
                        new KafkaConsumer<>(kafka(), new StringDeserializer(), new ByteArrayDeserializer())) {
            return committedLag(admin, ends);
        }
    }

    private static Map<Integer, Long> committedLag(Admin admin, KafkaConsumer<String, byte[]> ends) {
        try {
            var committed = admin.listConsumerGroupOffsets(GROUP)
                    .partitionsToOffsetAndMetadata()
                    .get(30, TimeUnit.SECONDS);
            var partitions = ends.partitionsFor(Topics.PAIRINGS).stream()
                    .map(p -> new TopicPartition(Topics.PAIRINGS, p.partition()))
                    .toList();
            Map<TopicPartition, Long> endOffsets = ends.endOffsets(partitions);
            Map<Integer, Long> lag = new HashMap<>();
            for (var partition : partitions) {
                long end = endOffsets.get(partition);
                var at = committed.get(partition);
                long committedOffset = at == null ? 0 : at.offset();
                if (end > 0 && committedOffset < end) {
                    lag.put(partition.partition(), end - committedOffset);
                }
            }
            return lag;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted while reading the group's offsets", e);
        } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
            throw new AssertionError("cannot read the group's offsets: " + e, e);
        }
    }
}
