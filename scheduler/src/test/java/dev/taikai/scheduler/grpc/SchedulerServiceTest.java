package dev.taikai.scheduler.grpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.taikai.proto.scheduler.v1.CancelTournamentRequest;
import dev.taikai.proto.scheduler.v1.CreateTournamentRequest;
import dev.taikai.proto.scheduler.v1.GetGameRecordsRequest;
import dev.taikai.proto.scheduler.v1.GetStandingsRequest;
import dev.taikai.proto.scheduler.v1.GetTournamentRequest;
import dev.taikai.proto.scheduler.v1.ListTournamentsRequest;
import dev.taikai.proto.scheduler.v1.SchedulerGrpc;
import dev.taikai.proto.scheduler.v1.TournamentProgress;
import dev.taikai.proto.scheduler.v1.WatchTournamentRequest;
import dev.taikai.proto.tournament.v1.Format;
import dev.taikai.proto.tournament.v1.Status;
import dev.taikai.proto.tournament.v1.TournamentSpec;
import dev.taikai.proto.tournament.v1.TournamentState;
import dev.taikai.referee.game.Pairing;
import dev.taikai.rules.Result;
import dev.taikai.scheduler.registry.Refusal;
import dev.taikai.scheduler.registry.Scheduler;
import dev.taikai.scheduler.registry.TournamentRegistry;
import dev.taikai.scheduler.registry.TournamentRegistryTest;
import dev.taikai.testkit.Await;
import io.grpc.ManagedChannel;
import io.grpc.Server;
import io.grpc.StatusRuntimeException;
import io.grpc.inprocess.InProcessChannelBuilder;
import io.grpc.inprocess.InProcessServerBuilder;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The scheduler's gRPC API over the in-process transport, with the book published to a list. */
class SchedulerServiceTest {
    /** How long an in-process call or stream may take on a loaded machine: a hang, not slowness, fails. */
    private static final Duration WITHIN = Duration.ofSeconds(30);

    private final TournamentRegistry book = new TournamentRegistry(16);
    private final List<Pairing> handedOut = new CopyOnWriteArrayList<>();
    private Scheduler.Publisher publisher;
    private Server server;
    private ManagedChannel channel;
    private SchedulerGrpc.SchedulerBlockingStub stub;

    @BeforeEach
    void start() throws Exception {
        publisher = new Scheduler.Publisher() {
            @Override
            public TournamentState create(String id, TournamentSpec spec) {
                book.create(id, spec, 1);
                handedOut.addAll(book.nextPairings(id));
                return book.state(id).orElseThrow();
            }

            @Override
            public Optional<TournamentState> cancel(String id, String reason) {
                return book.cancel(id, reason, 2);
            }

            @Override
            public Optional<TournamentState> changeLeague(
                    String id, dev.taikai.proto.tournament.v1.Entrant entrant, boolean leave) {
                Optional<TournamentState> state = book.changeLeague(id, entrant, leave, 3);
                handedOut.addAll(book.nextPairings(id));
                return state;
            }

            @Override
            public boolean ready() {
                return true;
            }
        };
        Scheduler scheduler = new Scheduler(book, publisher);
        String name = InProcessServerBuilder.generateName();
        server = InProcessServerBuilder.forName(name)
                .addService(new SchedulerService(scheduler))
                .build()
                .start();
        channel = InProcessChannelBuilder.forName(name).build();
        stub = SchedulerGrpc.newBlockingStub(channel);
    }

    @AfterEach
    void stop() {
        channel.shutdownNow();
        server.shutdownNow();
    }

