package dev.taikai.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.util.JsonFormat;
import dev.taikai.access.Role;
import dev.taikai.access.grpc.BearerToken;
import dev.taikai.cli.cluster.LocalCluster;
import dev.taikai.cli.cluster.SchedulerClient;
import dev.taikai.cli.run.Tournaments;
import dev.taikai.events.DeadLetter;
import dev.taikai.events.Topics;
import dev.taikai.proto.common.v1.GameAssignment;
import dev.taikai.proto.common.v1.GameRecord;
import dev.taikai.proto.common.v1.Result;
import dev.taikai.proto.common.v1.Termination;
import dev.taikai.proto.events.v1.GameRecordEvent;
import dev.taikai.proto.events.v1.PairingEvent;
import dev.taikai.proto.scheduler.v1.CreateTournamentRequest;
import dev.taikai.proto.scheduler.v1.SchedulerGrpc;
import dev.taikai.proto.tournament.v1.Entrant;
import dev.taikai.proto.tournament.v1.Format;
import dev.taikai.proto.tournament.v1.Status;
import dev.taikai.proto.tournament.v1.TournamentSpec;
import dev.taikai.testkit.ProtoFuzz;
import io.grpc.ManagedChannel;
import io.grpc.StatusRuntimeException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Hostile input against a real local cluster, tried at every entry it has: the HTTP API, gRPC, the
 * command line and messages written straight into Kafka. Whatever an attacker with the documented tokens
 * (or with Kafka) sends, nothing reaches an engine's pipe unchecked, no option value makes a file, no
 * forged record is counted, one viewer cannot starve the others, and every refusal is one line with no
 * stack trace in any service's log.
 */
class HostileInputTest {
    private static final Duration WITHIN = Duration.ofSeconds(120);
    /**
     * HTTP/1.1, one connection per request in flight, as the many clients of a real viewer would be; over
     * TLS with the cluster's CA.
     */
    private static HttpClient HTTP;

    @TempDir
    static Path dir;

    private static LocalCluster cluster;
    private static SchedulerClient admin;
    /** Where the injected option value would make a file: it must never exist. */
    private static Path planted;
    /** Every line the fake engines read: what reached their pipes. */
    private static List<Path> inputs;

