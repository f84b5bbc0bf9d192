package dev.taikai.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.google.protobuf.util.JsonFormat;
import dev.taikai.access.Role;
import dev.taikai.access.Tokens;
import dev.taikai.access.grpc.BearerToken;
import dev.taikai.cli.cluster.LocalCluster;
import dev.taikai.cli.cluster.SchedulerClient;
import dev.taikai.cli.run.Tournaments;
import dev.taikai.deploy.LoopbackPorts;
import dev.taikai.proto.common.v1.GameRecord;
import dev.taikai.proto.common.v1.Termination;
import dev.taikai.proto.scheduler.v1.CancelTournamentRequest;
import dev.taikai.proto.scheduler.v1.GetGameRecordsResponse;
import dev.taikai.proto.scheduler.v1.ListTournamentsRequest;
import dev.taikai.proto.scheduler.v1.SchedulerGrpc;
import dev.taikai.proto.tournament.v1.Status;
import dev.taikai.proto.tournament.v1.TournamentState;
import dev.taikai.proto.worker.v1.EngineWorkerGrpc;
import dev.taikai.proto.worker.v1.SessionEvent;
import dev.taikai.proto.worker.v1.SessionRequest;
import dev.taikai.proto.worker.v1.StartEngine;
import io.grpc.ManagedChannel;
import io.grpc.StatusRuntimeException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * End to end through all three services as separate processes and a real Kafka broker process, started
 * the way 'taikai cluster up' starts them: fake engines and Debian's Fairy-Stockfish, the same games as the
 * local runner, metrics and health, cancellation.
 */
class ClusterTest {
    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

    /**
     * The overrun margin of the games in {@link
     * #fairyStockfishAndTheXBoardEnginesPlayBothVariantsThroughTheCluster}. They are about the protocols
     * through the cluster, not about clocks: on two cores shared by the broker, the services and four
     * engines, one engine once waited more than 190 ms for a CPU in a move of 100 ms, more than the CPU
     * wait the referee excuses under the default margin (the move's allowance and margin), and lost on
     * time. Whether honest engines keep to the default margins through the cluster is measured by {@code
     * bench/clocks.sh --cluster}, on a machine that runs nothing else.
     */
    private static final long PROTOCOL_GAMES_MARGIN_MILLIS = 2_000;

    @TempDir
    static Path dir;

    private static LocalCluster cluster;
    private static SchedulerClient scheduler;
    /** A port that another program held while the cluster started. */
    private static int takenPort;