    @Test
    void createWatchCountAndReadStandings() throws Exception {
        TournamentSpec spec = TournamentRegistryTest.spec(Format.FORMAT_MATCH, 2, 2, 8);
        TournamentState created = stub.createTournament(
                CreateTournamentRequest.newBuilder().setSpec(spec).build());
        assertTrue(created.getTournamentId().startsWith("book-test-"), created.getTournamentId());
        String id = created.getTournamentId();
        assertEquals(4, handedOut.size());

        List<TournamentProgress> progress = new CopyOnWriteArrayList<>();
        List<Throwable> failed = new CopyOnWriteArrayList<>();
        CountDownLatch done = new CountDownLatch(1);
        SchedulerGrpc.newStub(channel)
                .watchTournament(
                        WatchTournamentRequest.newBuilder().setTournamentId(id).build(),
                        new io.grpc.stub.StreamObserver<>() {
                            @Override
                            public void onNext(TournamentProgress value) {
                                progress.add(value);
                            }

                            @Override
                            public void onError(Throwable t) {
                                failed.add(t);
                                done.countDown();
                            }

                            @Override
                            public void onCompleted() {
                                done.countDown();
                            }
                        });
        // the book sends the state at once as it registers the watcher, under the lock that counting takes
        Await.until(WITHIN, "the watch has the tournament's state", () -> !progress.isEmpty());
        for (Pairing p : handedOut) { // a caller that reads each message before the next game gets every game
            int before = progress.size();
            book.count(TournamentRegistryTest.record(p, Result.SENTE_WINS));
            Await.until(WITHIN, "the game's progress", () -> progress.size() > before || done.getCount() == 0);
        }
        assertTrue(done.await(WITHIN.toSeconds(), TimeUnit.SECONDS), "the watch ends when the tournament does");
        assertEquals(List.of(), failed, "the watch ends without an error");
        assertEquals(5, progress.size(), "the state at once, then one per counted game: " + progress);
        assertEquals(Status.STATUS_FINISHED, progress.get(4).getState().getStatus());
        assertTrue(progress.get(4).hasGame());

        assertEquals(
                4,
                stub.getStandings(GetStandingsRequest.newBuilder()
                                .setTournamentId(id)
                                .build())
                        .getGames());
        var page = stub.getGameRecords(GetGameRecordsRequest.newBuilder()
                .setTournamentId(id)
                .setOffset(1)
                .setLimit(2)
                .build());
        assertEquals(2, page.getRecordsCount());
        assertEquals(4, page.getTotal());
        assertEquals(
                1,
                stub.listTournaments(ListTournamentsRequest.getDefaultInstance())
                        .getTournamentsCount());
        assertEquals(
                Status.STATUS_FINISHED,
                stub.getTournament(GetTournamentRequest.newBuilder()
                                .setTournamentId(id)
                                .build())
                        .getStatus());
        assertEquals(
                Status.STATUS_FINISHED,
                stub.cancelTournament(CancelTournamentRequest.newBuilder()
                                .setTournamentId(id)
                                .build())
                        .getStatus(),
                "a finished tournament stays finished");
    }

    /**
     * A caller that does not read keeps no queue in the scheduler: gRPC buffered every progress for it (a
     * game record each), without bound while a league ran. It gets the latest progress when it reads again.
     */
    @Test
    void aWatcherThatDoesNotReadGetsTheLatestProgressWhenItDoes() throws Exception {
        String id = stub.createTournament(CreateTournamentRequest.newBuilder()
                        .setSpec(TournamentRegistryTest.spec(Format.FORMAT_MATCH, 2, 2, 8))
                        .build())
                .getTournamentId();
        List<TournamentProgress> progress = new CopyOnWriteArrayList<>();
        CountDownLatch done = new CountDownLatch(1);
        io.grpc.stub.ClientCallStreamObserver<?>[] call = new io.grpc.stub.ClientCallStreamObserver<?>[1];
        SchedulerGrpc.newStub(channel)
                .watchTournament(
                        WatchTournamentRequest.newBuilder().setTournamentId(id).build(),
                        new io.grpc.stub.ClientResponseObserver<WatchTournamentRequest, TournamentProgress>() {
                            @Override
                            public void beforeStart(
                                    io.grpc.stub.ClientCallStreamObserver<WatchTournamentRequest> stream) {
                                call[0] = stream;
                                stream.disableAutoRequestWithInitial(1); // reads the first, then nothing
                            }

                            @Override
                            public void onNext(TournamentProgress value) {
                                progress.add(value);
                            }

                            @Override
                            public void onError(Throwable t) {
                                done.countDown();
                            }

                            @Override
                            public void onCompleted() {
                                done.countDown();
                            }
                        });
        Await.until(WITHIN, "the state now", () -> progress.size() == 1);
        List<Pairing> games = List.copyOf(handedOut);
        for (Pairing p : games.subList(0, 3)) {
            book.count(TournamentRegistryTest.record(p, Result.SENTE_WINS));
        }
        assertEquals(1, progress.size(), "nothing is read");
        call[0].request(100);
        Await.until(WITHIN, "the latest progress", () -> progress.size() == 2);
        assertEquals(3, progress.get(1).getState().getFinishedGames(), "the latest, not three queued: " + progress);
        book.count(TournamentRegistryTest.record(games.get(3), Result.SENTE_WINS));
        assertTrue(done.await(WITHIN.toSeconds(), TimeUnit.SECONDS), "the watch ends when the tournament does");
        assertEquals(3, progress.size(), "and a reading caller gets the next at once: " + progress);
        assertEquals(Status.STATUS_FINISHED, progress.get(2).getState().getStatus());
    }

