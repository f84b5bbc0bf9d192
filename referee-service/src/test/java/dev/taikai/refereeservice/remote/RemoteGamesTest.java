package dev.taikai.refereeservice.remote;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.taikai.proto.common.v1.GameRecord;
import dev.taikai.proto.common.v1.MoveRecord;
import dev.taikai.proto.common.v1.Termination;
import dev.taikai.referee.game.Adjudication;
import dev.taikai.referee.game.GameAssignment;
import dev.taikai.referee.game.GameObserver;
import dev.taikai.referee.game.Opening;
import dev.taikai.referee.game.Pairing;
import dev.taikai.referee.game.TimeControl;
import dev.taikai.referee.messages.GameMessages;
import dev.taikai.rules.Game;
import dev.taikai.rules.Position;
import dev.taikai.rules.Variant;
import dev.taikai.testkit.Await;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Whole games through the referee's remote sessions and a real worker service. */
class RemoteGamesTest {
    /** How long a game, or the cleanup after one, may take on a loaded machine. */
    private static final Duration WITHIN = Duration.ofSeconds(60);

    /**
     * How far past its time an engine may answer before it loses on time: these games are not about time
     * forfeits, and a loaded machine must not decide them.
     */
    private static final long OVERRUN_MARGIN_MILLIS = 2_000;

    private InProcessWorker worker;
    private WorkerPool workers;
    private SessionPool sessions;

    @BeforeEach
    void start() throws Exception {
        worker = new InProcessWorker("w1", 4);
        workers = worker.pool();
        sessions = new SessionPool(workers, 60_000, 1_000);
    }

    @AfterEach
    void stop() {
        sessions.close();
        workers.close();
        worker.close();
    }

    private static Pairing pairing(String sente, String gote, TimeControl tc) {
        return pairing(sente, gote, tc, 40);
    }

    /** A game of {@code sente} against {@code gote} adjudicated a draw after {@code moveLimit} plies. */
    private static Pairing pairing(String sente, String gote, TimeControl tc, int moveLimit) {
        GameAssignment game = new GameAssignment(
                "r1-p1-g1",
                1,
                1,
                1,
                Variant.MINISHOGI,
                "alice",
                "bob",
                Opening.start(Position.start(Variant.MINISHOGI)),
                tc,
                tc,
                OVERRUN_MARGIN_MILLIS,
                OVERRUN_MARGIN_MILLIS,
                Adjudication.DEFAULT.withMoveLimit(moveLimit));
        return new Pairing("t-1", game, new Pairing.Engine(sente, Map.of()), new Pairing.Engine(gote, Map.of()), 0);
    }

    @Test
    void aGameIsPlayedOnTheWorkerAndRecordsBothClocksOfEveryMove() throws Exception {
        RemoteGames games = new RemoteGames(sessions, 25, "ref-1");
        GameRecord record = games.play(pairing("fake", "fake", TimeControl.byoyomi(0, 500)), GameObserver.NONE);

        assertEquals("t-1/r1-p1-g1", record.getAssignment().getGameId());
        assertEquals("ref-1", record.getRefereeId());
        assertEquals("w1", record.getSenteWorker());
        assertEquals("w1", record.getGoteWorker());
        assertFalse(record.getMovesList().isEmpty());
        for (MoveRecord move : record.getMovesList()) {
            assertTrue(move.getEngineNs() > 0, "the worker's pipe time");
            assertTrue(move.getRefereeNs() >= move.getChargedNs(), "charged at most the referee's measurement");
            assertTrue(
                    move.getChargedNs() >= Math.max(move.getEngineNs(), move.getRefereeNs() - 25_000_000)
                            || move.getChargedNs() == move.getRefereeNs(),
                    "charged the pipe time, bounded below by the referee's time minus the allowance: " + move);
        }
        Game replay = new Game(Position.start(Variant.MINISHOGI));
        for (MoveRecord move : record.getMovesList()) {
            replay.play(move.getMove());
        }
        var read = GameMessages.record(record);
        assertEquals(record.getMovesCount(), read.record().plies(), "the record reads back");

        assertEquals(2, sessions.idleCount(), "both sessions wait for the next game");
        assertEquals(2, worker.host.parkedSessions(), "the worker counts their slots as free");
        GameRecord again = games.play(pairing("fake", "fake", TimeControl.byoyomi(0, 500)), GameObserver.NONE);
        assertFalse(again.getMovesList().isEmpty());
        assertEquals(2, worker.host.activeSessions(), "the second game reused the engines");
        sessions.closeAllIdle();
        awaitNoEngine();
    }

