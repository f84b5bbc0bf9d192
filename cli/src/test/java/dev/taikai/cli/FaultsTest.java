package dev.taikai.cli;

import static dev.taikai.cli.ClusterProbe.await;
import static dev.taikai.cli.ClusterProbe.metric;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.taikai.access.Role;
import dev.taikai.cli.cluster.LocalCluster;
import dev.taikai.cli.cluster.SchedulerClient;
import dev.taikai.cli.run.Tournaments;
import dev.taikai.events.DeadLetter;
import dev.taikai.events.Topics;
import dev.taikai.proto.common.v1.GameRecord;
import dev.taikai.proto.common.v1.Termination;
import dev.taikai.proto.events.v1.GameRecordEvent;
import dev.taikai.proto.tournament.v1.Status;
import dev.taikai.proto.tournament.v1.TournamentState;
import grpc.health.v1.HealthGrpc;
import grpc.health.v1.HealthOuterClass.HealthCheckRequest;
import grpc.health.v1.HealthOuterClass.HealthCheckResponse.ServingStatus;
import io.grpc.ManagedChannel;
import io.grpc.StatusRuntimeException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.TimeUnit;
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
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * Faults injected into a local cluster of real processes (a Kafka broker, the scheduler, two referees, two
 * workers, fake engines as their own processes): each test breaks something in the middle of a tournament
 * and checks that the tournament still ends with exactly its planned games, each counted once. Each prints
 * what it measured ({@code fault: ...} lines) for the record.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class FaultsTest {
    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    private static final Duration READY = Duration.ofSeconds(180);
    /** Games of each fault's tournament: long enough (about a second each) to break one in the middle. */
    private static final int GAMES = 12;

    /** The misbehaving fake engines of the engine-host issue, by catalog id. */
    private static final Map<String, String[]> MISBEHAVING = new java.util.TreeMap<>(Map.of(
            "resigner", new String[] {"--resign"},
            "slowpoke", new String[] {"--think-ms", "2500"},
            "cheater", new String[] {"--illegal-move"},
            "crasher", new String[] {"--crash-on-go"},
            "sleeper", new String[] {"--stall-after-go"},
            "garbler", new String[] {"--malformed-bestmove"},
            "boaster", new String[] {"--win"},
            "flooder", new String[] {"--flood", "2"},
            "rambler", new String[] {"--huge-line", "2"},
            "mute", new String[] {"--no-usiok"}));

    @TempDir
    static Path dir;

    private static LocalCluster cluster;
    private static SchedulerClient scheduler;
    /** Standings of every tournament finished so far, as the scheduler served them. */
    private static final Map<String, String> standings = new LinkedHashMap<>();

    @BeforeAll
    static void up() throws Exception {
        Files.writeString(
                dir.resolve("fakes.yaml"),
                "engines:\n"
                        + Tournaments.fakeEntry("steady-a", "--seed", "1", "--think-ms", "20")
                        + Tournaments.fakeEntry("steady-b", "--seed", "2", "--think-ms", "20")
                        + String.join(
                                "",
                                MISBEHAVING.entrySet().stream()
                                        .map(e -> Tournaments.fakeEntry(e.getKey(), e.getValue()))
                                        .toList()));
        cluster = ClusterProbe.start(
                dir.resolve("cluster"),
                new LocalCluster.Shape(2, 2, 4, 2, dir.resolve("fakes.yaml").toString()));
        scheduler = cluster.schedulerClient(Role.ADMIN);
    }

    /** A fault test that failed half-way may leave a member down: the next one gets the whole cluster. */
    @AfterEach
    void everyMemberRunsAgain() throws Exception {
        for (LocalCluster.Member member : cluster.members()) {
            if (!ProcessHandle.of(member.pid()).map(ProcessHandle::isAlive).orElse(false)) {
                cluster.restart(member.name(), READY);
            }
        }
    }

    @AfterAll
    static void down() throws Exception {
        if (cluster != null) {
            ClusterProbe.stop(cluster, "faults-logs");
        }
    }

    @Test
    @Order(1)
    void aWorkerKilledMidGameLosesNoGameAndLeavesNoEngine() throws Exception {
        String id = submit("worker killed");
        Hosting hosting = hosting(id);
        List<ProcessHandle> engines = hosting.engines();
        double abortedBefore = metric(cluster, "referee", "taikai_referee_games_aborted_total");

        cluster.kill(hosting.worker().name());
        long detected = await(
                "a referee aborts the games of the dead worker",
                Duration.ofSeconds(60),
                () -> metric(cluster, "referee", "taikai_referee_games_aborted_total") > abortedBefore);
        long enginesGone = await(
                "the dead worker's engines end",
                Duration.ofSeconds(60),
                () -> engines.stream().noneMatch(ProcessHandle::isAlive));
        cluster.restart(hosting.worker().name(), READY);

        List<GameRecord> records = finishWithoutDisconnects(id);
        double aborted = metric(cluster, "referee", "taikai_referee_games_aborted_total") - abortedBefore;
        System.out.printf(
                "fault: worker kill -9: detected in %d ms, %d engine processes ended %d ms later, %.0f game attempts"
                        + " aborted and replayed, %d of %d games counted once%n",
                detected, engines.size(), enginesGone, aborted, records.size(), GAMES);
    }

    @Test
    @Order(2)
    void aRefereeKilledMidGameHasItsGamesReplayedByTheOther() throws Exception {
        String id = submit("referee killed");
        LocalCluster.Member victim = cluster.member("referee-1");
        await(
                "referee-1 plays a game",
                Duration.ofSeconds(60),
                () -> metric(victim, "taikai_referee_games_active", "") > 0);
        long killedAt = System.currentTimeMillis();

        cluster.kill("referee-1");
        Set<String> unfinished = unfinishedGames(cluster.directory().resolve("referee-1.log"), id);
        Path survivorLog = cluster.directory().resolve("referee-2.log");
        long detected = await(
                "referee-2 takes over referee-1's partitions",
                Duration.ofSeconds(60),
                () -> assigned(survivorLog).stream().anyMatch(at -> at >= killedAt));
        cluster.restart("referee-1", READY);

        List<GameRecord> records = finish(id);
        assertFalse(unfinished.isEmpty(), "referee-1 died in the middle of a game");
        for (GameRecord record : records) {
            if (unfinished.contains(record.getAssignment().getGameId())) {
                assertNotEquals("referee-1", record.getRefereeId(), "replayed elsewhere: " + record.getDetail());
            }
        }
        System.out.printf(
                "fault: referee kill -9: partitions reassigned %d ms after the kill, %d games in play replayed by"
                        + " referee-2, %d of %d games counted once (duplicate records so far: %.0f)%n",
                detected,
                unfinished.size(),
                records.size(),
                GAMES,
                metric(cluster.scheduler(), "taikai_scheduler_records_total", "outcome=\"duplicate\""));
    }

    @Test
    @Order(3)
    void aBrokerRestartLosesAndDuplicatesNothing() throws Exception {
        String id = submit("broker restarted");
        await(
                "games are under way",
                Duration.ofSeconds(60),
                () -> scheduler.state(id).getFinishedGames() >= 2);
        int before = scheduler.state(id).getFinishedGames();
        long down = System.nanoTime();
        double movesAtKill = metric(cluster, "referee", "taikai_referee_moves_total");
        cluster.kill("kafka");
        // an outage during play: the games in play go on (and their records wait) while the broker is down
        await(
                "the referees play on while the broker is down",
                Duration.ofSeconds(60),
                () -> metric(cluster, "referee", "taikai_referee_moves_total") >= movesAtKill + 20);
        cluster.restart("kafka", READY);
        long back = (System.nanoTime() - down) / 1_000_000;

        List<GameRecord> records = finish(id);
        System.out.printf(
                "fault: broker kill -9 and restart (%d ms down): %d games counted before, %d of %d after%n",
                back, before, records.size(), GAMES);
    }

    @Test
    @Order(4)
    void aRestartedSchedulerRebuildsTheSameStandingsByteForByte() throws Exception {
        String id = submit("scheduler restarted");
        await(
                "games are under way",
                Duration.ofSeconds(60),
                () -> scheduler.state(id).getFinishedGames() >= 2);
        cluster.kill("scheduler");
        long restarted = System.nanoTime();
        cluster.restart("scheduler", READY);
        long ready = (System.nanoTime() - restarted) / 1_000_000;

        finish(id); // the restarted scheduler goes on with the tournament
        int compared = 0;
        for (Map.Entry<String, String> before : standings.entrySet()) {
            if (!before.getKey().equals(id)) {
                assertEquals(before.getValue(), standingsOf(before.getKey()), "standings of " + before.getKey());
                compared++;
            }
        }
        assertTrue(compared >= 3, "standings compared: " + compared);
        System.out.printf(
                "fault: scheduler kill -9 and restart: ready again in %d ms, standings of %d finished tournaments"
                        + " identical byte for byte, the running one finished with %d games%n",
                ready, compared, GAMES);
    }

    @Test
    @Order(5)
    void aRecordDeliveredAgainIsCountedOnce() throws Exception {
        String id = standings.keySet().iterator().next();
        GameRecord record = scheduler.records(id, 0, 1).getRecords(0);
        String before = standingsOf(id);
        LocalCluster.Member schedulerMember = cluster.scheduler();
        double duplicates = metric(schedulerMember, "taikai_scheduler_records_total", "outcome=\"duplicate\"");
        try (KafkaProducer<String, byte[]> producer = producer()) {
            byte[] event = GameRecordEvent.newBuilder()
                    .setSchemaVersion(Topics.SCHEMA_VERSION)
                    .setRecord(record)
                    .build()
                    .toByteArray();
            for (int i = 0; i < 2; i++) {
                producer.send(new ProducerRecord<>(Topics.GAMES, id, event)).get();
            }
        }
        await(
                "the scheduler reads both copies",
                Duration.ofSeconds(60),
                () -> metric(schedulerMember, "taikai_scheduler_records_total", "outcome=\"duplicate\"")
                        >= duplicates + 2);
        assertEquals(GAMES, scheduler.state(id).getFinishedGames());
        assertEquals(before, standingsOf(id), "standings unchanged");
        System.out.printf(
                "fault: record %s delivered twice more: %d games counted before and after, standings identical%n",
                record.getAssignment().getGameId(), GAMES);
    }

    @Test
    @Order(6)
    void poisonGoesToTheDeadLetterTopicAndTheWorkGoesOn() throws Exception {
        double refereePoison = metric(cluster, "referee", "taikai_referee_poison_total");
        double schedulerPoison = metric(cluster.scheduler(), "taikai_scheduler_poison_total", "");
        try (KafkaProducer<String, byte[]> producer = producer()) {
            producer.send(new ProducerRecord<>(Topics.PAIRINGS, "garbage", new byte[] {(byte) 0xff, 0, 7}))
                    .get();
            producer.send(new ProducerRecord<>(
                            Topics.GAMES,
                            "from-the-future",
                            GameRecordEvent.newBuilder()
                                    .setSchemaVersion(Topics.SCHEMA_VERSION + 1)
                                    .build()
                                    .toByteArray()))
                    .get();
        }
        String id = submit("after poison");
        List<GameRecord> records = finish(id);
        assertTrue(metric(cluster, "referee", "taikai_referee_poison_total") > refereePoison);
        assertTrue(metric(cluster.scheduler(), "taikai_scheduler_poison_total", "") > schedulerPoison);
        Map<String, String> reasons = new LinkedHashMap<>();
        try (KafkaConsumer<String, byte[]> consumer =
                new KafkaConsumer<>(kafka(), new StringDeserializer(), new ByteArrayDeserializer())) {
            var partition = new TopicPartition(Topics.DEAD_LETTERS, 0);
            consumer.assign(List.of(partition));
            consumer.seekToBeginning(List.of(partition));
            long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            while (reasons.size() < 2 && System.nanoTime() < deadline) {
                for (ConsumerRecord<String, byte[]> letter : consumer.poll(Duration.ofMillis(200))) {
                    reasons.put(
                            new String(letter.headers()
                                    .lastHeader(DeadLetter.SOURCE_KEY)
                                    .value()),
                            new String(letter.headers()
                                    .lastHeader(DeadLetter.REASON)
                                    .value()));
                }
            }
        }
        assertEquals(Set.of("garbage", "from-the-future"), reasons.keySet(), reasons.toString());
        assertTrue(reasons.get("from-the-future").contains("schema version 2"), reasons.toString());
        System.out.printf(
                "fault: poison on the pairings and games topics: both in %s with their reasons, the next"
                        + " tournament played its %d games%n",
                Topics.DEAD_LETTERS, records.size());
    }

    @Test
    @Order(7)
    void aRefereeStoppedGracefullyFinishesItsGamesAndSaysSoFirst() throws Exception {
        String id = submit("referee stopped");
        LocalCluster.Member referee = cluster.member("referee-2");
        await(
                "referee-2 plays a game",
                Duration.ofSeconds(60),
                () -> metric(referee, "taikai_referee_games_active", "") > 0);
        Shutdown seen = terminate(referee);
        Set<String> unfinished = unfinishedGames(cluster.directory().resolve("referee-2.log"), id);
        cluster.restart("referee-2", READY);
        finish(id);
        assertTrue(seen.notServingWhileAlive(), "gRPC health said NOT_SERVING before the listener closed");
        assertFalse(seen.readyWhileDraining(), "HTTP readiness said ready while draining");
        assertEquals(Set.of(), unfinished, "every game referee-2 had started was finished by it");
        System.out.printf(
                "fault: referee SIGTERM: NOT_SERVING after %d ms, exited after %d ms with every game it had started"
                        + " finished; %d of %d games counted once%n",
                seen.notServingAfterMillis(), seen.exitedAfterMillis(), GAMES, GAMES);
    }

    @Test
    @Order(8)
    void aWorkerStoppedGracefullyLetsItsGamesEndAndLosesNone() throws Exception {
        String id = submit("worker stopped");
        Hosting hosting = hosting(id);
        LocalCluster.Member worker = hosting.worker();
        List<ProcessHandle> engines = hosting.engines();
        double abortedBefore = metric(cluster, "referee", "taikai_referee_games_aborted_total");
        Shutdown seen = terminate(worker);
        cluster.restart(worker.name(), READY);
        finish(id);
        double aborted = metric(cluster, "referee", "taikai_referee_games_aborted_total") - abortedBefore;
        assertTrue(seen.notServingWhileAlive(), "gRPC health said NOT_SERVING before the listener closed");
        assertFalse(seen.readyWhileDraining(), "HTTP readiness said ready while draining");
        assertEquals(0, aborted, "no game attempt lost to the worker's shutdown");
        assertTrue(engines.stream().noneMatch(ProcessHandle::isAlive), "engines of the stopped worker");
        System.out.printf(
                "fault: worker SIGTERM (%s): NOT_SERVING after %d ms, exited after %d ms, %.0f games aborted, %d of %d"
                        + " games counted once%n",
                worker.name(), seen.notServingAfterMillis(), seen.exitedAfterMillis(), aborted, GAMES, GAMES);
    }

    @Test
    @Order(9)
    void misbehavingEnginesEndTheirGamesAsOnOneMachineAndTheServicesStayHealthy() throws Exception {
        Path file = dir.resolve("misbehaving.yaml");
        Files.writeString(
                file,
                String.join(
                        "\n",
                        "name: misbehaving",
                        "variant: minishogi",
                        "catalog: fakes.yaml",
                        "format: gauntlet",
                        "seeds: 1",
                        "games: 2",
                        "concurrency: 4",
                        "time-control: byoyomi 1",
                        "adjudication: {move-limit: 40}",
                        "output: local-misbehaving",
                        "engines: [steady-a, " + String.join(", ", MISBEHAVING.keySet()) + "]",
                        ""));
        // the cluster's records go to a folder of their own: in the file's, the local run took them for its own
        ClusterProbe.Output submitted = ClusterProbe.submit(
                cluster, file, "--out", dir.resolve("cluster-misbehaving").toString());
        // every game is played, but 'mute' never started in its two: the run stops with that (exit 1), as
        // one that had three games would have stopped after them
        String neverStarted = "engine 'mute' did not start in any of its 2 games (";
        assertEquals(1, submitted.code(), submitted.err() + "\n" + submitted.out());
        assertTrue((submitted.out() + submitted.err()).contains(neverStarted), submitted.out() + submitted.err());
        String id = submitted.tournamentId();
        Map<String, String> clusterEndings = new java.util.TreeMap<>();
        Map<String, String> details = new java.util.TreeMap<>(); // why each game ended, for a failure's message
        Set<String> noisy = new HashSet<>(); // games of engines that only talk too much: their moves decide
        for (GameRecord record : scheduler.records(id, 0, 1000).getRecordsList()) {
            var game = record.getAssignment();
            if (Set.of("flooder", "rambler").contains(game.getSente().getName())
                    || Set.of("flooder", "rambler").contains(game.getGote().getName())) {
                noisy.add(game.getLocalId());
            }
            details.put("cluster " + game.getLocalId(), record.getDetail());
            clusterEndings.put(
                    record.getAssignment().getLocalId(),
                    record.getTermination()
                                    .name()
                                    .substring("TERMINATION_".length())
                                    .toLowerCase() + " "
                            + record.getResult()
                                    .name()
                                    .substring("RESULT_".length())
                                    .toLowerCase()
                                    .replace("_wins", ""));
        }
        StringWriter localErr = new StringWriter();
        assertEquals(
                1,
                Taikai.run(
                        System.in,
                        new PrintWriter(new StringWriter()),
                        new PrintWriter(localErr),
                        "run",
                        file.toString()),
                localErr.toString());
        assertTrue(localErr.toString().contains("stopped: " + neverStarted), localErr.toString());
        Map<String, String> localEndings = new java.util.TreeMap<>();
        for (var game : Tournaments.results(dir.resolve("local-misbehaving")).get("games")) {
            localEndings.put(
                    game.get("id").asText(),
                    game.get("termination").asText() + " " + game.get("result").asText());
            details.put("local " + game.get("id").asText(), game.path("detail").asText());
        }
        assertEquals(2 * MISBEHAVING.size(), clusterEndings.size());
        for (String game : noisy) {
            String ending = clusterEndings.remove(game);
            localEndings.remove(game);
            // the driver reads the flood and keeps only what the record needs; writing it is the engine's own
            // time, so on a busy machine it may lose on time, but never by a fault of the driver or transport
            assertTrue(
                    List.of("checkmate", "adjudication", "repetition", "time_forfeit").stream()
                            .anyMatch(ending::startsWith),
                    "a flood of output ends no game by a fault: " + game + " " + ending);
        }
        assertEquals(4, noisy.size());
        assertEquals(
                localEndings,
                clusterEndings,
                () -> "the same ending for every game as on one machine; why they ended: " + details);

        for (LocalCluster.Member member : cluster.members()) {
            if (!member.role().equals("kafka")) {
                assertTrue(ClusterProbe.get(member.http() + "/q/health").contains("\"status\": \"UP\""), member.name());
            }
        }
        await(
                "the workers' engines end with their idle sessions",
                Duration.ofSeconds(60),
                () -> cluster.members().stream()
                        .filter(m -> m.role().equals("worker"))
                        .allMatch(m -> engines(m).isEmpty()));
        System.out.printf(
                "fault: %d misbehaving engines through the cluster: each of their %d games ended as on one machine"
                        + " (%s); all services healthy, no engine left%n",
                MISBEHAVING.size(), clusterEndings.size(), new java.util.TreeSet<>(clusterEndings.values()));
    }

    /** What a member showed between SIGTERM and its exit. */
    private record Shutdown(
            boolean notServingWhileAlive,
            long notServingAfterMillis,
            boolean readyWhileDraining,
            long exitedAfterMillis) {}

    /** Sends SIGTERM and watches gRPC health and HTTP readiness until the process has exited. */
    private static Shutdown terminate(LocalCluster.Member member) throws Exception {
        ProcessHandle process = ProcessHandle.of(member.pid()).orElseThrow();
        ManagedChannel channel = ClusterProbe.channel(cluster, member).build();
        try {
            HealthGrpc.HealthBlockingStub health = HealthGrpc.newBlockingStub(channel);
            assertEquals(
                    ServingStatus.SERVING,
                    grpcHealth(health.withDeadlineAfter(20, TimeUnit.SECONDS)),
                    member.name() + " serves before SIGTERM");
            long start = System.nanoTime();
            process.destroy();
            boolean notServing = false;
            long notServingAt = -1;
            boolean readyWhileDraining = false;
            long deadline = start + Duration.ofSeconds(60).toNanos();
            while (process.isAlive() && System.nanoTime() < deadline) {
                ServingStatus status = grpcHealth(health.withDeadlineAfter(1, TimeUnit.SECONDS));
                boolean alive = process.isAlive();
                if (alive && status == ServingStatus.NOT_SERVING && !notServing) {
                    notServing = true;
                    notServingAt = (System.nanoTime() - start) / 1_000_000;
                }
                if (notServing && ClusterProbe.status(member.http() + "/q/health/ready") == 200) {
                    readyWhileDraining = true;
                }
                Thread.sleep(20);
            }
            assertFalse(process.isAlive(), member.name() + " still runs a minute after SIGTERM");
            return new Shutdown(notServing, notServingAt, readyWhileDraining, (System.nanoTime() - start) / 1_000_000);
        } finally {
            channel.shutdownNow();
        }
    }

    /** The member's overall gRPC health, or UNKNOWN when it does not answer. */
    private static ServingStatus grpcHealth(HealthGrpc.HealthBlockingStub health) {
        try {
            return health.check(HealthCheckRequest.newBuilder().build()).getStatus();
        } catch (StatusRuntimeException e) {
            return ServingStatus.UNKNOWN;
        }
    }

    /** The operator's Kafka client (a super user of the broker: poison goes where no service would put it). */
    private static Properties kafka() throws java.io.IOException {
        return cluster.kafkaProperties();
    }

    private static KafkaProducer<String, byte[]> producer() throws java.io.IOException {
        return new KafkaProducer<>(kafka(), new StringSerializer(), new ByteArraySerializer());
    }

    /** Submits a tournament of {@link #GAMES} games between the steady fakes; returns its id. */
    /**
     * A worker that stops answering without closing its connections (SIGSTOP: a frozen host, a network
     * partition) is noticed by the move deadline and gRPC keepalive, not the TCP reset of a dead process.
     */
    @Test
    @Order(10)
    void aFrozenWorkerIsNoticedWithinSecondsAndLosesNoGame() throws Exception {
        String id = submit("worker frozen");
        Hosting hosting = hosting(id);
        LocalCluster.Member worker = hosting.worker();
        List<ProcessHandle> engines = hosting.engines();
        double abortedBefore = metric(cluster, "referee", "taikai_referee_games_aborted_total");
        long detected;
        long enginesGone;
        signal("STOP", worker.pid());
        try {
            detected = await(
                    "a referee gives up the frozen worker's games",
                    Duration.ofSeconds(60),
                    () -> metric(cluster, "referee", "taikai_referee_games_aborted_total") > abortedBefore);
        } finally {
            signal("CONT", worker.pid());
        }
        enginesGone = await(
                "the thawed worker ends the engines of the sessions the referee gave up",
                Duration.ofSeconds(60),
                () -> engines.stream().noneMatch(ProcessHandle::isAlive));
        List<GameRecord> records = finishWithoutDisconnects(id);
        double aborted = metric(cluster, "referee", "taikai_referee_games_aborted_total") - abortedBefore;
        System.out.printf(
                "fault: worker frozen (SIGSTOP): given up after %d ms, %.0f game attempts aborted and replayed; thawed,"
                        + " its %d engines ended %d ms later; %d of %d games counted once%n",
                detected, aborted, engines.size(), enginesGone, records.size(), GAMES);
    }

    /**
     * Waits until {@code worker} hosts engines while games of tournament {@code id} are in play and one has
     * been counted; returns those engines.
     */
    /** A worker and the engines it hosts. */
    private record Hosting(LocalCluster.Member worker, List<ProcessHandle> engines) {}

    /**
     * A worker that hosts at least two engines while games of tournament {@code id} are in play, once one
     * has finished. Either worker: a referee reuses its idle sessions of the test before, which may all be
     * on one worker, so that the other hosts none of these games (the test waited a minute for worker-2).
     */
    private static Hosting hosting(String id) throws Exception {
        java.util.concurrent.atomic.AtomicReference<Hosting> found =
                new java.util.concurrent.atomic.AtomicReference<>();
        await("a worker hosts engines while games are in play", Duration.ofSeconds(60), () -> {
            if (metric(cluster, "referee", "taikai_referee_games_active") <= 0
                    || scheduler.state(id).getFinishedGames() < 1) {
                return false;
            }
            for (String name : List.of("worker-2", "worker-1")) {
                List<ProcessHandle> engines = engines(cluster.member(name));
                if (engines.size() >= 2) {
                    found.set(new Hosting(cluster.member(name), engines));
                    return true;
                }
            }
            return false;
        });
        return found.get();
    }

    /** {@link #finish}, and no game was lost by an engine for a disconnect: a lost worker is no engine's fault. */
    private static List<GameRecord> finishWithoutDisconnects(String id) throws Exception {
        List<GameRecord> records = finish(id);
        for (GameRecord record : records) {
            assertNotEquals(Termination.TERMINATION_DISCONNECT, record.getTermination(), record.getDetail());
        }
        return records;
    }

    private static void signal(String name, long pid) throws Exception {
        Process kill = new ProcessBuilder("kill", "-" + name, Long.toString(pid))
                .redirectErrorStream(true)
                .start();
        assertEquals(
                0,
                kill.waitFor(),
                "kill -" + name + " " + pid + ": "
                        + new String(kill.getInputStream().readAllBytes()));
    }

    private static String submit(String name) throws Exception {
        Path file = dir.resolve(name.replace(' ', '-') + ".yaml");
        Files.writeString(
                file,
                String.join(
                        "\n",
                        "name: " + name,
                        "variant: minishogi",
                        "catalog: fakes.yaml",
                        "rounds: " + GAMES / 2,
                        "games: 2",
                        "concurrency: 4",
                        "time-control: byoyomi 1",
                        "adjudication: {move-limit: 40}",
                        "engines: [steady-a, steady-b]",
                        ""));
        ClusterProbe.Output submitted = ClusterProbe.submit(cluster, file, "--detach");
        assertEquals(0, submitted.code(), submitted.err());
        return submitted.out().trim();
    }

    /**
     * Waits for the tournament to finish and checks that it counted exactly its planned games, each game
     * id once; keeps its standings for the scheduler restart test.
     */
    private static List<GameRecord> finish(String id) throws Exception {
        await("tournament " + id + " finishes", Duration.ofSeconds(240), () -> {
            try {
                return scheduler.state(id).getStatus() == Status.STATUS_FINISHED;
            } catch (java.io.IOException e) {
                return false; // the scheduler is restarting
            }
        });
        TournamentState state = scheduler.state(id);
        assertEquals(GAMES, state.getPlannedGames());
        assertEquals(GAMES, state.getFinishedGames(), "games counted");
        List<GameRecord> records = scheduler.records(id, 0, 1000).getRecordsList();
        assertEquals(GAMES, records.size(), "records kept");
        Set<String> ids = new HashSet<>();
        for (GameRecord record : records) {
            assertTrue(ids.add(record.getAssignment().getGameId()), "counted twice: " + record.getAssignment());
        }
        standings.put(id, standingsOf(id));
        return records;
    }

    private static String standingsOf(String id) throws Exception {
        return ClusterProbe.get(cluster.scheduler().http() + "/api/tournaments/" + id + "/standings");
    }

    /** The engine processes a worker runs now. */
    private static List<ProcessHandle> engines(LocalCluster.Member worker) {
        return ProcessHandle.of(worker.pid())
                .map(p -> p.children().filter(ProcessHandle::isAlive).toList())
                .orElse(List.of());
    }

    /**
     * The games of tournament {@code id} that {@code log} shows started and not finished. Attempts that an
     * earlier test's fault abandoned in the same log belong to other tournaments and are not counted.
     */
    private static Set<String> unfinishedGames(Path log, String id) throws Exception {
        Set<String> games = new HashSet<>();
        for (String line : Files.readAllLines(log)) {
            if (!line.contains("game " + id + "/")) {
                continue;
            }
            int at = line.indexOf("game ");
            if (at < 0) {
                continue;
            }
            int colon = line.indexOf(':', at + 5);
            if (colon < 0) {
                continue;
            }
            String game = line.substring(at + 5, colon);
            if (line.endsWith(") started")) {
                games.add(game);
            } else if (line.contains(" by ") && line.contains(" plies ")) {
                games.remove(game);
            }
        }
        return games;
    }

    private static final DateTimeFormatter LOG_TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSS'Z'");

    /** When (epoch ms) the referee logged that it was assigned pairing partitions. */
    private static List<Long> assigned(Path log) throws Exception {
        List<Long> times = new ArrayList<>();
        for (String line : Files.readAllLines(log)) {
            if (line.contains("pairing partitions assigned")) {
                times.add(LocalDateTime.parse(line.substring(0, 24), LOG_TIME)
                        .atZone(ZoneId.systemDefault())
                        .toInstant()
                        .toEpochMilli());
            }
        }
        return times;
    }
}