    /**
     * Each refusal has one status: a name in use ALREADY_EXISTS, a change to a stopped league
     * FAILED_PRECONDITION, a scheduler still reading Kafka UNAVAILABLE, and HTTP maps the same reasons
     * once (409, 409, 503).
     */
    @Test
    void everyRefusalHasOneStatusInEachApi() {
        TournamentState league = stub.createTournament(CreateTournamentRequest.newBuilder()
                .setSpec(TournamentRegistryTest.spec(Format.FORMAT_LEAGUE, 3, 0, 4))
                .build());
        String id = league.getTournamentId();
        var join = dev.taikai.proto.scheduler.v1.JoinLeagueRequest.newBuilder()
                .setTournamentId(id)
                .setEntrant(dev.taikai.proto.tournament.v1.Entrant.newBuilder()
                        .setName("late")
                        .setEngineId("taikai-2"))
                .build();
        stub.joinLeague(join);
        StatusRuntimeException twice = assertThrows(StatusRuntimeException.class, () -> stub.joinLeague(join));
        assertEquals(io.grpc.Status.Code.ALREADY_EXISTS, twice.getStatus().getCode());
        assertTrue(twice.getStatus().getDescription().contains("'late' is in the league already"), twice.toString());
        // a join plays from the next round until it leaves: rounds given with it were taken and ignored
        StatusRuntimeException rounds = assertThrows(
                StatusRuntimeException.class,
                () -> stub.joinLeague(join.toBuilder()
                        .setEntrant(
                                join.getEntrant().toBuilder().setName("later").setFromRound(-1))
                        .build()));
        assertEquals(io.grpc.Status.Code.INVALID_ARGUMENT, rounds.getStatus().getCode());
        assertTrue(
                rounds.getStatus().getDescription().startsWith("entrant.from_round, until_round: an engine that joins"),
                rounds.toString());

        stub.cancelTournament(
                CancelTournamentRequest.newBuilder().setTournamentId(id).build());
        StatusRuntimeException stopped = assertThrows(
                StatusRuntimeException.class,
                () -> stub.leaveLeague(dev.taikai.proto.scheduler.v1.LeaveLeagueRequest.newBuilder()
                        .setTournamentId(id)
                        .setName("e0")
                        .build()));
        assertEquals(
                io.grpc.Status.Code.FAILED_PRECONDITION, stopped.getStatus().getCode());
        assertTrue(stopped.getStatus().getDescription().contains("has stopped (cancelled)"), stopped.toString());

        Scheduler notReady = new Scheduler(book, new Scheduler.Publisher() {
            @Override
            public TournamentState create(String id, TournamentSpec spec) {
                throw new AssertionError("not ready: nothing is published");
            }

            @Override
            public Optional<TournamentState> cancel(String id, String reason) {
                return Optional.empty();
            }

            @Override
            public Optional<TournamentState> changeLeague(
                    String id, dev.taikai.proto.tournament.v1.Entrant entrant, boolean leave) {
                return Optional.empty();
            }

            @Override
            public boolean ready() {
                return false;
            }
        });
        Refusal unavailable = assertThrows(
                Refusal.class, () -> notReady.create(TournamentRegistryTest.spec(Format.FORMAT_MATCH, 2, 1, 1)));
        assertEquals(
                io.grpc.Status.Code.UNAVAILABLE,
                SchedulerService.status(unavailable).getStatus().getCode());
        assertEquals(
                List.of(400, 409, 409, 503),
                java.util.Arrays.stream(Refusal.Reason.values())
                        .map(reason -> dev.taikai.scheduler.http.TournamentResource.refused(new Refusal(reason, "x"))
                                .getStatus())
                        .toList());
    }