    /**
     * Two referees of two games at once each, on one worker of two slots: each game waits for both its
     * slots (idle sessions of the other referee give theirs up) and none is abandoned. Before the pool
     * gathered both sessions of a game together, two games took one slot each and waited for the other
     * until both were abandoned.
     */
    @Test
    void gamesThatNeedMoreSlotsThanTheWorkerHasWaitForThemAndAreNeverAbandoned() throws Exception {
        try (InProcessWorker small = new InProcessWorker("w2", 2);
                WorkerPool smallWorkers = small.pool();
                SessionPool one = new SessionPool(smallWorkers, 60_000, 1_000);
                SessionPool two = new SessionPool(smallWorkers, 60_000, 1_000)) {
            List<CompletableFuture<GameRecord>> played = new java.util.ArrayList<>();
            for (SessionPool referee : List.of(one, two)) {
                RemoteGames games = new RemoteGames(referee, 25, "ref");
                for (int game = 0; game < 2; game++) {
                    played.add(CompletableFuture.supplyAsync(
                            () -> games.play(pairing("fake", "fake", TimeControl.byoyomi(0, 100)), GameObserver.NONE)));
                }
            }
            for (CompletableFuture<GameRecord> game : played) {
                GameRecord record = game.get(WITHIN.toSeconds(), TimeUnit.SECONDS);
                assertFalse(record.getMovesList().isEmpty(), "a game was played");
            }
            assertTrue(small.host.activeSessions() <= 2);
        }
    }