    @BeforeAll
    static void up() throws Exception {
        Files.writeString(
                dir.resolve("fakes.yaml"),
                "engines:\n"
                        + Tournaments.fakeEntry("fake-a", "--seed", "1", "--think-ms", "5")
                        + Tournaments.fakeEntry("fake-b", "--seed", "2", "--think-ms", "5")
                        + Tournaments.fakeEntry("fake-c", "--seed", "3", "--think-ms", "5")
                        + Tournaments.fakeEntry("fake-d", "--seed", "4", "--think-ms", "5")
                        + Tournaments.fakeEntry("fake-e", "--seed", "5", "--think-ms", "5")
                        + "  - id: never\n    command: '"
                        + (Files.exists(Path.of("/usr/bin/true")) ? "/usr/bin/true" : "/bin/true") + "'\n"
                        + Tournaments.fakeEntry("fake-nosetboard", "--xboard", "--no-setboard")
                        + "    protocol: xboard\n"
                        + Tournaments.fakeEntry("fake-slow", "--think-ms", "400")
                        + Tournaments.fakeEntry("fake-ponderous", "--think-ms", "40000"));
        // Another program takes worker-1's gRPC port (the sixth port handed out: broker, controller, the
        // scheduler's two, worker-1's HTTP, then this) before worker-1 binds it: the start must go on.
        try (ServerSocket taken = new ServerSocket()) {
            taken.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), LoopbackPorts.next()));
            AtomicInteger handedOut = new AtomicInteger();
            cluster = ClusterProbe.start(
                    dir.resolve("cluster"),
                    new LocalCluster.Shape(2, 1, 3, 2, dir.resolve("fakes.yaml").toString()),
                    () -> handedOut.incrementAndGet() == 6 ? taken.getLocalPort() : LoopbackPorts.next());
            takenPort = taken.getLocalPort();
        }
        scheduler = cluster.schedulerClient(Role.ADMIN);
    }

    @Test
    void aServiceWhosePortWasTakenIsStartedAgainOnNewPorts() throws Exception {
        String log = Files.readString(cluster.directory().resolve("worker-1.log"));
        assertTrue(
                log.contains("taikai: a port of worker-1 was taken by another program before it could bind it;"
                        + " starting worker-1, worker-2, referee-1 again on new ports"),
                log);
        for (LocalCluster.Member member : cluster.members()) {
            assertNotEquals(takenPort, member.grpcPort(), member.name());
            assertNotEquals(takenPort, member.httpPort(), member.name());
        }
        assertEquals(
                List.of("kafka", "referee-1", "scheduler", "worker-1", "worker-2"),
                cluster.members().stream()
                        .map(LocalCluster.Member::name)
                        .sorted()
                        .toList());
    }

    @AfterAll
    static void down() throws Exception {
        if (cluster != null) {
            ClusterProbe.stop(cluster, "cluster-logs");
        }
    }

    private static int taikai(StringWriter out, StringWriter err, String... args) {
        return Taikai.run(System.in, new PrintWriter(out, true), new PrintWriter(err, true), args);
    }

    @Test
    void theClusterPlaysTheSameGamesAsTheLocalRunner() throws Exception {
        Path file = dir.resolve("same.yaml");
        Files.writeString(
                file,
                String.join(
                        "\n",
                        "name: same games",
                        "variant: minishogi",
                        "catalog: fakes.yaml",
                        "format: round-robin",
                        "games: 2",
                        "time-control: byoyomi 0.5",
                        "concurrency: 2",
                        "openings: {file: " + ROOT.resolve("openings/minishogi.txt") + ", order: random}",
                        "seed: 11",
                        "adjudication: {move-limit: 60}",
                        "output: local",
                        "engines: [fake-a, fake-b, fake-c]",
                        ""));
        Path clusterRecords = dir.resolve("cluster-records");
        ClusterProbe.Output submitted = ClusterProbe.submit(cluster, file, "--out", clusterRecords.toString());
        assertEquals(0, submitted.code(), submitted.err() + "\n" + submitted.out());
        assertTrue(
                submitted.out().contains("Standings of same games (minishogi, round-robin, 6 games)"), submitted.out());
        assertTrue(submitted.err().contains("[6/6]"), submitted.err());
        assertTrue(
                submitted
                        .out()
                        .contains(
                                "Records: " + clusterRecords
                                        + " (results.json, games/*.kif, all-games.kif, all-games.sfen, taikai.log, report.html)"),
                submitted.out());

        assertEquals(0, taikai(new StringWriter(), new StringWriter(), "run", file.toString()));
        JsonNode local = Tournaments.results(dir.resolve("local"));
        JsonNode fromCluster = Tournaments.results(clusterRecords);
        assertEquals(gamesOf(local), gamesOf(fromCluster), "the cluster's results.json holds the local run's games");
        assertEquals(local.get("standings").size(), fromCluster.get("standings").size());
        try (var kifs = Files.list(clusterRecords.resolve("games"))) {
            assertEquals(6, kifs.filter(k -> k.toString().endsWith(".kif")).count(), "a KIF per game");
        }
        ClusterProbe.Output again =
                ClusterProbe.submit(cluster, file, "--out", dir.resolve("local").toString());
        assertEquals(2, again.code(), "a folder of another run is refused: " + again.err());
        assertTrue(
                again.err().contains("already holds the games of a run on this machine; choose another folder"),
                again.err());

        TournamentState state = scheduler.state(submitted.tournamentId());
        assertEquals(Status.STATUS_FINISHED, state.getStatus());
        var page = scheduler.records(state.getTournamentId(), 0, 100);
        List<GameRecord> records = page.getRecordsList();
        assertEquals(6, records.size());
        assertEquals(6, page.getTotal());
        assertEquals(state, page.getState(), "the page carries the tournament's state");
        // the client reads records as binary protobuf; the JSON that people and curl get holds the same
        var fromJson = GetGameRecordsResponse.newBuilder();
        JsonFormat.parser()
                .merge(
                        get(cluster.scheduler().http() + "/api/tournaments/" + state.getTournamentId()
                                + "/games?offset=0&limit=100"),
                        fromJson);
        assertEquals(page, fromJson.build());
        var stateFromJson = TournamentState.newBuilder();
        JsonFormat.parser()
                .merge(get(cluster.scheduler().http() + "/api/tournaments/" + state.getTournamentId()), stateFromJson);
        assertEquals(state, stateFromJson.build(), "the state the client reads in binary, in JSON");
        Set<String> clusterGames = new TreeSet<>();
        for (GameRecord record : records) {
            var a = record.getAssignment();
            clusterGames.add(a.getLocalId() + " " + a.getSente().getName() + "-"
                    + a.getGote().getName() + " " + record.getStartSfen());
            replay(record);
            assertTrue(record.getRefereeId().startsWith("referee-"));
            assertTrue(record.getSenteWorker().startsWith("worker-"), record.getSenteWorker());
        }
        Set<String> localGames = new TreeSet<>();
        for (JsonNode game : local.get("games")) {
            localGames.add(game.get("id").asText() + " " + game.get("sente").asText() + "-"
                    + game.get("gote").asText() + " " + game.get("start_sfen").asText());
        }
        assertEquals(localGames, clusterGames, "same ids, colours and openings");

        String metrics = get(cluster.member("referee-1").http() + "/q/metrics");
        for (String name : List.of(
                "taikai_referee_moves_total",
                "taikai_referee_move_latency_seconds_bucket",
                "taikai_referee_move_transport_seconds_bucket",
                "taikai_referee_games_finished_total",
                "taikai_referee_games_active",
                "taikai_referee_pairings_lag",
                "kafka_producer")) {
            assertTrue(metrics.contains(name), name + " in the referee's metrics");
        }
        assertTrue(get(cluster.member("worker-1").http() + "/q/metrics").contains("taikai_worker_sessions_active"));
        String schedulerMetrics = get(cluster.scheduler().http() + "/q/metrics");
        assertTrue(schedulerMetrics.contains("taikai_scheduler_pairings_published_total"));
        var counted = java.util.regex.Pattern.compile(
                        "taikai_scheduler_records_total\\{outcome=\"counted\",?} ([0-9.]+)")
                .matcher(schedulerMetrics);
        assertTrue(counted.find() && Double.parseDouble(counted.group(1)) >= 6, schedulerMetrics);
        for (LocalCluster.Member member : cluster.members()) {
            if (!member.role().equals("kafka")) {
                assertTrue(get(member.http() + "/q/health").contains("\"status\": \"UP\""), member.name());
            }
        }
    }

    /**
     * Fairy-Stockfish (USI) against itself and against CrazyWa (XBoard) in both variants, and Sjaak II
     * (XBoard) in Minishogi, on the workers: clean games whose records replay, under {@link
     * #PROTOCOL_GAMES_MARGIN_MILLIS}.
     */
    @Test
    void fairyStockfishAndTheXBoardEnginesPlayBothVariantsThroughTheCluster() throws Exception {
        for (String variant : List.of("minishogi", "kyotoshogi")) {
            Path file = dir.resolve("fsf-" + variant + ".yaml");
            boolean mini = variant.equals("minishogi");
            Files.writeString(
                    file,
                    String.join(
                            "\n",
                            "name: fsf " + variant,
                            "variant: " + variant,
                            "games: 2",
                            "rounds: 1",
                            "time-control: byoyomi 0.1",
                            "overrun-margin-ms: " + PROTOCOL_GAMES_MARGIN_MILLIS,
                            "engines:",
                            "  - {engine: fairy-stockfish, name: fsf-a}",
                            "  - {engine: fairy-stockfish, name: fsf-b}",
                            "  - crazywa",
                            mini ? "  - sjaakii" : "",
                            ""));
            ClusterProbe.Output submitted = ClusterProbe.submit(cluster, file);
            assertEquals(0, submitted.code(), submitted.err());
            var records = scheduler.records(submitted.tournamentId(), 0, 100).getRecordsList();
            assertEquals(mini ? 12 : 6, records.size());
            Set<String> engines = new TreeSet<>();
            for (GameRecord record : records) {
                if (record.getDetail().contains("(crazywa): protocol error: false claim")) {
                    // CrazyWa's rules are not RULES.md's: once (CI, 2026-12-07) it claimed '1-0', its own
                    // loss, where the game went on; the referee scores a false claim as the claimant's
                    // illegal move (docs/rules-decisions.md). The game is printed to be looked into.
                    System.out.printf(
                            "crazywa's false claim in %s: %s; from %s: %s%n",
                            variant,
                            record.getDetail(),
                            record.getStartSfen(),
                            record.getMovesList().stream()
                                    .map(m -> m.getMove())
                                    .collect(java.util.stream.Collectors.joining(" ")));
                    replay(record);
                    continue;
                }
                assertTrue(
                        record.getTermination() != Termination.TERMINATION_ILLEGAL_MOVE
                                && record.getTermination() != Termination.TERMINATION_STALL
                                && record.getTermination() != Termination.TERMINATION_TIME_FORFEIT
                                && record.getTermination() != Termination.TERMINATION_DISCONNECT,
                        record.getDetail());
                engines.add(record.getAssignment().getSente().getEngineId());
                assertEquals(
                        PROTOCOL_GAMES_MARGIN_MILLIS,
                        record.getAssignment().getSente().getOverrunMarginMs(),
                        "the file's margin");
                assertEquals(
                        PROTOCOL_GAMES_MARGIN_MILLIS,
                        record.getAssignment().getGote().getOverrunMarginMs(),
                        "the file's margin");
                replay(record);
            }
            assertTrue(engines.contains("crazywa") && (!mini || engines.contains("sjaakii")), engines.toString());
        }
    }

    /**
     * A move that takes 40 s, with nothing on the wire in between but the referee's keepalive pings, is
     * played: the worker takes the pings (gRPC's default would close the session after the third, at 30 s,
     * and the game would be abandoned and started again, for ever).
     */
    @Test
    void aMoveOfLongerThanHalfAMinuteIsPlayedAndNotAbandoned() throws Exception {
        Path file = dir.resolve("ponder.yaml");
        Files.writeString(
                file,
                String.join(
                        "\n",
                        "name: ponder",
                        "variant: minishogi",
                        "catalog: fakes.yaml",
                        "games: 2",
                        "concurrency: 2",
                        "time-control: byoyomi 90",
                        "adjudication: {move-limit: 2}",
                        "engines: [fake-ponderous, fake-a]",
                        ""));
        ClusterProbe.Output submitted = ClusterProbe.submit(cluster, file, "--detach");
        assertEquals(0, submitted.code(), submitted.err());
        String id = submitted.out().trim();
        ClusterProbe.await(
                "both games played",
                Duration.ofSeconds(180),
                () -> scheduler.state(id).getFinishedGames() == 2);
        for (GameRecord game : scheduler.records(id, 0, 2).getRecordsList()) {
            assertEquals(2, game.getMovesCount(), game.getDetail());
            assertEquals(Termination.TERMINATION_ADJUDICATION, game.getTermination(), game.getDetail());
        }
        List<String> abandoned = Files.readAllLines(cluster.directory().resolve("referee-1.log")).stream()
                .filter(line -> line.contains(id + "/") && line.contains("abandoned"))
                .toList();
        assertEquals(List.of(), abandoned);
    }

    @Test
    void aCancelledTournamentStartsNoFurtherGame() throws Exception {
        Path file = dir.resolve("cancel.yaml");
        Files.writeString(
                file,
                String.join(
                        "\n",
                        "name: cancel me",
                        "variant: minishogi",
                        "catalog: fakes.yaml",
                        "rounds: 20",
                        "games: 2",
                        "concurrency: 2",
                        "time-control: byoyomi 1",
                        "adjudication: {move-limit: 6}",
                        "engines: [fake-slow, fake-a]",
                        ""));
        ClusterProbe.Output submitted = ClusterProbe.submit(cluster, file, "--detach");
        assertEquals(0, submitted.code(), submitted.err());
        String id = submitted.out().trim();
        ClusterProbe.await(
                "two games counted",
                Duration.ofSeconds(120),
                () -> scheduler.state(id).getFinishedGames() >= 2);
        TournamentState cancelled = scheduler.cancel(id, "enough");
        assertEquals(Status.STATUS_CANCELLED, cancelled.getStatus());
        // The games in play at the cancel finish and are counted; once every game the referee finished is
        // counted, a scheduler that handed out games after the cancel would have done so by now.
        ClusterProbe.await(
                "the games in play at the cancel finished and counted",
                Duration.ofSeconds(120),
                () -> ClusterProbe.metric(cluster, "referee", "taikai_referee_games_active") == 0
                        && ClusterProbe.metric(
                                        cluster.scheduler(), "taikai_scheduler_records_total", "outcome=\"counted\"")
                                >= ClusterProbe.metric(cluster, "referee", "taikai_referee_games_finished_total"));
        TournamentState later = scheduler.state(id);
        assertEquals(Status.STATUS_CANCELLED, later.getStatus());
        assertEquals(cancelled.getPublishedGames(), later.getPublishedGames(), "no game handed out after the cancel");
        assertTrue(
                later.getFinishedGames() <= cancelled.getPublishedGames(),
                "only games handed out before the cancel are counted: " + later.getFinishedGames() + " of "
                        + cancelled.getPublishedGames());
        assertTrue(later.getFinishedGames() < later.getPlannedGames());

        // the command --detach printed follows the tournament to its end and writes its records
        String printed = submitted
                .err()
                .lines()
                .filter(line -> line.startsWith("Follow it and write its records with: ./taikai cluster fetch "))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no fetch command in: " + submitted.err()))
                .substring("Follow it and write its records with: ./taikai ".length());
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        assertEquals(1, taikai(out, err, printed.split(" ")), "a cancelled tournament exits 1: " + err + out);
        Path records = Path.of(printed.split(" --out ")[1].split(" ")[0]);
        JsonNode results = Tournaments.results(records);
        assertEquals(later.getFinishedGames(), results.get("games").size(), out.toString());
        try (var kifs = Files.list(records.resolve("games"))) {
            assertEquals(later.getFinishedGames(), kifs.count());
        }
        assertTrue(out.toString().contains("Tournament " + id + ": cancelled (cancelled: enough)"), out.toString());
        assertEquals(1, taikai(new StringWriter(), new StringWriter(), printed.split(" ")), "fetched again, the same");
    }

    /**
     * A Ctrl-C stops 'cluster submit' and not the tournament: it says so and prints the command that picks
     * the tournament up again. An id that is no path segment is no tournament (it would name the list).
     */
    @Test
    void aCtrlCDuringSubmitPrintsTheFetchCommandAndTheTournamentGoesOn() throws Exception {
        Path file = dir.resolve("interrupted.yaml");
        Files.writeString(
                file,
                String.join(
                        "\n",
                        "name: interrupted",
                        "variant: minishogi",
                        "catalog: fakes.yaml",
                        "rounds: 20",
                        "concurrency: 1",
                        "adjudication: {move-limit: 6}",
                        "engines: [fake-slow, fake-a]",
                        ""));
        Path err = dir.resolve("interrupted.err");
        Process submit = new ProcessBuilder(
                        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                        "-Dtaikai.home=" + Path.of("..").toAbsolutePath().normalize(),
                        "-cp",
                        System.getProperty("java.class.path"),
                        "dev.taikai.cli.Taikai",
                        "cluster",
                        "submit",
                        "--dir",
                        cluster.directory().toString(),
                        "--out",
                        dir.resolve("interrupted-records").toString(),
                        file.toString())
                .redirectOutput(dir.resolve("interrupted.out").toFile())
                .redirectError(err.toFile())
                .start();
        String id = null;
        try {
            ClusterProbe.await(
                    "the first game counted",
                    Duration.ofSeconds(120),
                    () -> Files.readString(err).contains("[1/") || !submit.isAlive());
            assertTrue(submit.isAlive(), Files.readString(err));
            String printed = Files.readString(err);
            String accepted = printed.lines()
                    .filter(line -> line.startsWith("interrupted: tournament "))
                    .findFirst()
                    .orElseThrow(() -> new AssertionError("no tournament id in: " + printed));
            id = accepted.split(" ")[2];
            assertEquals(
                    0,
                    new ProcessBuilder("kill", "-INT", Long.toString(submit.pid()))
                            .start()
                            .waitFor());
            assertTrue(submit.waitFor(60, TimeUnit.SECONDS), "'cluster submit' ends on a Ctrl-C");
            assertEquals(130, submit.exitValue(), Files.readString(err));
            String said = Files.readString(err);
            assertTrue(
                    said.contains("Interrupted; tournament " + id + " goes on in the cluster. Follow it and write"
                            + " its records with: ./taikai cluster fetch --dir " + cluster.directory() + " --out "
                            + dir.resolve("interrupted-records") + " " + id + " " + file),
                    said);
            assertEquals(Status.STATUS_RUNNING, scheduler.state(id).getStatus(), "the tournament goes on");
        } finally {
            submit.destroyForcibly();
            if (id != null) {
                scheduler.cancel(id, "test over");
            }
        }
        for (String notAnId : List.of("", ".", "..")) {
            StringWriter out = new StringWriter();
            StringWriter said = new StringWriter();
            assertEquals(
                    2,
                    taikai(
                            out,
                            said,
                            "cluster",
                            "fetch",
                            "--dir",
                            cluster.directory().toString(),
                            notAnId,
                            file.toString()),
                    said.toString());
            assertEquals(
                    "taikai cluster fetch: the cluster has no tournament '" + notAnId + "'" + System.lineSeparator(),
                    said.toString());
        }
    }

    @Test
    void everyEndpointWantsATokenOfTheRightRoleAndNoSecretIsLogged() throws Exception {
        String viewer = cluster.token(Role.VIEWER);
        String worker = cluster.token(Role.WORKER);
        String referee = cluster.token(Role.REFEREE);
        String api = cluster.scheduler().http() + "/api/tournaments";
        assertEquals(401, status("GET", api, null));
        assertEquals(401, status("GET", api, "not-a-token"));
        assertEquals(200, status("GET", api, viewer));
        assertEquals(403, status("POST", api, viewer), "a viewer reads only");
        assertEquals(403, status("GET", api, worker), "a worker calls nothing");
        assertEquals(403, status("DELETE", api + "/anything", referee));
        String admin = cluster.token(Role.ADMIN);
        assertEquals(405, status("PUT", api + "/anything", admin), "a method the resource does not answer");
        assertEquals(404, status("GET", cluster.scheduler().http() + "/api/nothing", admin), "no such resource");
        HttpResponse<String> nothing = ClusterProbe.http()
                .send(
                        HttpRequest.newBuilder(URI.create(cluster.scheduler().http() + "/api/nothing"))
                                .header("Authorization", "Bearer " + admin)
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
        // the gate's refusals read as the services' own do
        assertEquals("{\"error\":\"no such resource: /api/nothing\"}", nothing.body());
        for (LocalCluster.Member member : cluster.members()) {
            if (member.role().equals("kafka")) {
                continue;
            }
            assertEquals(401, status("GET", member.http() + "/q/metrics", null), member.name());
            assertEquals(403, status("GET", member.http() + "/q/metrics", worker), member.name());
            assertEquals(200, status("GET", member.http() + "/q/metrics", viewer), member.name());
            assertEquals(200, status("GET", member.http() + "/q/health/ready", null), "probes need no secret");
        }

        ManagedChannel scheduler =
                ClusterProbe.channel(cluster, cluster.scheduler()).build();
        ManagedChannel worker1 =
                ClusterProbe.channel(cluster, cluster.member("worker-1")).build();
        try {
            var list = SchedulerGrpc.newBlockingStub(scheduler).withDeadlineAfter(20, TimeUnit.SECONDS);
            assertEquals(
                    io.grpc.Status.Code.UNAUTHENTICATED,
                    code(() -> list.listTournaments(ListTournamentsRequest.getDefaultInstance())));
            assertEquals(
                    io.grpc.Status.Code.PERMISSION_DENIED,
                    code(() -> list.withCallCredentials(new BearerToken(viewer))
                            .cancelTournament(CancelTournamentRequest.newBuilder()
                                    .setTournamentId("x")
                                    .build())));
            list.withCallCredentials(new BearerToken(viewer))
                    .listTournaments(ListTournamentsRequest.getDefaultInstance());
            // a worker's token cannot open sessions on another worker (nor can a viewer's)
            for (String token : List.of(worker, viewer)) {
                var events = new java.util.concurrent.LinkedBlockingQueue<Object>();
                var requests = EngineWorkerGrpc.newStub(worker1)
                        .withCallCredentials(new BearerToken(token))
                        .session(new io.grpc.stub.StreamObserver<SessionEvent>() {
                            public void onNext(SessionEvent value) {
                                events.add(value);
                            }

                            public void onError(Throwable t) {
                                events.add(t);
                            }

                            public void onCompleted() {
                                events.add("completed");
                            }
                        });
                requests.onNext(SessionRequest.newBuilder()
                        .setRequestId(1)
                        .setStart(StartEngine.newBuilder().setEngineId("fake-a"))
                        .build());
                Object answer = events.poll(20, TimeUnit.SECONDS);
                assertEquals(
                        io.grpc.Status.Code.PERMISSION_DENIED,
                        io.grpc.Status.fromThrowable((Throwable) answer).getCode());
            }
        } finally {
            scheduler.shutdownNow();
            worker1.shutdownNow();
        }

        // revoking: the viewer's line leaves the tokens file, and its token stops working everywhere
        Path tokens = dir.resolve("cluster").resolve("access").resolve("tokens");
        List<String> lines = Files.readAllLines(tokens);
        for (String line : lines) {
            assertTrue(!line.contains(viewer) && !line.contains(worker) && !line.contains(referee), "hashes only");
        }
        String viewerHash = Tokens.hash(viewer);
        // a live stream opened before went on after the revocation: the token was checked only as it opened
        var live = ClusterProbe.http()
                .send(
                        HttpRequest.newBuilder(URI.create(cluster.scheduler().http() + "/api/live"))
                                .header("Authorization", "Bearer " + viewer)
                                .build(),
                        HttpResponse.BodyHandlers.ofInputStream());
        assertEquals(200, live.statusCode());
        java.util.concurrent.CompletableFuture<Void> liveEnded = java.util.concurrent.CompletableFuture.runAsync(() -> {
            try (var body = live.body()) {
                body.transferTo(java.io.OutputStream.nullOutputStream());
            } catch (java.io.IOException e) {
                // ended all the same
            }
        });
        Files.write(tokens, lines.stream().filter(l -> !l.contains(viewerHash)).toList());
        try {
            liveEnded.get(
                    60, TimeUnit.SECONDS); // the file is read again within a second, the stream checked every second
            // each service re-reads the file on its own (at most every half second): all refuse within seconds
            long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            for (String url : List.of(
                    api,
                    cluster.member("referee-1").http() + "/q/metrics",
                    cluster.member("worker-1").http() + "/q/metrics")) {
                assertEquals(401, statusOnceSettled(401, url, viewer, deadline), "revoked at " + url);
            }
        } finally {
            Files.write(tokens, lines);
        }

        try (var logs = Files.list(dir.resolve("cluster"))) {
            for (Path log : logs.filter(f -> f.toString().endsWith(".log")).toList()) {
                String text = Files.readString(log);
                for (String secret : List.of(viewer, worker, referee, cluster.token(Role.ADMIN))) {
                    assertTrue(!text.contains(secret), "a token in " + log.getFileName());
                }
            }
        }
    }

    @Test
    void hostileRequestsToTheRealServicesGetClearRefusals() throws Exception {
        String admin = cluster.token(Role.ADMIN);
        String api = cluster.scheduler().http() + "/api/tournaments";
        HttpResponse<String> garbage = post(api, admin, "{\"name\": ");
        assertEquals(400, garbage.statusCode());
        assertTrue(garbage.body().contains("not a TournamentSpec"), garbage.body());
        HttpResponse<String> command = post(
                api,
                admin,
                "{\"name\": \"x\", \"variant\": \"VARIANT_MINISHOGI\", \"format\": \"FORMAT_MATCH\", \"rounds\": 1,"
                        + " \"gamesPerPairing\": 2, \"timeControl\": {\"kind\": \"KIND_BYOYOMI\", \"byoyomiMs\": 100},"
                        + " \"entrants\": [{\"name\": \"a\", \"engineId\": \"fake-a\"},"
                        + " {\"name\": \"b\", \"engineId\": \"/usr/bin/python3 -c evil\"}]}");
        assertEquals(400, command.statusCode());
        assertTrue(command.body().contains("entrants[1].engine_id"), command.body());
        assertEquals(400, post(api, admin, "").statusCode(), "an empty body");
        // JSON is UTF-8: other bytes were decoded with replacement characters, which a name then kept
        String spec = "{\"name\": \"caf\u00e9\", \"variant\": \"VARIANT_MINISHOGI\", \"format\": \"FORMAT_MATCH\","
                + " \"rounds\": 1, \"gamesPerPairing\": 2, \"timeControl\": {\"kind\": \"KIND_BYOYOMI\","
                + " \"byoyomiMs\": 100}, \"entrants\": [{\"name\": \"a\", \"engineId\": \"fake-a\"},"
                + " {\"name\": \"b\", \"engineId\": \"fake-a\"}]";
        HttpResponse<String> latin1 =
                post(api, admin, "application/json", (spec + ", \"seed\": 1}").getBytes(StandardCharsets.ISO_8859_1));
        assertEquals(400, latin1.statusCode(), latin1.body());
        assertTrue(latin1.body().contains("the body is not UTF-8: a malformed sequence at byte 13"), latin1.body());
        HttpResponse<String> saidLatin1 = post(
                api,
                admin,
                "application/json; charset=ISO-8859-1",
                (spec + ", \"seed\": 2}").getBytes(StandardCharsets.ISO_8859_1));
        assertEquals(400, saidLatin1.statusCode(), saidLatin1.body());
        assertTrue(saidLatin1.body().contains("the body's charset is 'ISO-8859-1': JSON is UTF-8"), saidLatin1.body());
        HttpResponse<String> seeds = post(api, admin, spec + ", \"seeds\": 5}");
        assertEquals(400, seeds.statusCode(), "a key taken and ignored: " + seeds.body());
        assertTrue(seeds.body().contains("seeds: a gauntlet's number of seeds"), seeds.body());
        HttpResponse<String> binaryGarbage = ClusterProbe.http()
                .send(
                        HttpRequest.newBuilder(URI.create(api))
                                .header("Authorization", "Bearer " + admin)
                                .header("Content-Type", "application/x-protobuf")
                                .POST(HttpRequest.BodyPublishers.ofByteArray(new byte[] {(byte) 0xff, 1, 2, 3}))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
        assertEquals(400, binaryGarbage.statusCode());
        assertTrue(binaryGarbage.body().contains("not a TournamentSpec"), binaryGarbage.body());
        assertEquals(
                400, status("GET", api + "/nobody/games?wait-ms=-1", cluster.token(Role.VIEWER)), "a negative wait");
        assertEquals(
                400,
                status("GET", api + "/nobody/games?wait-ms=3600000", cluster.token(Role.VIEWER)),
                "an hour's wait");
        long began = System.nanoTime();
        assertEquals(404, status("GET", api + "/nobody/games?wait-ms=20000", cluster.token(Role.VIEWER)));
        assertTrue(System.nanoTime() - began < 10_000_000_000L, "no waiting for a tournament that does not exist");
        String outsideCatalog = String.join(
                "",
                "{\"name\": \"x\", \"variant\": \"VARIANT_MINISHOGI\", \"format\": \"FORMAT_MATCH\", \"rounds\": 1,",
                " \"gamesPerPairing\": 2, \"timeControl\": {\"kind\": \"KIND_BYOYOMI\", \"byoyomiMs\": 100},",
                " \"entrants\": [{\"name\": \"a\", \"engineId\": \"fake-a\"},",
                " {\"name\": \"b\", \"engineId\": \"stockfish-17\"}]}");
        HttpResponse<String> notInCatalog = post(api, admin, outsideCatalog);
        assertEquals(400, notInCatalog.statusCode());
        assertTrue(
                notInCatalog.body().contains("entrants[1].engine_id 'stockfish-17' is not in the workers' catalog"),
                notInCatalog.body());

        ManagedChannel channel = ClusterProbe.channel(cluster, cluster.scheduler())
                .maxInboundMessageSize(64 << 20)
                .build();
        try {
            var stub = SchedulerGrpc.newBlockingStub(channel)
                    .withCallCredentials(new BearerToken(admin))
                    .withDeadlineAfter(30, TimeUnit.SECONDS);
            var huge = dev.taikai.proto.scheduler.v1.CreateTournamentRequest.newBuilder()
                    .setSpec(dev.taikai.proto.tournament.v1.TournamentSpec.newBuilder()
                            .setName("x".repeat(5 << 20)))
                    .build();
            assertEquals(io.grpc.Status.Code.RESOURCE_EXHAUSTED, code(() -> stub.createTournament(huge)));
            var absurd = dev.taikai.proto.scheduler.v1.CreateTournamentRequest.newBuilder()
                    .setSpec(dev.taikai.proto.tournament.v1.TournamentSpec.newBuilder()
                            .setName("absurd")
                            .setRounds(1_000_000_000))
                    .build();
            assertEquals(io.grpc.Status.Code.INVALID_ARGUMENT, code(() -> stub.createTournament(absurd)));
        } finally {
            channel.shutdownNow();
        }
        assertTrue(ClusterProbe.get(cluster.scheduler().http() + "/q/health").contains("\"status\": \"UP\""));
    }

    /**
     * With {@code engine-logs: true} every game's engine log travels from the workers with the end of each
     * session's game to the referee, which publishes it to Kafka beside the record; the scheduler serves it
     * and {@code cluster submit} writes it into the records folder, as {@code taikai run -log} does.
     */
    @Test
    void engineLogsTravelFromTheWorkersThroughKafkaToTheRecordsFolder() throws Exception {
        Path file = dir.resolve("logged.yaml");
        Files.writeString(
                file,
                String.join(
                        "\n",
                        "name: logged games",
                        "variant: minishogi",
                        "catalog: fakes.yaml",
                        "games: 2",
                        "time-control: byoyomi 0.5",
                        "adjudication: {move-limit: 30}",
                        "engine-logs: true",
                        "engines: [fake-a, fake-b]",
                        ""));
        Path records = dir.resolve("logged-records");
        ClusterProbe.Output submitted = ClusterProbe.submit(cluster, file, "--out", records.toString());
        assertEquals(0, submitted.code(), submitted.err() + "\n" + submitted.out());
        assertTrue(submitted.out().contains(", logs/*.log.gz: 2 engine logs)"), submitted.out());
        JsonNode results = Tournaments.results(records);
        for (JsonNode game : results.get("games")) {
            String id = game.get("id").asText();
            List<String> lines =
                    gunzipped(Files.readAllBytes(records.resolve("logs").resolve(id + ".log.gz")));
            int plies = game.get("plies").asInt();
            assertEquals(
                    plies,
                    lines.stream()
                            .filter(l -> l.matches("\\S+ fake-[ab] > go .*"))
                            .count(),
                    "a go a move in " + id + ": " + lines);
            assertEquals(
                    plies,
                    lines.stream()
                            .filter(l -> l.matches("\\S+ fake-[ab] < bestmove .*"))
                            .count(),
                    "a bestmove a move in " + id);
            assertTrue(lines.stream().anyMatch(l -> l.contains(" fake-a > gameover ")), lines.toString());
            assertTrue(lines.stream().anyMatch(l -> l.contains(" fake-b > gameover ")), lines.toString());
        }
        String id = submitted.tournamentId();
        for (GameRecord record : scheduler.records(id, 0, 10).getRecordsList()) {
            assertTrue(record.getEngineLog(), "the record says it has a log: " + record.getAssignment());
        }
        var served = scheduler.engineLog(id, "r1-p1-g2");
        assertTrue(served.isPresent(), "the scheduler serves the log");
        assertEquals(gunzipped(served.get()), gunzipped(Files.readAllBytes(records.resolve("logs/r1-p1-g2.log.gz"))));
        assertTrue(scheduler.engineLog(id, "r9-p1-g1").isEmpty(), "no such game, no log");
        String refusal = get(cluster.scheduler().http() + "/api/tournaments/" + id + "/games/r9-p1-g1/log");
        assertTrue(refusal.contains("no engine log of game 'r9-p1-g1' in tournament '" + id + "'"), refusal);
        String unknown = get(cluster.scheduler().http() + "/api/tournaments/" + id + "/games/a%20b/log");
        assertTrue(unknown.contains("is not a game id"), unknown);
    }

    /** How many times the scheduler has answered a request for a game's engine log with "none" (404). */
    private static double logsNotFound() throws Exception {
        return get(cluster.scheduler().http() + "/q/metrics")
                .lines()
                .filter(l -> l.startsWith("http_server_requests_seconds_count{")
                        && l.contains("status=\"404\"")
                        && l.contains("uri=\"/api/tournaments/{id}/games/{game}/log\""))
                .mapToDouble(l -> Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1)))
                .sum();
    }

    private static List<String> gunzipped(byte[] gzip) throws java.io.IOException {
        try (var in = new java.util.zip.GZIPInputStream(new java.io.ByteArrayInputStream(gzip))) {
            return List.of(new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8).split("\n"));
        }
    }

    /**
     * An engine that exits at once (a real program) forfeits its first games through the cluster and
     * then stops the tournament: STATUS_ABORTED with the reason, and `cluster submit` exits 1, as
     * `taikai run` does.
     */
    @Test
    void anEngineThatNeverStartsStopsTheTournamentThroughTheCluster() throws Exception {
        Path file = dir.resolve("never.yaml");
        Files.writeString(
                file,
                String.join(
                        "\n",
                        "name: never starts",
                        "variant: minishogi",
                        "catalog: fakes.yaml",
                        "rounds: 10",
                        "games: 2",
                        "concurrency: 1",
                        "time-control: byoyomi 0.5",
                        "engines: [fake-a, never]",
                        ""));
        // one game at a time through the cluster too (the file's concurrency is for local runs): games in
        // play when the tournament stops still count, and with more at once a fourth could
        double askedInVain = logsNotFound();
        ClusterProbe.Output submitted = ClusterProbe.submit(cluster, file, "--concurrency", "1");
        assertEquals(1, submitted.code(), submitted.out() + submitted.err());
        assertEquals(askedInVain, logsNotFound(), "the client asks for no log its records say is not there");
        assertTrue(
                (submitted.out() + submitted.err()).contains("engine 'never' did not start in its last 3 games"),
                submitted.out() + submitted.err());
        TournamentState state = scheduler.state(submitted.tournamentId());
        assertEquals(Status.STATUS_ABORTED, state.getStatus(), state.toString());
        assertEquals(3, state.getFinishedGames(), "three forfeits, then nothing more: " + state);
        // with no engine log asked for, a game of an engine that printed nothing keeps none
        var forfeit = scheduler.records(submitted.tournamentId(), 0, 1).getRecords(0);
        assertFalse(forfeit.getEngineLog(), forfeit.toString());
        assertTrue(scheduler
                .engineLog(submitted.tournamentId(), forfeit.getAssignment().getLocalId())
                .isEmpty());
    }

    /**
     * An XBoard engine without setboard, in a tournament with openings, cannot play any of its games. A
     * local run stopped at the first, but the cluster forfeited every game of the tournament and finished:
     * as gote the engine lost after sente's first move, so the start-failure stop never came. The first
     * such game counted now stops the tournament through the cluster too, with the same line.
     */
    @Test
    void anEngineThatFailsEveryGameStopsTheTournamentThroughTheCluster() throws Exception {
        Path suite = Files.writeString(dir.resolve("suite.txt"), "startpos moves 5d5c 1b1c\nstartpos moves 4e4d\n");
        Path file = dir.resolve("nosetboard.yaml");
        Files.writeString(
                file,
                String.join(
                        "\n",
                        "name: no setboard",
                        "variant: minishogi",
                        "catalog: fakes.yaml",
                        "rounds: 10",
                        "games: 2",
                        "time-control: byoyomi 0.5",
                        "openings: {file: " + suite + "}",
                        "engines: [fake-a, fake-nosetboard]",
                        ""));
        ClusterProbe.Output submitted = ClusterProbe.submit(cluster, file, "--concurrency", "1");
        assertEquals(1, submitted.code(), submitted.out() + submitted.err());
        assertTrue(
                (submitted.out() + submitted.err())
                        .contains("engine 'fake-nosetboard' cannot be used: variant unsupported: the engine cannot be"
                                + " given a position (it has no feature setboard=1)"),
                submitted.out() + submitted.err());
        TournamentState state = scheduler.state(submitted.tournamentId());
        assertEquals(Status.STATUS_ABORTED, state.getStatus(), state.toString());
        assertEquals(1, state.getFinishedGames(), "the first game, then nothing more: " + state);
    }

    @Test
    void aLeaguePairsRoundsTakesAJoinAndALeaveAndServesItsRatings() throws Exception {
        String admin = cluster.token(Role.ADMIN);
        String api = cluster.scheduler().http() + "/api/tournaments";
        HttpResponse<String> created = post(
                api,
                admin,
                String.join(
                        "",
                        "{\"name\": \"league\", \"variant\": \"VARIANT_MINISHOGI\", \"format\": \"FORMAT_LEAGUE\",",
                        " \"rounds\": 5, \"gamesPerPairing\": 2, \"concurrency\": 4,",
                        " \"timeControl\": {\"kind\": \"KIND_BYOYOMI\", \"byoyomiMs\": 500},",
                        " \"adjudication\": {\"moveLimitPlies\": 40},",
                        " \"league\": {\"halfLifeRounds\": 8},",
                        " \"entrants\": [{\"engineId\": \"fake-a\"}, {\"engineId\": \"fake-b\"},",
                        " {\"engineId\": \"fake-c\"}]}"));
        assertEquals(201, created.statusCode(), created.body());
        TournamentState state =
                parse(created.body(), TournamentState.newBuilder()).build();
        String id = state.getTournamentId();
        assertEquals(1, state.getLeagueRounds());
        long deadline = System.nanoTime() + Duration.ofSeconds(120).toNanos();
        HttpResponse<String> joined =
                post(api + "/" + id + "/entrants", admin, "{\"name\": \"newcomer\", \"engineId\": \"fake-b\"}");
        assertEquals(200, joined.statusCode(), joined.body());
        int joinedBefore = parse(joined.body(), TournamentState.newBuilder())
                .getLeagueChanges(0)
                .getBeforeRound();
        HttpResponse<String> twice =
                post(api + "/" + id + "/entrants", admin, "{\"name\": \"newcomer\", \"engineId\": \"fake-b\"}");
        assertEquals(409, twice.statusCode(), "a name in use: " + twice.body());
        assertTrue(twice.body().contains("'newcomer'"), twice.body());
        HttpResponse<String> outsider =
                post(api + "/" + id + "/entrants", admin, "{\"name\": \"x\", \"engineId\": \"stockfish-17\"}");
        assertEquals(400, outsider.statusCode(), "only catalog engines join: " + outsider.body());
        assertEquals(
                403,
                post(api + "/" + id + "/entrants", cluster.token(Role.VIEWER), "{}")
                        .statusCode());
        HttpResponse<String> left = delete(api + "/" + id + "/entrants/fake-c", admin);
        assertEquals(200, left.statusCode(), left.body());
        int leftBefore = parse(left.body(), TournamentState.newBuilder())
                .getLeagueChanges(1)
                .getBeforeRound();
        assertTrue(joinedBefore >= 2 && leftBefore >= joinedBefore, joinedBefore + ", " + leftBefore);

        while (scheduler.state(id).getStatus() == dev.taikai.proto.tournament.v1.Status.STATUS_RUNNING
                && System.nanoTime() < deadline) {
            Thread.sleep(200);
        }
        TournamentState done = scheduler.state(id);
        assertEquals(dev.taikai.proto.tournament.v1.Status.STATUS_FINISHED, done.getStatus(), done.getStatusDetail());
        assertEquals(5, done.getLeagueRounds());
        HttpResponse<String> lateJoin =
                post(api + "/" + id + "/entrants", admin, "{\"name\": \"late\", \"engineId\": \"fake-d\"}");
        assertEquals(409, lateJoin.statusCode(), "a finished league takes no join: " + lateJoin.body());
        HttpResponse<String> lateLeave = delete(api + "/" + id + "/entrants/newcomer", admin);
        assertEquals(409, lateLeave.statusCode(), "nor a leave: " + lateLeave.body());
        assertTrue(lateLeave.body().contains("the league " + id + " has stopped ("), lateLeave.body());
        List<GameRecord> records = scheduler.records(id, 0, 100).getRecordsList();
        assertEquals(done.getFinishedGames(), records.size());
        boolean newcomerPlayed = false;
        for (GameRecord record : records) {
            var a = record.getAssignment();
            int round = a.getRound();
            Set<String> players = Set.of(a.getSente().getName(), a.getGote().getName());
            if (round >= leftBefore) {
                assertTrue(!players.contains("fake-c"), "fake-c left before round " + leftBefore + ": " + a);
            }
            if (round < joinedBefore) {
                assertTrue(!players.contains("newcomer"), "newcomer joined for round " + joinedBefore + ": " + a);
            }
            newcomerPlayed |= players.contains("newcomer");
            for (var player : List.of(a.getSente(), a.getGote())) {
                if (player.getName().equals("newcomer")) {
                    assertEquals(
                            500,
                            player.getTimeControl().getByoyomiMs(),
                            "the newcomer joined without a time control and plays the league's: " + player);
                }
            }
            replay(record);
        }
        assertTrue(newcomerPlayed, "the newcomer was paired");

        var standings = parse(
                        ClusterProbe.get(api + "/" + id + "/standings"),
                        dev.taikai.proto.tournament.v1.Standings.newBuilder())
                .build();
        var league = standings.getLeague();
        assertEquals(5, league.getRounds());
        assertEquals(4, league.getRatingsCount(), "every engine that ever joined: " + league);
        for (var rating : league.getRatingsList()) {
            assertTrue(rating.getGames() > 0, rating.toString());
            assertEquals(!rating.getEngine().equals("fake-c"), rating.getActive(), rating.toString());
        }
        assertTrue(league.getHistoryList().stream()
                .anyMatch(h -> h.getEngine().equals("fake-a") && h.getPointsCount() >= 3));
        assertTrue(league.getCrosstableCount() >= 3);
    }

    /**
     * A 4-engine league of three rounds: whatever round 1 pairs, round 2 links the two halves, so that from
     * then on every engine is compared with every other (through the games played), and every rating the
     * standings serve, now and in each round's history, is a finite number with a finite error (the JSON
     * holds no "Infinity" or "NaN" where a number belongs).
     */
    @Test
    void aLeagueStaysConnectedAndServesFiniteRatingsInEveryRound() throws Exception {
        Path file = dir.resolve("connected.yaml");
        Files.writeString(
                file,
                String.join(
                        "\n",
                        "name: connected league",
                        "variant: minishogi",
                        "catalog: fakes.yaml",
                        "format: league",
                        "rounds: 3",
                        "games: 2",
                        "seed: 7",
                        "time-control: byoyomi 0.5",
                        "adjudication: {move-limit: 30}",
                        "engines: [fake-a, fake-b, fake-c, fake-d]",
                        ""));
        ClusterProbe.Output submitted = ClusterProbe.submit(cluster, file);
        assertEquals(0, submitted.code(), submitted.err());
        String id = submitted.tournamentId();
        java.util.Map<String, String> group = new java.util.HashMap<>();
        for (String engine : List.of("fake-a", "fake-b", "fake-c", "fake-d")) {
            group.put(engine, engine);
        }
        for (GameRecord record : scheduler.records(id, 0, 100).getRecordsList()) {
            var a = record.getAssignment();
            if (a.getRound() <= 2) {
                String from = group.get(a.getSente().getName());
                String to = group.get(a.getGote().getName());
                group.replaceAll((engine, g) -> g.equals(from) ? to : g);
            }
        }
        assertEquals(1, Set.copyOf(group.values()).size(), "rounds 1 and 2 connect all four engines: " + group);

        String json = ClusterProbe.get(cluster.scheduler().http() + "/api/tournaments/" + id + "/standings");
        assertTrue(!json.contains("Infinity") && !json.contains("NaN"), json);
        var league = parse(json, dev.taikai.proto.tournament.v1.Standings.newBuilder())
                .build()
                .getLeague();
        assertEquals(4, league.getRatingsCount());
        for (var rating : league.getRatingsList()) {
            assertTrue(rating.getGames() > 0, rating.toString());
            assertTrue(Double.isFinite(rating.getElo()) && Double.isFinite(rating.getError()), rating.toString());
            assertTrue(rating.getError() > 0, rating.toString());
        }
        assertEquals(4, league.getHistoryCount());
        for (var history : league.getHistoryList()) {
            assertEquals(3, history.getPointsCount(), history.toString());
            for (var point : history.getPointsList()) {
                assertTrue(
                        Double.isFinite(point.getElo()) && Double.isFinite(point.getError()) && point.getError() > 0,
                        "round " + point.getRound() + " of " + history.getEngine() + ": " + point);
            }
        }
    }

    /**
     * One league file, through the cluster and on one machine: the same rounds, the same games (ids,
     * colours, results) and the same ratings, with an engine that joins for round 2 and one that leaves
     * after it. The fake engines start every game from their seed, so a game's moves do not depend on
     * where or after which other game it is played.
     */
    @Test
    void aLeagueFileGivesTheSameRoundsGamesAndRatingsThroughTheClusterAndOnOneMachine() throws Exception {
        Path file = dir.resolve("league.yaml");
        Files.writeString(
                file,
                String.join(
                        "\n",
                        "name: file league",
                        "variant: minishogi",
                        "catalog: fakes.yaml",
                        "format: league",
                        "rounds: 3",
                        "games: 2",
                        "time-control: byoyomi 0.5",
                        "adjudication: {move-limit: 30}",
                        "output: league-local",
                        "engines:",
                        "  - fake-a",
                        "  - fake-b",
                        "  - {engine: fake-c, until-round: 2}",
                        "  - {engine: fake-d, from-round: 2}",
                        ""));
        // the cluster's records go to a folder of their own: in the file's, the local run took them for its own
        ClusterProbe.Output submitted = ClusterProbe.submit(
                cluster, file, "--out", dir.resolve("league-cluster").toString());
        assertEquals(0, submitted.code(), submitted.err());
        // the plan in rounds, as a local run says it: the games paired at creation are the first round's only
        assertTrue(submitted.err().contains("accepted by the scheduler, 3 rounds\n"), submitted.err());
        assertTrue(submitted.out().contains("Standings of file league (minishogi, league, 8 games)"), submitted.out());
        assertTrue(submitted.out().contains("finished (all 3 rounds played)"), submitted.out());
        StringWriter out = new StringWriter();
        Set<String> localGames = sameGamesThroughBoth(file, submitted, "league-local", out);
        assertTrue(out.toString().contains("League ratings after 3 rounds"), out.toString());
        JsonNode local = Tournaments.results(dir.resolve("league-local"));
        assertEquals(8, localGames.size(), localGames.toString());
        assertTrue(localGames.stream().noneMatch(g -> g.startsWith("l1-") && g.contains("fake-d")), "joins for 2");
        assertTrue(localGames.stream().noneMatch(g -> g.startsWith("l3-") && g.contains("fake-c")), "left after 2");

        var league = parse(
                        ClusterProbe.get(cluster.scheduler().http() + "/api/tournaments/" + submitted.tournamentId()
                                + "/standings"),
                        dev.taikai.proto.tournament.v1.Standings.newBuilder())
                .build()
                .getLeague();
        assertEquals(3, league.getRounds());
        assertEquals(3, local.get("league").get("rounds").asInt());
        JsonNode localRatings = local.get("league").get("ratings");
        assertEquals(league.getRatingsCount(), localRatings.size());
        for (int i = 0; i < localRatings.size(); i++) {
            var rating = league.getRatings(i);
            assertEquals(rating.getEngine(), localRatings.get(i).get("engine").asText(), "the same order");
            assertEquals(rating.getGames(), localRatings.get(i).get("games").asInt());
            if (Double.isFinite(rating.getElo())) {
                assertEquals(rating.getElo(), localRatings.get(i).get("elo").asDouble(), 0.01, rating.getEngine());
            }
        }
    }

    /**
     * Runs {@code file} on one machine (into {@code output}) after the cluster ran it as {@code submitted},
     * and checks that both played the same games (ids, colours, results); returns them.
     */
    private Set<String> sameGamesThroughBoth(Path file, ClusterProbe.Output submitted, String output, StringWriter out)
            throws Exception {
        StringWriter err = new StringWriter();
        assertEquals(0, taikai(out, err, "run", file.toString()), err.toString());
        JsonNode local = Tournaments.results(dir.resolve(output));
        Set<String> clusterGames = new TreeSet<>();
        for (GameRecord record :
                scheduler.records(submitted.tournamentId(), 0, 1000).getRecordsList()) {
            var a = record.getAssignment();
            clusterGames.add(a.getLocalId() + " " + a.getSente().getName() + "-"
                    + a.getGote().getName() + " "
                    + record.getResult()
                            .name()
                            .replace("RESULT_", "")
                            .replace("_WINS", "")
                            .toLowerCase(Locale.ROOT));
        }
        Set<String> localGames = new TreeSet<>();
        for (JsonNode game : local.get("games")) {
            localGames.add(game.get("id").asText() + " " + game.get("sente").asText() + "-"
                    + game.get("gote").asText() + " " + game.get("result").asText());
        }
        assertEquals(localGames, clusterGames, "the same games with the same results");
        return localGames;
    }

    /**
     * A Swiss and a knockout through the cluster and on one machine: the same games round by round (a
     * round's pairing follows from the results before it, so this holds only because both runners pair
     * with the one core), no Swiss pairing twice, and the knockout's bracket with its byes.
     */
    @Test
    void swissAndKnockoutFilesPlayTheSameGamesThroughTheClusterAndOnOneMachine() throws Exception {
        for (String format : List.of("swiss", "knockout")) {
            Path file = dir.resolve(format + ".yaml");
            Files.writeString(
                    file,
                    String.join(
                            "\n",
                            "name: file " + format,
                            "variant: minishogi",
                            "catalog: fakes.yaml",
                            "format: " + format,
                            format.equals("swiss") ? "rounds: 3" : "",
                            "games: 2",
                            "time-control: byoyomi 0.5",
                            "adjudication: {move-limit: 30}",
                            "output: " + format + "-local",
                            "engines: [fake-a, fake-b, fake-c, fake-d, fake-e]",
                            ""));
            ClusterProbe.Output submitted = ClusterProbe.submit(
                    cluster, file, "--out", dir.resolve(format + "-cluster").toString());
            assertEquals(0, submitted.code(), submitted.err());
            assertTrue(submitted.out().contains("finished"), submitted.out());
            StringWriter out = new StringWriter();
            Set<String> games = sameGamesThroughBoth(file, submitted, format + "-local", out);
            if (format.equals("swiss")) {
                assertEquals(12, games.size(), "3 rounds of 2 pairings of 2 games: " + games);
                Set<String> pairings = new TreeSet<>();
                for (String game : games) {
                    String[] parts = game.split(" ");
                    if (parts[0].endsWith("-g1")) {
                        String pairing = new TreeSet<>(List.of(parts[1].split("-(?=fake)"))).toString();
                        assertTrue(pairings.add(pairing), "no pairing twice: " + game);
                    }
                }
                assertTrue(out.toString().contains("Swiss table after 3 rounds"), out.toString());
            } else {
                // 5 engines in a bracket of 8: seeds 1 to 3 have byes, 4 meets 5 in round 1
                assertTrue(
                        games.stream()
                                .filter(g -> g.startsWith("r1-"))
                                .allMatch(g -> g.contains("fake-d") && g.contains("fake-e")),
                        games.toString());
                assertTrue(out.toString().contains("Knockout bracket"), out.toString());
                assertTrue(out.toString().contains("Winner: "), out.toString());
            }
        }
    }

    private static <B extends com.google.protobuf.Message.Builder> B parse(String json, B builder) throws Exception {
        com.google.protobuf.util.JsonFormat.parser().ignoringUnknownFields().merge(json, builder);
        return builder;
    }

    private static HttpResponse<String> post(String url, String token, String body) throws Exception {
        return post(url, token, "application/json", body.getBytes(StandardCharsets.UTF_8));
    }

    private static HttpResponse<String> post(String url, String token, String contentType, byte[] body)
            throws Exception {
        return ClusterProbe.http()
                .send(
                        HttpRequest.newBuilder(URI.create(url))
                                .header("Authorization", "Bearer " + token)
                                .header("Content-Type", contentType)
                                .POST(HttpRequest.BodyPublishers.ofByteArray(body))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
    }

    private static io.grpc.Status.Code code(Runnable call) {
        try {
            call.run();
            return io.grpc.Status.Code.OK;
        } catch (StatusRuntimeException e) {
            return e.getStatus().getCode();
        }
    }

    /** The HTTP status of a request with {@code token} as bearer (none when null). */
    private static int status(String method, String url, String token) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(url))
                .method(method, HttpRequest.BodyPublishers.ofString(method.equals("POST") ? "{}" : ""));
        if (token != null) {
            request.header("Authorization", "Bearer " + token);
        }
        return ClusterProbe.http()
                .send(request.build(), HttpResponse.BodyHandlers.discarding())
                .statusCode();
    }

    /** GETs {@code url} until it answers {@code wanted} or the deadline passes; the last status. */
    private static int statusOnceSettled(int wanted, String url, String token, long deadlineNanos) throws Exception {
        int last = status("GET", url, token);
        while (last != wanted && System.nanoTime() < deadlineNanos) {
            Thread.sleep(100);
            last = status("GET", url, token);
        }
        return last;
    }

    private static HttpResponse<String> delete(String url, String token) throws Exception {
        return ClusterProbe.http()
                .send(
                        HttpRequest.newBuilder(URI.create(url))
                                .header("Authorization", "Bearer " + token)
                                .DELETE()
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
    }

    /** Each game of a results.json as id, players and opening. */
    private static Set<String> gamesOf(JsonNode results) {
        Set<String> games = new TreeSet<>();
        for (JsonNode game : results.get("games")) {
            games.add(game.get("id").asText() + " " + game.get("sente").asText() + "-"
                    + game.get("gote").asText() + " " + game.get("start_sfen").asText());
        }
        return games;
    }

    private static void replay(GameRecord record) throws Exception {
        ClusterProbe.replay(record);
    }

    private static String get(String url) throws Exception {
        return ClusterProbe.get(url);
    }
}