    @Test
    void badRequestsGetClearStatuses() {
        StatusRuntimeException e = assertThrows(
                StatusRuntimeException.class,
                () -> stub.createTournament(CreateTournamentRequest.getDefaultInstance()));
        assertEquals(io.grpc.Status.Code.INVALID_ARGUMENT, e.getStatus().getCode());
        assertEquals("spec is missing", e.getStatus().getDescription());

        TournamentSpec negative = TournamentRegistryTest.spec(Format.FORMAT_MATCH, 2, 1, 1).toBuilder()
                .setTimeControl(dev.taikai.proto.common.v1.TimeControl.newBuilder()
                        .setKind(dev.taikai.proto.common.v1.TimeControl.Kind.KIND_BYOYOMI)
                        .setByoyomiMs(-5))
                .build();
        e = assertThrows(
                StatusRuntimeException.class,
                () -> stub.createTournament(
                        CreateTournamentRequest.newBuilder().setSpec(negative).build()));
        assertEquals(io.grpc.Status.Code.INVALID_ARGUMENT, e.getStatus().getCode());
        assertTrue(
                e.getStatus().getDescription().startsWith("time_control"),
                e.getStatus().getDescription());

        e = assertThrows(
                StatusRuntimeException.class,
                () -> stub.getTournament(GetTournamentRequest.newBuilder()
                        .setTournamentId("nope")
                        .build()));
        assertEquals(io.grpc.Status.Code.NOT_FOUND, e.getStatus().getCode());
        e = assertThrows(
                StatusRuntimeException.class,
                () -> stub.getGameRecords(GetGameRecordsRequest.newBuilder()
                        .setTournamentId("x")
                        .setLimit(5000)
                        .build()));
        assertEquals(io.grpc.Status.Code.INVALID_ARGUMENT, e.getStatus().getCode());
        e = assertThrows(
                StatusRuntimeException.class,
                () -> stub.cancelTournament(CancelTournamentRequest.newBuilder()
                        .setTournamentId("nope")
                        .build()));
        assertEquals(io.grpc.Status.Code.NOT_FOUND, e.getStatus().getCode());

        // a reason is published, kept and printed on terminals: HTTP refused control characters, gRPC took them
        String id = stub.createTournament(CreateTournamentRequest.newBuilder()
                        .setSpec(TournamentRegistryTest.spec(Format.FORMAT_MATCH, 2, 1, 1))
                        .build())
                .getTournamentId();
        e = assertThrows(
                StatusRuntimeException.class,
                () -> stub.cancelTournament(CancelTournamentRequest.newBuilder()
                        .setTournamentId(id)
                        .setReason("line1\nFAKE LOG LINE \u001b[31mred\u0000")
                        .build()));
        assertEquals(io.grpc.Status.Code.INVALID_ARGUMENT, e.getStatus().getCode());
        assertTrue(
                e.getStatus().getDescription().startsWith("reason holds a control character (U+000A at 5)"),
                e.getStatus().getDescription());
        assertEquals(
                Status.STATUS_RUNNING,
                stub.getTournament(GetTournamentRequest.newBuilder()
                                .setTournamentId(id)
                                .build())
                        .getStatus(),
                "not cancelled");
    }