    /**
     * A game whose engines have no idle session gathers new ones without waiting for another game still
     * readying its own: gathered one game at a time, a referee started 3.5 games a second on a busy
     * machine, and 1,000 games at once were never in play.
     */
    @Test
    void gamesOfNewSessionsGatherThemAtOnce() throws Exception {
        Pairing.Engine fake = new Pairing.Engine("fake", Map.of());
        java.util.concurrent.CountDownLatch firstMayEnd = new java.util.concurrent.CountDownLatch(1);
        java.util.concurrent.CountDownLatch firstHasBoth = new java.util.concurrent.CountDownLatch(1);
        CompletableFuture<Void> first = CompletableFuture.runAsync(() ->
                sessions.borrowBoth("g1", fake, fake, Variant.MINISHOGI, false, both -> {
                    firstHasBoth.countDown();
                    try {
                        firstMayEnd.await(WITHIN.toSeconds(), TimeUnit.SECONDS);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                    both.sente().session().close();
                    both.gote().session().close();
                    return null;
                }));
        try {
            assertTrue(firstHasBoth.await(WITHIN.toSeconds(), TimeUnit.SECONDS), "the first game has its sessions");
            CompletableFuture<String> second = CompletableFuture.supplyAsync(
                    () -> sessions.borrowBoth("g2", fake, fake, Variant.MINISHOGI, false, both -> {
                        both.sente().session().close();
                        both.gote().session().close();
                        return "gathered";
                    }));
            assertEquals("gathered", second.get(WITHIN.toSeconds(), TimeUnit.SECONDS), "while the first still readies");
        } finally {
            firstMayEnd.countDown();
            first.get(WITHIN.toSeconds(), TimeUnit.SECONDS);
        }
        awaitNoEngine();
    }

    /**
     * Workers with one slot in all can never host a game: the waiting game says so in a warning, and gives
     * up (unrecorded, to be played again) only when the referee shuts down.
     */
    @Test
    void aGameOnWorkersWithTooFewSlotsWarnsAndWaitsUntilTheRefereeStops() throws Exception {
        List<String> warnings = new java.util.concurrent.CopyOnWriteArrayList<>();
        java.util.logging.Handler handler = new java.util.logging.Handler() {
            @Override
            public void publish(java.util.logging.LogRecord record) {
                if (record.getLevel() == java.util.logging.Level.WARNING) {
                    warnings.add(record.getMessage());
                }
            }

            @Override
            public void flush() {}

            @Override
            public void close() {}
        };
        java.util.logging.Logger log = java.util.logging.Logger.getLogger(SessionPool.class.getName());
        log.addHandler(handler);
        try (InProcessWorker tiny = new InProcessWorker("w3", 1);
                WorkerPool tinyWorkers = tiny.pool();
                SessionPool pool = new SessionPool(tinyWorkers, 60_000, 1_000)) {
            RemoteGames games = new RemoteGames(pool, 25, "ref");
            CompletableFuture<GameRecord> game = CompletableFuture.supplyAsync(
                    () -> games.play(pairing("fake", "fake", TimeControl.byoyomi(0, 100)), GameObserver.NONE));
            Await.until(
                    WITHIN,
                    "a warning that no game can start",
                    () -> warnings.stream()
                            .anyMatch(w -> w.contains("have 1 engine slot(s) in all and a game needs two")),
                    warnings::toString);
            assertFalse(game.isDone(), "the game waits rather than giving up");
            pool.close();
            var ended =
                    assertThrows(java.util.concurrent.ExecutionException.class, () -> game.get(60, TimeUnit.SECONDS));
            assertTrue(ended.getCause() instanceof WorkerLost, ended.toString());
            assertTrue(
                    ended.getCause().getMessage().contains("shutting down"),
                    ended.getCause().getMessage());
        } finally {
            log.removeHandler(handler);
        }
    }

    @Test
    void aLoggedGameBringsBackEveryLineOfBothEnginesFromTheWorker() throws Exception {
        RemoteGames games = new RemoteGames(sessions, 25, "ref-1");
        // what the log holds does not depend on the time control or the game's length: short games suffice
        Pairing plain = pairing("fake", "fake", TimeControl.byoyomi(0, 100), 10);
        Pairing logged = new Pairing(plain.tournamentId(), plain.game(), plain.sente(), plain.gote(), 0, true);
        RemoteGames.Played played = games.playLogged(logged, GameObserver.NONE);
        List<String> lines = gunzipped(played.logGzip());
        int plies = played.record().getMovesCount();
        assertEquals(
                plies,
                lines.stream().filter(l -> l.matches(".* (alice|bob) > go .*")).count(),
                "a go a move");
        assertEquals(
                plies,
                lines.stream()
                        .filter(l -> l.matches(".* (alice|bob) < bestmove .*"))
                        .count());
        assertTrue(lines.stream().anyMatch(l -> l.endsWith(" alice > usi")), "a new session's start: " + lines);
        assertTrue(lines.stream().anyMatch(l -> l.endsWith(" bob < usiok")), lines.toString());
        assertTrue(lines.stream().anyMatch(l -> l.contains(" alice > gameover ")), lines.toString());

        RemoteGames.Played again = games.playLogged(logged, GameObserver.NONE);
        List<String> second = gunzipped(again.logGzip());
        assertTrue(second.stream().anyMatch(l -> l.endsWith(" alice > usinewgame")), second.toString());
        assertTrue(second.stream().noneMatch(l -> l.endsWith(" > usi")), "the kept sessions' start was logged once");
        assertNull(games.playLogged(plain, GameObserver.NONE).logGzip(), "no log asked for, none kept");
    }

    @Test
    void aCrashedEnginesStandardErrorIsKeptWithoutAskingForALog() throws Exception {
        RemoteGames games = new RemoteGames(sessions, 25, "ref-1");
        RemoteGames.Played played =
                games.playLogged(pairing("fake", "crash", TimeControl.byoyomi(0, 500)), GameObserver.NONE);
        List<String> lines = gunzipped(played.logGzip());
        assertTrue(
                lines.stream().anyMatch(l -> l.endsWith(" bob ! stderr: fake engine: crashing on go as asked")),
                lines.toString());
        assertTrue(lines.stream().noneMatch(l -> l.contains(" alice ")), "only the failed engine: " + lines);
        sessions.closeAllIdle();
        awaitNoEngine();
    }

    private static List<String> gunzipped(byte[] gzip) throws java.io.IOException {
        assertNotNull(gzip, "a log");
        try (var in = new java.util.zip.GZIPInputStream(new java.io.ByteArrayInputStream(gzip))) {
            return List.of(new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8).split("\n"));
        }
    }