    @BeforeAll
    static void up() throws Exception {
        planted = dir.resolve("planted.txt");
        inputs = List.of(dir.resolve("a.input"), dir.resolve("b.input"));
        Files.writeString(
                dir.resolve("fakes.yaml"),
                "engines:\n"
                        + Tournaments.fakeEntry(
                                "fake-a",
                                "--seed",
                                "1",
                                "--think-ms",
                                "5",
                                "--log-input",
                                inputs.get(0).toString())
                        + Tournaments.fakeEntry(
                                "fake-b",
                                "--seed",
                                "2",
                                "--think-ms",
                                "5",
                                "--log-input",
                                inputs.get(1).toString())
                        + Tournaments.fakeEntry("fake-sleepy", "--think-ms", "600000"));
        cluster = ClusterProbe.start(
                dir.resolve("cluster"),
                new LocalCluster.Shape(1, 1, 4, 2, dir.resolve("fakes.yaml").toString()));
        admin = cluster.schedulerClient(Role.ADMIN);
        HTTP = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(5))
                .sslContext(cluster.sslContext().orElseThrow())
                .build();
    }

    @AfterAll
    static void down() throws Exception {
        if (cluster != null) {
            ClusterProbe.stop(cluster, "hostile-logs");
        }
    }

    /** After every vector: no file made by an option value, nothing injected reached an engine. */
    @AfterEach
    void nothingReachedAnEngine() throws Exception {
        assertFalse(Files.exists(planted), "an option value made a file");
        for (Path input : inputs) {
            if (Files.exists(input)) {
                String read = Files.readString(input);
                assertFalse(read.contains("Skill Level value 0"), "an injected line reached an engine: " + read);
                assertFalse(read.contains("Debug Log File"), "a file option reached an engine: " + read);
            }
        }
    }

    @Test
    void anOptionValueThatWouldAddALineIsRefusedAtEveryEntryWithTheSameMessage() throws Exception {
        String value = planted + "\nsetoption name Skill Level value 0";
        String refusal = "options['Debug Log File'] holds a control character (U+000A at "
                + planted.toString().length() + "): it must be one line of printable text";
        TournamentSpec spec = spec(Map.of("Debug Log File", value));

        Answer http = post("/api/tournaments", JsonFormat.printer().print(spec));
        assertEquals(400, http.status(), http.body());
        assertEquals("{\"error\":\"entrants[0]." + refusal.replace("\"", "\\\"") + "\"}", http.body());

        StatusRuntimeException grpc = createOverGrpc(spec);
        assertEquals(io.grpc.Status.Code.INVALID_ARGUMENT, grpc.getStatus().getCode());
        assertEquals("entrants[0]." + refusal, grpc.getStatus().getDescription());

        CliRun cli = CliRun.of(
                "run",
                "-variant",
                "minishogi",
                "-catalog",
                dir.resolve("fakes.yaml").toString(),
                "-engine",
                "conf=fake-a",
                "option.Debug Log File=" + value,
                "-engine",
                "conf=fake-b",
                "-out",
                dir.resolve("cli-out").toString());
        assertEquals(2, cli.exitCode(), cli.err());
        assertTrue(cli.err().contains(refusal), cli.err());
        assertEquals(1, cli.err().strip().lines().count(), "one line: " + cli.err());

        GameAssignment forged = forgedPairing(Map.of("Debug Log File", value));
        send(
                Topics.PAIRINGS,
                "injected-line",
                PairingEvent.newBuilder()
                        .setSchemaVersion(Topics.SCHEMA_VERSION)
                        .setAssignment(forged)
                        .build()
                        .toByteArray());
        String reason = deadLetter("injected-line");
        assertTrue(reason.contains("sente.options['Debug Log File'] holds a control character"), reason);
    }

    @Test
    void overlongOptionsAndNamesAreRefusedUpstreamSoNoPairingIsLeftUnplayable() throws Exception {
        record Bad(Map<String, String> options, String refusal) {}
        for (Bad bad : List.of(
                new Bad(
                        Map.of("Hash", "1".repeat(300)),
                        "entrants[0].options['Hash'] is 300 characters long; at most 256"),
                new Bad(Map.of("Hash\u0007", "1"), "entrants[0].options['Hash\\u0007'] name holds a control character"),
                new Bad(
                        Map.of("Debug Log File", planted.toString()),
                        "entrants[0].options: option 'Debug Log File' names a file"))) {
            Answer answer = post("/api/tournaments", JsonFormat.printer().print(spec(bad.options())));
            assertEquals(400, answer.status(), answer.body());
            assertTrue(answer.body().contains(bad.refusal().replace("\\", "\\\\")), answer.body());
        }
        // well formed but not an option of the engine: only the engine can tell, when it starts
        Answer undeclared = post("/api/tournaments", JsonFormat.printer().print(spec(Map.of("Hsh", "64"))));
        assertEquals(201, undeclared.status(), undeclared.body());
        var created = dev.taikai.proto.tournament.v1.TournamentState.newBuilder();
        JsonFormat.parser().ignoringUnknownFields().merge(undeclared.body(), created);
        String id = created.getTournamentId();
        ClusterProbe.await(
                "a tournament the engine cannot play ends instead of staying RUNNING",
                WITHIN,
                () -> admin.state(id).getStatus() != Status.STATUS_RUNNING);
        GameRecord lost = admin.records(id, 0, 10).getRecords(0);
        assertEquals(Termination.TERMINATION_DISCONNECT, lost.getTermination());
        assertTrue(lost.getDetail().contains("option 'Hsh' is not an option of engine 'fake-a'"), lost.getDetail());
        Answer join = post(
                "/api/tournaments/nobody/entrants",
                "{\"name\": \"x\", \"engineId\": \"fake-a\", \"options\": {\"Debug Log File\": \"a\\nb\"}}");
        assertEquals(400, join.status(), join.body());
        assertTrue(join.body().contains("entrant.options['Debug Log File'] holds a control character"), join.body());
    }

    @Test
    void aFileOptionSentStraightToKafkaNeverReachesTheEngine() throws Exception {
        double failed = ClusterProbe.metric(cluster, "worker", "taikai_worker_engine_failures_total");
        send(
                Topics.PAIRINGS,
                "file-option",
                PairingEvent.newBuilder()
                        .setSchemaVersion(Topics.SCHEMA_VERSION)
                        .setAssignment(forgedPairing(Map.of("Debug Log File", planted.toString())))
                        .build()
                        .toByteArray());
        ClusterProbe.await(
                "the worker refuses to start the engine with it",
                WITHIN,
                () -> ClusterProbe.metric(cluster, "worker", "taikai_worker_engine_failures_total") > failed);
    }

    @Test
    void forgedRecordsAreDeadLetteredWithTheirReasonAndCountNowhere() throws Exception {
        String played = admin.create(spec(Map.of())).getTournamentId();
        ClusterProbe.await(
                "the match is played", WITHIN, () -> admin.state(played).getStatus() == Status.STATUS_FINISHED);
        GameRecord honest = admin.records(played, 0, 10).getRecords(0);
        // the forgeries are of a game of a running match that is not counted yet: fake-sleepy never
        // answers and loses it in 20 s, so a forgery counted before that would stand (the real record would
        // then be the duplicate)
        String running = admin.create(slowSpec()).getTournamentId();
        GameAssignment target = pairingsOf(running).get(0);
        GameRecord moved = honest.toBuilder().setAssignment(target).build();

        Map<String, GameRecord> forged = new LinkedHashMap<>();
        forged.put(
                "forged-0-plies",
                moved.toBuilder()
                        .clearMoves()
                        .setResult(Result.RESULT_GOTE_WINS)
                        .setTermination(Termination.TERMINATION_CHECKMATE)
                        .build());
        var otherEngine = moved.toBuilder();
        otherEngine.getAssignmentBuilder().getGoteBuilder().setEngineId("fake-b-stronger");
        forged.put("forged-engine", otherEngine.build());
        var illegal = moved.toBuilder();
        illegal.getMovesBuilder(0).setMove("5e5a");
        forged.put("forged-move", illegal.build());
        forged.put(
                "forged-result",
                moved.toBuilder()
                        .setResult(Result.RESULT_SENTE_WINS)
                        .setTermination(Termination.TERMINATION_CHECKMATE)
                        .build());
        for (var forgery : forged.entrySet()) {
            send(
                    Topics.GAMES,
                    forgery.getKey(),
                    GameRecordEvent.newBuilder()
                            .setSchemaVersion(Topics.SCHEMA_VERSION)
                            .setRecord(forgery.getValue())
                            .build()
                            .toByteArray());
        }
        assertTrue(
                deadLetter("forged-0-plies").startsWith("record refused: it ends by checkmate"),
                deadLetter("forged-0-plies"));
        assertTrue(
                deadLetter("forged-engine").contains("gote was played by engine 'fake-b-stronger'"),
                deadLetter("forged-engine"));
        assertTrue(deadLetter("forged-move").contains("ply 1 (5e5a) is not a legal move"), deadLetter("forged-move"));
        assertTrue(deadLetter("forged-result").startsWith("record refused: it ends by"), deadLetter("forged-result"));

        ClusterProbe.await(
                "the real games are played", WITHIN, () -> admin.state(running).getStatus() == Status.STATUS_FINISHED);
        var records = admin.records(running, 0, 10);
        assertEquals(2, records.getTotal(), "the forgeries count nowhere");
        for (GameRecord real : records.getRecordsList()) {
            assertEquals(Termination.TERMINATION_TIME_FORFEIT, real.getTermination(), real.getDetail());
        }
        assertEquals(2, admin.state(running).getFinishedGames());
    }

    /**
     * One viewer opens 200 long polls: it gets its share (8) and 429 for the rest, while another caller's
     * requests are answered as before (the medians are printed; a timing is no pass criterion here).
     */
    @Test
    void oneViewerWithHundredsOfLongPollsCannotStarveOtherCallers() throws Exception {
        String id = admin.create(spec(Map.of())).getTournamentId();
        ClusterProbe.await("the match is played", WITHIN, () -> admin.state(id).getStatus() == Status.STATUS_FINISHED);
        String running = admin.create(slowSpec()).getTournamentId();
        String ordinary = "/api/tournaments/" + id + "/games?limit=10"; // an ordinary records request
        medianMillis(ordinary, 50); // warm-up: a fresh connection's first requests are not the baseline
        double before = medianMillis(ordinary, 50);
        String viewer = cluster.token(Role.VIEWER);
        List<CompletableFuture<HttpResponse<String>>> polls = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            polls.add(HTTP.sendAsync(
                    HttpRequest.newBuilder(URI.create(cluster.scheduler().http() + "/api/tournaments/" + running
                                    + "/games?offset=1000&wait-ms=30000"))
                            .header("Authorization", "Bearer " + viewer)
                            .timeout(Duration.ofSeconds(60))
                            .build(),
                    HttpResponse.BodyHandlers.ofString()));
        }
        ClusterProbe.await(
                "192 of the polls refused",
                WITHIN,
                () -> polls.stream()
                                .filter(p -> p.isDone() && p.join().statusCode() == 429)
                                .count()
                        == 192);
        HttpResponse<String> refused = polls.stream()
                .filter(p -> p.isDone() && p.join().statusCode() == 429)
                .findFirst()
                .orElseThrow()
                .join();
        assertTrue(refused.body().contains("'local-viewer' has 8 long polls open already"), refused.body());
        double during = medianMillis(ordinary, 50);
        System.out.printf(
                "hostile: 200 long polls by one viewer: 8 admitted, 192 refused (429); another caller's median"
                        + " records request %.2f ms before, %.2f ms during (medians of 50)%n",
                before, during);
        admin.cancel(running, "done");
        ClusterProbe.await(
                "the admitted polls answer when the tournament stops",
                WITHIN,
                () -> polls.stream().allMatch(CompletableFuture::isDone));
        assertEquals(
                200, polls.stream().filter(p -> p.join().statusCode() < 500).count());
    }

    @Test
    void badRequestsGetOneLineAnswersAndLeaveNoStackTraceInAnyLog() throws Exception {
        assertEquals(415, raw("POST", "/api/tournaments", "", "{}").status());
        assertEquals(415, raw("POST", "/api/tournaments", "text/plain", "{}").status());
        for (String json :
                List.of("{\"name\":\"x\"}}}", "{/*c*/\"name\":\"x\"}", "{\"name\":\"x\",\"name\":\"y\"}", "", "[1]")) {
            Answer answer = raw("POST", "/api/tournaments", "application/json", json);
            assertEquals(400, answer.status(), json + " -> " + answer.body());
            assertTrue(
                    answer.body().startsWith("{\"error\":\"") && !answer.body().contains("\n"), answer.body());
            assertFalse(answer.body().contains("gson") || answer.body().contains("Exception"), answer.body());
        }
        Answer offset = raw("GET", "/api/tournaments/x/games?offset=abc", null, null);
        assertEquals(400, offset.status());
        assertEquals("{\"error\":\"offset must be a whole number from 0 to 2147483647, not 'abc'\"}", offset.body());
        // Java's parser reads full-width digits too; the API takes ASCII digits only, as every other program
        Answer fullWidth = raw("GET", "/api/tournaments/x/games?limit=%EF%BC%95", null, null);
        assertEquals(400, fullWidth.status());
        assertEquals("{\"error\":\"limit must be a whole number from 1 to 1000, not '\uFF15'\"}", fullWidth.body());
        assertEquals(
                400,
                raw("GET", "/api/tournaments/x/games?offset=99999999999999999999", null, null)
                        .status());
        // protobuf's wire format cannot carry a lone surrogate (it sends a question mark); a JSON escape can
        Answer surrogate = post(
                "/api/tournaments",
                JsonFormat.printer().print(spec(Map.of())).replace("\"hostile\"", "\"lone \\ud800 surrogate\""));
        assertEquals(400, surrogate.status(), surrogate.body());
        assertTrue(surrogate.body().contains("name holds a lone surrogate (U+D800 at 5)"), surrogate.body());

        // fuzz: 300 mutated specs over gRPC, 300 mangled JSON bodies over HTTP
        Random random = new Random(22);
        TournamentSpec valid = spec(Map.of());
        Map<io.grpc.Status.Code, Integer> codes = new java.util.TreeMap<>();
        for (int i = 0; i < 300; i++) {
            codes.merge(grpcCode(ProtoFuzz.mutate(valid, random)), 1, Integer::sum);
        }
        assertTrue(
                java.util.Set.of(io.grpc.Status.Code.OK, io.grpc.Status.Code.INVALID_ARGUMENT)
                        .containsAll(codes.keySet()),
                "gRPC answers to fuzzed specs: " + codes);
        String json = JsonFormat.printer().print(valid);
        Map<Integer, Integer> statuses = new java.util.TreeMap<>();
        for (int i = 0; i < 300; i++) {
            Answer answer = raw("POST", "/api/tournaments", "application/json", mangle(json, random));
            statuses.merge(answer.status(), 1, Integer::sum);
            if (answer.status() == 201) {
                cancelCreated(answer.body());
            }
        }
        assertTrue(
                java.util.Set.of(201, 400).containsAll(statuses.keySet()), "HTTP answers to mangled JSON: " + statuses);
        System.out.printf(
                "hostile: fuzz, 300 mutated specs over gRPC: %s; 300 mangled JSON bodies: %s%n", codes, statuses);
        String schedulerLog = Files.readString(cluster.directory().resolve("scheduler.log"));
        assertTrue(
                schedulerLog.contains("WARN  [bad-input] refused local-admin: POST /api/tournaments -> 415 "),
                "a refusal leaves a warning with the caller and the reason");
        assertTrue(
                schedulerLog.contains(
                        "WARN  [bad-input] refused local-admin: taikai.scheduler.v1.Scheduler/CreateTournament ->"
                                + " INVALID_ARGUMENT "),
                "a gRPC refusal too");
        try (var logs = Files.list(cluster.directory())) {
            for (Path log : logs.filter(f -> f.toString().endsWith(".log")).toList()) {
                String text = Files.readString(log);
                assertFalse(text.contains("\tat "), "a stack trace in " + log.getFileName());
                assertFalse(
                        text.contains(" SEVERE ") || text.contains(" ERROR "), "an error line in " + log.getFileName());
            }
        }
    }

    /**
     * Requests the access gate refuses are counted in the HTTP metrics under one path: 120 made-up paths
     * without a token used up the metrics' 100 paths, after which real endpoints were no longer counted.
     * HEAD is GET without the body, also when refused (a refusal's body broke the HTTP/2 stream).
     */
    @Test
    void refusedRequestsCannotFillTheMetricsAndHeadIsAnsweredAsGet() throws Exception {
        for (int i = 0; i < 120; i++) {
            assertEquals(401, anonymous("GET", "/made-up-" + i).status());
        }
        Answer head = anonymous("HEAD", "/api/tournaments");
        assertEquals(401, head.status());
        assertEquals("", head.body());
        assertEquals(200, raw("HEAD", "/api/tournaments", null, null).status());
        assertEquals(200, anonymous("HEAD", "/ui/index.html").status());
        String metrics = raw("GET", "/q/metrics", null, null).body();
        assertFalse(metrics.contains("/made-up-"), "no made-up path in the metrics");
        assertTrue(metrics.contains("uri=\"/refused-by-access-control\""), "refusals counted under one path");
        assertEquals(200, raw("GET", "/api/tournaments", null, null).status());
        assertTrue(
                raw("GET", "/q/metrics", null, null).body().contains("uri=\"/api/tournaments\""),
                "a real endpoint is still counted");
    }

    /** A request without a token. */
    private static Answer anonymous(String method, String path) throws Exception {
        HttpRequest request = HttpRequest.newBuilder(
                        URI.create(cluster.scheduler().http() + path))
                .timeout(Duration.ofSeconds(30))
                .method(method, HttpRequest.BodyPublishers.noBody())
                .build();
        HttpResponse<String> response = HTTP.send(request, HttpResponse.BodyHandlers.ofString());
        return new Answer(response.statusCode(), response.body());
    }

    private static TournamentSpec spec(Map<String, String> options) {
        return TournamentSpec.newBuilder()
                .setName("hostile")
                .setVariant(dev.taikai.proto.common.v1.Variant.VARIANT_MINISHOGI)
                .setFormat(Format.FORMAT_MATCH)
                .setRounds(1)
                .setGamesPerPairing(2)
                .setTimeControl(dev.taikai.proto.common.v1.TimeControl.newBuilder()
                        .setKind(dev.taikai.proto.common.v1.TimeControl.Kind.KIND_BYOYOMI)
                        .setByoyomiMs(500))
                .setAdjudication(
                        dev.taikai.proto.common.v1.Adjudication.newBuilder().setMoveLimitPlies(30))
                .addEntrants(
                        Entrant.newBuilder().setName("a").setEngineId("fake-a").putAllOptions(options))
                .addEntrants(Entrant.newBuilder().setName("b").setEngineId("fake-b"))
                .build();
    }

    /**
     * A tournament that stays running for 20 s: fake-sleepy never answers and each game ends then (lost on time)
     * (a cancel lets games in play finish, so a longer clock would hold the referee's places).
     */
    private static TournamentSpec slowSpec() {
        TournamentSpec spec = spec(Map.of());
        return spec.toBuilder()
                .setEntrants(0, spec.getEntrants(0).toBuilder().setEngineId("fake-sleepy"))
                .setTimeControl(spec.getTimeControl().toBuilder().setByoyomiMs(20_000))
                .build();
    }

    /** The assignment of a game of a tournament nobody created, with these options for sente. */
    private static GameAssignment forgedPairing(Map<String, String> senteOptions) throws Exception {
        String id = admin.create(spec(Map.of())).getTournamentId();
        ClusterProbe.await(
                "a match to copy is played", WITHIN, () -> admin.state(id).getStatus() == Status.STATUS_FINISHED);
        GameAssignment real = admin.records(id, 0, 1).getRecords(0).getAssignment();
        String tournament = "forged-" + Long.toHexString(System.nanoTime());
        var forged = real.toBuilder().setTournamentId(tournament).setGameId(tournament + "/" + real.getLocalId());
        forged.getSenteBuilder().clearOptions().putAllOptions(senteOptions);
        return forged.build();
    }

    /** The code gRPC answers {@code spec} with; a tournament it creates is cancelled at once. */
    private static io.grpc.Status.Code grpcCode(TournamentSpec spec) throws Exception {
        ManagedChannel channel =
                ClusterProbe.channel(cluster, cluster.scheduler()).build();
        try {
            var created = SchedulerGrpc.newBlockingStub(channel)
                    .withCallCredentials(new BearerToken(cluster.token(Role.ADMIN)))
                    .withDeadlineAfter(30, TimeUnit.SECONDS)
                    .createTournament(
                            CreateTournamentRequest.newBuilder().setSpec(spec).build());
            admin.cancel(created.getTournamentId(), "fuzz");
            return io.grpc.Status.Code.OK;
        } catch (StatusRuntimeException e) {
            return e.getStatus().getCode();
        } finally {
            channel.shutdownNow();
        }
    }

    private static void cancelCreated(String stateJson) throws Exception {
        var state = dev.taikai.proto.tournament.v1.TournamentState.newBuilder();
        JsonFormat.parser().ignoringUnknownFields().merge(stateJson, state);
        admin.cancel(state.getTournamentId(), "fuzz");
    }

    private static StatusRuntimeException createOverGrpc(TournamentSpec spec) throws Exception {
        ManagedChannel channel =
                ClusterProbe.channel(cluster, cluster.scheduler()).build();
        try {
            SchedulerGrpc.newBlockingStub(channel)
                    .withCallCredentials(new BearerToken(cluster.token(Role.ADMIN)))
                    .withDeadlineAfter(30, TimeUnit.SECONDS)
                    .createTournament(
                            CreateTournamentRequest.newBuilder().setSpec(spec).build());
            throw new AssertionError("created");
        } catch (StatusRuntimeException e) {
            assertTrue(
                    e.getStatus().getCode() == io.grpc.Status.Code.INVALID_ARGUMENT
                            || e.getStatus().getCode() == io.grpc.Status.Code.RESOURCE_EXHAUSTED,
                    e.getStatus().toString());
            return e;
        } finally {
            channel.shutdownNow();
        }
    }

    record Answer(int status, String body) {}

    private static Answer post(String path, String json) throws Exception {
        return raw("POST", path, "application/json", json);
    }

    /** A request with the admin's token; a null or empty type sends no Content-Type. */
    private static Answer raw(String method, String path, String type, String body) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(
                        URI.create(cluster.scheduler().http() + path))
                .header("Authorization", "Bearer " + cluster.token(Role.ADMIN))
                .timeout(Duration.ofSeconds(30))
                .method(
                        method,
                        body == null
                                ? HttpRequest.BodyPublishers.noBody()
                                : HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8));
        if (type != null && !type.isEmpty()) {
            request.header("Content-Type", type);
        }
        HttpResponse<String> response = HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
        return new Answer(response.statusCode(), response.body());
    }

    /** The median time, in ms, of {@code n} requests for {@code path} by the admin, one after another. */
    private static double medianMillis(String path, int n) throws Exception {
        double[] millis = new double[n];
        for (int i = 0; i < n; i++) {
            long started = System.nanoTime();
            assertEquals(200, raw("GET", path, null, null).status());
            millis[i] = (System.nanoTime() - started) / 1e6;
        }
        java.util.Arrays.sort(millis);
        return (millis[n / 2 - 1] + millis[n / 2]) / 2;
    }

    /** {@code json} with a few random bytes replaced, inserted or deleted. */
    private static String mangle(String json, Random random) {
        StringBuilder text = new StringBuilder(json);
        for (int edits = 1 + random.nextInt(4); edits > 0 && text.length() > 0; edits--) {
            int at = random.nextInt(text.length());
            String alphabet = "{}[]\",:\\0a-9 \u0000\ud800";
            char c = alphabet.charAt(random.nextInt(alphabet.length()));
            switch (random.nextInt(3)) {
                case 0 -> text.setCharAt(at, c);
                case 1 -> text.insert(at, c);
                default -> text.deleteCharAt(at);
            }
        }
        return text.toString();
    }

    private static void send(String topic, String key, byte[] value) throws Exception {
        try (KafkaProducer<String, byte[]> producer =
                new KafkaProducer<>(kafka(), new StringSerializer(), new ByteArraySerializer())) {
            producer.send(new ProducerRecord<>(topic, key, value)).get(60, TimeUnit.SECONDS);
        }
    }

    /** The reason of the dead letter of the message sent with {@code key}, waiting until it is there. */
    /** The assignments of {@code tournament}'s games as the scheduler published them, in plan order. */
    private static List<GameAssignment> pairingsOf(String tournament) throws Exception {
        try (KafkaConsumer<String, byte[]> consumer =
                new KafkaConsumer<>(kafka(), new StringDeserializer(), new ByteArrayDeserializer())) {
            List<TopicPartition> partitions = consumer.partitionsFor(Topics.PAIRINGS).stream()
                    .map(p -> new TopicPartition(p.topic(), p.partition()))
                    .toList();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            List<GameAssignment> found = new ArrayList<>();
            long deadline = System.nanoTime() + WITHIN.toNanos();
            while (found.isEmpty() && System.nanoTime() < deadline) {
                for (ConsumerRecord<String, byte[]> pairing : consumer.poll(Duration.ofMillis(200))) {
                    GameAssignment assignment;
                    try {
                        assignment = PairingEvent.parseFrom(pairing.value()).getAssignment();
                    } catch (com.google.protobuf.InvalidProtocolBufferException e) {
                        continue; // a hostile test's garbage
                    }
                    if (assignment.getTournamentId().equals(tournament)) {
                        found.add(assignment);
                    }
                }
            }
            if (found.isEmpty()) {
                throw new AssertionError("no pairing of " + tournament + " within " + WITHIN.toSeconds() + " s");
            }
            found.sort(java.util.Comparator.comparing(GameAssignment::getGameId));
            return found;
        }
    }

    private static String deadLetter(String key) throws Exception {
        try (KafkaConsumer<String, byte[]> consumer =
                new KafkaConsumer<>(kafka(), new StringDeserializer(), new ByteArrayDeserializer())) {
            TopicPartition partition = new TopicPartition(Topics.DEAD_LETTERS, 0);
            consumer.assign(List.of(partition));
            consumer.seekToBeginning(List.of(partition));
            long deadline = System.nanoTime() + WITHIN.toNanos();
            while (System.nanoTime() < deadline) {
                for (ConsumerRecord<String, byte[]> letter : consumer.poll(Duration.ofMillis(200))) {
                    var source = letter.headers().lastHeader(DeadLetter.SOURCE_KEY);
                    if (source != null && new String(source.value(), StandardCharsets.UTF_8).equals(key)) {
                        return new String(
                                letter.headers().lastHeader(DeadLetter.REASON).value(), StandardCharsets.UTF_8);
                    }
                }
            }
        }
        throw new AssertionError("no dead letter of '" + key + "' within " + WITHIN.toSeconds() + " s");
    }

    /** The operator's Kafka client (a super user of the broker: poison goes where no service would put it). */
    private static Properties kafka() throws java.io.IOException {
        return cluster.kafkaProperties();
    }
}