    @Test
    void absurdSpecsAreRefusedNamingTheField() {
        TournamentSpec valid = TournamentRegistryTest.spec(Format.FORMAT_ROUND_ROBIN, 3, 1, 2);
        assertRefused(valid.toBuilder().setRounds(1_000_000_000).build(), "at most 100000");
        assertRefused(
                TournamentRegistryTest.spec(Format.FORMAT_MATCH, 2, 10, 2).toBuilder()
                        .setGamesPerPairing(1)
                        .setSprt(dev.taikai.proto.tournament.v1.Sprt.newBuilder()
                                .setElo0(0)
                                .setElo1(10)
                                .setAlpha(0.05)
                                .setBeta(0.05))
                        .build(),
                "SPRT counts game pairs");
        // what the format or time control has no use for would be taken and ignored: refused, as in a file
        assertRefused(valid.toBuilder().setSeeds(5).build(), "seeds: a gauntlet's number of seeds");
        assertRefused(
                valid.toBuilder()
                        .setLeague(dev.taikai.proto.tournament.v1.LeagueSettings.newBuilder()
                                .setHalfLifeRounds(-3))
                        .build(),
                "league: tunes a league's pairing and ratings; this tournament's format is FORMAT_ROUND_ROBIN");
        assertRefused(
                valid.toBuilder()
                        .setTimeControl(dev.taikai.proto.common.v1.TimeControl.newBuilder()
                                .setKind(dev.taikai.proto.common.v1.TimeControl.Kind.KIND_MOVETIME)
                                .setMovetimeMs(100)
                                .setIncrementMs(5000))
                        .build(),
                "time_control.increment_ms: a time control of kind KIND_MOVETIME has none");
        assertRefused(
                valid.toBuilder()
                        .setEntrants(0, valid.getEntrants(0).toBuilder().setFromRound(2))
                        .build(),
                "entrants[0].from_round, until_round: only a league's engines play from or until a round");
        TournamentSpec league =
                valid.toBuilder().setFormat(Format.FORMAT_LEAGUE).build();
        assertRefused(
                league.toBuilder()
                        .setEntrants(0, valid.getEntrants(0).toBuilder().setFromRound(-1))
                        .build(),
                "entrants[0].from_round, until_round: rounds count from 1, not -1 to 0");
        assertRefused(valid.toBuilder().setName("x".repeat(1_000_000)).build(), "name is 1000000 characters long");
        assertRefused(valid.toBuilder().setName("a\ud800b").build(), "name holds a lone surrogate");
        assertRefused(
                valid.toBuilder()
                        .setEntrants(
                                0,
                                valid.getEntrants(0).toBuilder()
                                        .putOptions("Debug Log File", "/tmp/x\nsetoption name Skill Level value 0"))
                        .build(),
                "entrants[0].options['Debug Log File'] holds a control character");
        assertRefused(
                valid.toBuilder()
                        .setEntrants(0, valid.getEntrants(0).toBuilder().putOptions("Debug Log File", "/tmp/x"))
                        .build(),
                "entrants[0].options: option 'Debug Log File' names a file");
        assertRefused(
                valid.toBuilder()
                        .setEntrants(0, valid.getEntrants(0).toBuilder().putOptions("Hash", "x".repeat(300)))
                        .build(),
                "entrants[0].options['Hash'] is 300 characters long; at most 256");
        assertRefused(
                valid.toBuilder()
                        .setEntrants(0, valid.getEntrants(0).toBuilder().setEngineId("/bin/sh -c 'rm -rf ~'"))
                        .build(),
                "entrants[0].engine_id");
        assertRefused(valid.toBuilder().setConcurrency(-1).build(), "concurrency");
        assertRefused(valid.toBuilder().addOpenings("not a position").build(), "openings[0]");
    }