    @Test
    void anEngineThatCrashesLosesAsOnOneMachine() throws Exception {
        RemoteGames games = new RemoteGames(sessions, 25, "ref-1");
        GameRecord record = games.play(pairing("fake", "crash", TimeControl.byoyomi(0, 500)), GameObserver.NONE);
        assertEquals(Termination.TERMINATION_DISCONNECT, record.getTermination());
        assertEquals(dev.taikai.proto.common.v1.Result.RESULT_SENTE_WINS, record.getResult());
        assertTrue(record.getDetail().startsWith("gote (bob)"), record.getDetail());
        sessions.closeAllIdle();
        awaitNoEngine();
    }

    /**
     * An engine that no worker has fails to start, as a program that is not there does on one machine: it
     * was a lost worker, and the referee played the game again and again, holding one of its game slots for
     * good (two such pairings stopped every other tournament).
     */
    @Test
    void anEngineThatNoWorkerHasFailsToStartAsOnOneMachine() throws Exception {
        RemoteGames games = new RemoteGames(sessions, 25, "ref-1");
        GameRecord record = games.play(pairing("fake", "nobody", TimeControl.byoyomi(0, 500)), GameObserver.NONE);
        assertEquals(Termination.TERMINATION_DISCONNECT, record.getTermination());
        assertEquals(dev.taikai.proto.common.v1.Result.RESULT_SENTE_WINS, record.getResult());
        assertTrue(
                record.getDetail()
                        .startsWith("gote (bob) before the first move: start failed: no worker can start nobody"
                                + " (127.0.0.1:1: no engine 'nobody' in the catalog of worker w1 (it has fake, crash,"
                                + " slow))"),
                record.getDetail());
        sessions.closeAllIdle();
        awaitNoEngine();
    }

    @Test
    void aWorkerThatVanishesMidGameAbandonsTheGame() throws Exception {
        RemoteGames games = new RemoteGames(sessions, 25, "ref-1");
        CountDownLatch started = new CountDownLatch(1);
        GameObserver startWatch = new GameObserver() {
            @Override
            public void started(GameAssignment assignment, String startSfen) {
                started.countDown();
            }
        };
        // the slow engines think 3 s a move, so the game is still in play when the worker goes
        CompletableFuture<GameRecord> game = CompletableFuture.supplyAsync(
                () -> games.play(pairing("slow", "slow", TimeControl.byoyomi(0, 10_000)), startWatch));
        assertTrue(started.await(WITHIN.toSeconds(), TimeUnit.SECONDS), "the game started");
        assertFalse(game.isDone(), "the game is in play");
        worker.server.shutdownNow();
        var failure = assertThrows(
                java.util.concurrent.ExecutionException.class, () -> game.get(WITHIN.toSeconds(), TimeUnit.SECONDS));
        assertTrue(failure.getCause() instanceof WorkerLost, failure.getCause().toString());
        awaitNoEngine();
    }

    @Test
    void aWorkerThatBeginsToDrainAsTheGameIsReadiedCostsTheGameNothing() throws Exception {
        try (InProcessWorker other = new InProcessWorker("w2", 4);
                WorkerPool both = new WorkerPool(
                        List.of("127.0.0.1:1", "127.0.0.1:2"),
                        address -> address.endsWith(":1") ? worker.channel() : other.channel());
                SessionPool pool = new SessionPool(both, 60_000, 1_000)) {
            RemoteGames games = new RemoteGames(pool, 25, "ref-1");
            worker.drainOnNextNewGame();
            GameRecord record = games.play(pairing("fake", "fake", TimeControl.byoyomi(0, 500)), GameObserver.NONE);

            assertTrue(worker.host.draining(), "w1 began to drain during the game's first new_game");
            assertFalse(record.getMovesList().isEmpty(), "the game was played");
            assertEquals("w2", record.getSenteWorker());
            assertEquals("w2", record.getGoteWorker());
            awaitNoEngine();
        }
    }

    /** Every engine of the test's worker has quit and given its slot back. */
    private void awaitNoEngine() {
        Await.until(
                WITHIN, "no engine session left", () -> worker.host.activeSessions() == 0, worker.host::activeSessions);
    }
}