    private void assertRefused(TournamentSpec spec, String says) {
        StatusRuntimeException e = assertThrows(
                StatusRuntimeException.class,
                () -> stub.createTournament(
                        CreateTournamentRequest.newBuilder().setSpec(spec).build()));
        assertEquals(
                io.grpc.Status.Code.INVALID_ARGUMENT,
                e.getStatus().getCode(),
                e.getStatus().toString());
        assertTrue(e.getStatus().getDescription().contains(says), e.getStatus().getDescription());
        assertTrue(e.getStatus().getDescription().length() < 500, "a message, not an echo of the input");
    }

    /**
     * Random specs, mutated from a valid one field by field (through the protobuf descriptors) and byte by
     * byte: every answer is OK or INVALID_ARGUMENT with a message; nothing else escapes, and nothing hangs
     * (each call has a deadline, generous for a loaded machine).
     */
    @Test
    void fuzzedSpecsGetAnAnswerAndNeverAnInternalError() {
        java.util.Random random = new java.util.Random(20261130);
        TournamentSpec valid = TournamentRegistryTest.spec(Format.FORMAT_ROUND_ROBIN, 3, 1, 2);
        int accepted = 0;
        int refused = 0;
        for (int i = 0; i < 3000; i++) {
            TournamentSpec spec =
                    i % 3 == 0 ? bytesMutated(valid, random) : dev.taikai.testkit.ProtoFuzz.mutate(valid, random);
            if (spec == null) {
                continue; // the flipped bytes are not a message at all: the transport refuses those itself
            }
            try {
                stub.withDeadlineAfter(WITHIN.toSeconds(), TimeUnit.SECONDS)
                        .createTournament(CreateTournamentRequest.newBuilder()
                                .setSpec(spec)
                                .build());
                accepted++;
            } catch (StatusRuntimeException e) {
                assertEquals(
                        io.grpc.Status.Code.INVALID_ARGUMENT,
                        e.getStatus().getCode(),
                        "spec " + spec + " got " + e.getStatus());
                assertTrue(e.getStatus().getDescription() != null
                        && !e.getStatus().getDescription().isBlank());
                refused++;
            }
        }
        assertTrue(accepted > 100 && refused > 100, "both kinds were tried: " + accepted + " / " + refused);
    }

    private static TournamentSpec bytesMutated(TournamentSpec valid, java.util.Random random) {
        byte[] bytes = valid.toByteArray();
        for (int flips = 1 + random.nextInt(4); flips > 0; flips--) {
            bytes[random.nextInt(bytes.length)] = (byte) random.nextInt(256);
        }
        try {
            return TournamentSpec.parseFrom(bytes);
        } catch (com.google.protobuf.InvalidProtocolBufferException e) {
            return null;
        }
    }

    @Test
    void aSchedulerThatKnowsTheCatalogRefusesEnginesOutsideIt() {
        Scheduler knowing = new Scheduler(
                book,
                publisher,
                dev.taikai.enginehost.catalog.Catalog.of(java.util.List.of(
                        dev.taikai.enginehost.catalog.EngineSpec.of("taikai-1", java.util.List.of("taikai")),
                        dev.taikai.enginehost.catalog.EngineSpec.of("fairy-stockfish", java.util.List.of("fsf")))));
        TournamentSpec spec = TournamentRegistryTest.spec(Format.FORMAT_ROUND_ROBIN, 3, 1, 2);
        TournamentSpec unknown = spec.toBuilder()
                .setEntrants(2, spec.getEntrants(2).toBuilder().setEngineId("stockfish-17"))
                .build();
        Refusal e = assertThrows(Refusal.class, () -> knowing.create(unknown));
        assertEquals(Refusal.Reason.INVALID, e.reason());
        assertEquals(
                "entrants[2].engine_id 'stockfish-17' is not in the workers' catalog (fairy-stockfish, taikai-1)",
                e.getMessage());
        assertEquals(Status.STATUS_RUNNING, knowing.create(spec).getStatus());
    }
}
