package dev.taikai.enginehost.usi;

import static dev.taikai.enginehost.usi.Sessions.QUICK;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.taikai.enginehost.catalog.EngineSpec;
import dev.taikai.enginehost.catalog.ProcessLimits;
import dev.taikai.enginehost.catalog.Quirk;
import dev.taikai.enginehost.session.BestMove;
import dev.taikai.enginehost.session.EngineFailure;
import dev.taikai.enginehost.session.EngineIdentity;
import dev.taikai.enginehost.session.GameEnd;
import dev.taikai.enginehost.session.LocalEngine;
import dev.taikai.enginehost.session.PositionCommand;
import dev.taikai.enginehost.session.ProcessTable;
import dev.taikai.enginehost.session.SearchLimits;
import dev.taikai.rules.IllegalMoveException;
import dev.taikai.rules.Position;
import dev.taikai.rules.Usi;
import dev.taikai.rules.Variant;
import dev.taikai.testkit.Await;
import dev.taikai.testkit.FakeEngines;
import dev.taikai.testkit.Leaks;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The driver against the fake engines of the testkit: real processes, real pipes, one switch each.
 * Every test ends by checking that no process of the engine is left.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
@ExtendWith(Sessions.CloseLeftovers.class)
class FakeEngineSessionTest {
    private static final long MILLI = 1_000_000;
    private static final PositionCommand MINI_START = PositionCommand.of(Variant.MINISHOGI.startSfen());

    @Test
    void aWellBehavedEngineGoesThroughEveryGoForm() throws Exception {
        UsiEngine engine = Sessions.startFake("--ponder");
        EngineIdentity identity = engine.identity();
        assertEquals("Taikai fake engine", identity.name());
        assertEquals("UCI_Variant", identity.variantOption());
        assertTrue(identity.option("Skill Level").isPresent());
        assertEquals("", identity.option("Debug Log File").orElseThrow().defaultValue());
        assertTrue(identity.handshakeNanos() > 0);
        assertTrue(engine.newGame().isEmpty());

        for (SearchLimits limits : List.of(
                SearchLimits.byoyomi(1000, 1000, 100),
                SearchLimits.fischer(1000, 1000, 10, 10),
                SearchLimits.movetime(50),
                SearchLimits.nodes(1),
                SearchLimits.depth(1))) {
            BestMove best = assertInstanceOf(BestMove.class, engine.go(MINI_START, limits), limits.toString());
            assertLegal(best.move(), Position.start(Variant.MINISHOGI));
            assertTrue(best.engineNanos() > 0);
            assertNotNull(best.info());
            assertEquals(1, best.info().depth());
            assertEquals(List.of(best.move()), best.info().pv());
        }

        assertTrue(engine.startSearch(MINI_START, SearchLimits.infinite()).isEmpty());
        assertTrue(engine.isReady().isEmpty(), "isready during a search");
        assertTrue(engine.isSearching());
        assertLegal(assertInstanceOf(BestMove.class, engine.stop()).move(), Position.start(Variant.MINISHOGI));

        assertTrue(engine.startSearch(MINI_START, SearchLimits.movetime(40).pondering())
                .isEmpty());
        assertTrue(engine.ponderHit().isEmpty());
        BestMove afterHit = assertInstanceOf(BestMove.class, engine.awaitBestMove());
        assertTrue(afterHit.engineNanos() >= 15_000_000, "time counts from ponderhit: " + afterHit.engineNanos());

        assertTrue(engine.startSearch(MINI_START, SearchLimits.movetime(40).pondering())
                .isEmpty());
        assertInstanceOf(BestMove.class, engine.stop(), "ponder miss: stop and discard");

        assertTrue(engine.gameOver(GameEnd.DRAW).isEmpty());
        assertTrue(engine.failure().isEmpty());
        long pid = engine.pid();
        engine.close();
        assertEquals("exited with code 0", engine.exitDescription());
        Sessions.assertNoProcessesLeft(pid);
    }

    /**
     * The engine's time runs from the {@code go} written to the {@code bestmove} read, both stamped at the
     * pipe: never less than the engine's own report of its thinking, never more than the caller waited, and
     * not lengthened by a caller that comes back late for the answer (the housekeeper reads and stamps it).
     * No upper bound depends on how busy the machine is.
     */
    @Test
    void theEnginesThinkingTimeIsMeasuredAtThePipe() {
        UsiEngine engine = Sessions.startFake("--think-ms", "100");
        for (int i = 0; i < 3; i++) {
            long called = System.nanoTime();
            BestMove best = assertInstanceOf(BestMove.class, engine.go(MINI_START, SearchLimits.movetime(1000)));
            long waited = System.nanoTime() - called;
            assertTrue(best.engineNanos() >= 100_000_000L, "measured " + best.engineNanos() + " ns for a 100 ms think");
            assertTrue(
                    best.engineNanos() >= (best.info().timeMillis() - 1) * 1_000_000L,
                    "the pipe stamps enclose the engine's own " + best.info().timeMillis() + " ms");
            assertTrue(best.engineNanos() <= waited, "measured within the call");
        }

        SearchLimits generous = SearchLimits.movetime(10_000);
        assertTrue(engine.startSearch(MINI_START, generous).isEmpty());
        long started = System.nanoTime();
        Await.until(
                Duration.ofSeconds(30),
                "the caller away for 1.5 s",
                () -> System.nanoTime() - started > 1_500_000_000L);
        BestMove late = assertInstanceOf(BestMove.class, engine.awaitBestMove());
        assertTrue(
                late.engineNanos() < 1_500_000_000L,
                "read and stamped while the caller was away: " + late.engineNanos() / 1_000_000 + " ms");
        Sessions.closeAndAssertGone(engine);
    }

    /**
     * A move's time runs until the caller reads {@code bestmove}. When the caller's own thread waits for a
     * CPU as the answer comes, that wait is the manager's and counts as the move's CPU wait, though the engine
     * (which sleeps through its think) wanted no CPU. The caller is pinned to CPU 0, and while it waits for
     * the answer a real-time busy loop starts there, which Linux lets ordinary threads on that CPU interrupt
     * only after most of a second; the engine runs on the other CPU.
     */
    @Test
    void theCallersOwnWaitForACpuIsTheMovesCpuWaitNotTheEngines() throws Exception {
        UsiEngine engine = Sessions.startFake("--think-ms", "300");
        assertTrue(engine.newGame().isEmpty());
        List<BestMove> timed = new ArrayList<>();
        for (int move = 0; move < 3; move++) {
            CountDownLatch searching = new CountDownLatch(1);
            CompletableFuture<BestMove> answer = new CompletableFuture<>();
            Thread caller = new Thread(() -> {
                try {
                    pinThisThreadToCpu0();
                    assertTrue(engine.startSearch(MINI_START, SearchLimits.movetime(5_000))
                            .isEmpty());
                    searching.countDown();
                    answer.complete((BestMove) engine.awaitBestMove());
                } catch (Throwable e) {
                    answer.completeExceptionally(e);
                }
            });
            caller.start();
            searching.await();
            Process hog = startRealTimeHogOnCpu0();
            try {
                timed.add(answer.get());
            } finally {
                hog.destroy(); // timeout passes the TERM on to the busy loop
                hog.waitFor();
            }
        }
        long slowest = 0;
        for (BestMove best : timed) {
            slowest = Math.max(slowest, best.engineNanos());
            assertTrue(
                    best.engineNanos() - best.cpuWaitNanos() < 550 * MILLI,
                    "a move of " + best.engineNanos() / MILLI + " ms for a 300 ms think, of which the caller's wait "
                            + best.cpuWaitNanos() / MILLI + " ms");
        }
        assertTrue(slowest > 600 * MILLI, "the busy loop held the caller up: " + slowest / MILLI + " ms");
        System.out.printf(
                "caller's wait: moves of %s ms for a 300 ms think, of which the caller waited %s ms%n",
                timed.stream().map(b -> String.valueOf(b.engineNanos() / MILLI)).toList(),
                timed.stream()
                        .map(b -> String.valueOf(b.cpuWaitNanos() / MILLI))
                        .toList());
        BestMove untimed = (BestMove) engine.go(MINI_START, SearchLimits.nodes(1));
        assertEquals(0, untimed.cpuWaitNanos(), "a search that sets no time reads no waits");
        Sessions.closeAndAssertGone(engine);
    }

    /** Pins the calling thread (not its process) to CPU 0. */
    private static void pinThisThreadToCpu0() throws Exception {
        String thread = Files.readSymbolicLink(Path.of("/proc/thread-self"))
                .getFileName()
                .toString();
        Process taskset = new ProcessBuilder("taskset", "-p", "-c", "0", thread)
                .redirectErrorStream(true)
                .start();
        String said = new String(taskset.getInputStream().readAllBytes());
        assertEquals(0, taskset.waitFor(), said);
    }

    /**
     * A SCHED_FIFO busy loop on CPU 0; {@code timeout}, an ordinary process on any CPU, ends it when
     * terminated, and after 20 s whatever happens to this test.
     */
    private static Process startRealTimeHogOnCpu0() throws Exception {
        return new ProcessBuilder(
                        "timeout",
                        "-s",
                        "KILL",
                        "20",
                        "chrt",
                        "-f",
                        "1",
                        "taskset",
                        "-c",
                        "0",
                        "sh",
                        "-c",
                        "while :; do :; done")
                .redirectErrorStream(true)
                .start();
    }

    @Test
    void limitsApplyToTheEngineProcess() throws Exception {
        UsiEngine engine = Sessions.start(
                Sessions.fake().withLimits(new ProcessLimits(1024, 4096, 4096, 10)), Variant.MINISHOGI, QUICK);
        String limits = java.nio.file.Files.readString(java.nio.file.Path.of("/proc/" + engine.pid() + "/limits"));
        assertTrue(limits.matches("(?s).*Max address space\\s+1073741824\\s+1073741824.*"), limits);
        assertTrue(limits.matches("(?s).*Max processes\\s+4096\\s+4096.*"), limits);
        assertTrue(limits.matches("(?s).*Max core file size\\s+0\\s+0.*"), limits);
        assertEquals(engine.pid(), ProcessTable.processGroup(engine.pid()), "the engine leads its own process group");
        Sessions.closeAndAssertGone(engine);
    }

    /** 20 MB written while nobody waits: the housekeeper must read it, or the engine blocks on a full pipe. */
    @Test
    void outputWrittenWhileNobodyWaitsIsDrained() {
        UsiEngine engine = Sessions.startFake("--flood-on-newgame", "20");
        assertTrue(engine.newGame().isEmpty());
        // a pipe holds 64 KiB, about 1,100 of these lines; the flood is about 350,000
        Await.until(
                Duration.ofSeconds(60), "the flood read with nobody waiting", () -> engine.infoLinesRead() > 300_000);
        assertInstanceOf(BestMove.class, engine.go(MINI_START, SearchLimits.nodes(1)));
        Sessions.closeAndAssertGone(engine);
    }

    @Test
    void kyotoMovesComeInFairyStockfishNotation() {
        UsiEngine engine = Sessions.start(Sessions.fake(), Variant.KYOTOSHOGI, QUICK);
        BestMove best = assertInstanceOf(
                BestMove.class, engine.go(PositionCommand.of(Variant.KYOTOSHOGI.startSfen()), SearchLimits.nodes(1)));
        assertLegal(best.move(), Position.start(Variant.KYOTOSHOGI));
        Sessions.closeAndAssertGone(engine);
    }

    @Test
    void crashOnGoIsADisconnectWithExitCodeAndStderr() {
        UsiEngine engine = Sessions.startFake("--crash-on-go");
        EngineFailure failure = assertInstanceOf(EngineFailure.class, engine.go(MINI_START, SearchLimits.nodes(1)));
        assertEquals(EngineFailure.Kind.DISCONNECT, failure.kind());
        assertTrue(failure.detail().contains("exited with code 3"), failure.detail());
        assertTrue(
                failure.stderrTail().contains("fake engine: crashing on go as asked"),
                failure.stderrTail().toString());
        assertEquals(failure, engine.go(MINI_START, SearchLimits.nodes(1)), "a failed session stays failed");
        Sessions.closeAndAssertGone(engine);
    }

    @Test
    void crashAfterSomeMoves() {
        UsiEngine engine = Sessions.startFake("--crash-after", "2");
        assertInstanceOf(BestMove.class, engine.go(MINI_START, SearchLimits.nodes(1)));
        assertInstanceOf(BestMove.class, engine.go(MINI_START, SearchLimits.nodes(1)));
        EngineFailure failure = assertInstanceOf(EngineFailure.class, engine.go(MINI_START, SearchLimits.nodes(1)));
        assertEquals(EngineFailure.Kind.DISCONNECT, failure.kind());
        Sessions.closeAndAssertGone(engine);
    }

    @Test
    void noBestmoveWithinTheAllowedTimePlusMarginIsAStall() {
        UsiEngine engine = Sessions.startFake("--stall-after-go");
        long started = System.nanoTime();
        EngineFailure failure =
                assertInstanceOf(EngineFailure.class, engine.go(MINI_START, SearchLimits.movetime(100)));
        long waitedMillis = (System.nanoTime() - started) / 1_000_000;
        assertEquals(EngineFailure.Kind.STALL, failure.kind());
        assertTrue(waitedMillis >= 1100 && waitedMillis < 5000, "waited " + waitedMillis + " ms");
        assertTrue(failure.detail().contains("(100 ms allowed + 1000 ms stall margin)"), failure.detail());
        assertTrue(engine.liveProcesses().isEmpty(), "a stalled engine is killed at once");
        Sessions.closeAndAssertGone(engine);
    }

    /**
     * An engine that spoke USI (its id and options) and then said no usiok is a USI engine: the hint that
     * it may be an XBoard one does not apply, and a stall under load was given it (c100 of Fairy-Stockfish).
     */
    @Test
    void aUsiEngineThatNeverSaysUsiokIsNotTakenForAnXBoardOne() {
        EngineFailure noUsiok = Sessions.startFailure(Sessions.fake("--no-usiok"), Sessions.withHandshake(800));
        assertFalse(noUsiok.detail().contains("XBoard"), noUsiok.detail());
    }

    @Test
    void handshakeDeadlines() {
        EngineFailure noUsiok = Sessions.startFailure(Sessions.fake("--no-usiok"), Sessions.withHandshake(800));
        assertEquals(EngineFailure.Kind.STALL, noUsiok.kind());
        assertTrue(noUsiok.detail().startsWith("no usiok within 800 ms of starting"), noUsiok.detail());

        EngineFailure noReadyok = Sessions.startFailure(Sessions.fake("--no-readyok"), Sessions.withHandshake(3000));
        assertEquals(EngineFailure.Kind.STALL, noReadyok.kind());
        assertTrue(noReadyok.detail().startsWith("no readyok within"), noReadyok.detail());

        EngineFailure slow = Sessions.startFailure(Sessions.fake("--slow-start", "5000"), Sessions.withHandshake(800));
        assertEquals(EngineFailure.Kind.STALL, slow.kind());
        UsiEngine patient = Sessions.start(Sessions.fake("--slow-start", "500"), Variant.MINISHOGI, QUICK);
        assertTrue(patient.identity().handshakeNanos() >= 500_000_000L);
        Sessions.closeAndAssertGone(patient);
    }

    @Test
    void anEngineWithoutTheVariantIsRefusedWithTheReason() {
        EngineFailure wrongList = Sessions.startFailure(Sessions.fake("--no-variant"), QUICK);
        assertEquals(EngineFailure.Kind.VARIANT_UNSUPPORTED, wrongList.kind());
        assertEquals("the engine's UCI_Variant does not list minishogi (it lists: chess shogi)", wrongList.detail());
        EngineFailure noOption = Sessions.startFailure(Sessions.fake("--no-variant-option"), QUICK);
        assertTrue(noOption.detail().startsWith("the engine lists neither USI_Variant nor UCI_Variant"));
    }

    @Test
    void aProgramThatCannotStartIsAStartFailure() {
        EngineFailure missing = Sessions.startFailure(EngineSpec.of("ghost", List.of("/no/such/engine")), QUICK);
        assertEquals(EngineFailure.Kind.START_FAILED, missing.kind());
        assertEquals("cannot start engine 'ghost': engine program /no/such/engine does not exist", missing.detail());
        EngineFailure notOnPath = Sessions.startFailure(EngineSpec.of("ghost", List.of("no-such-engine-xyz")), QUICK);
        assertTrue(notOnPath.detail().contains("'no-such-engine-xyz' is not on PATH"), notOnPath.detail());
    }

    @Test
    void illegalMovesAreReturnedForTheRefereeToJudge() {
        UsiEngine engine = Sessions.startFake("--illegal-move");
        BestMove best = assertInstanceOf(BestMove.class, engine.go(MINI_START, SearchLimits.nodes(1)));
        org.junit.jupiter.api.Assertions.assertThrows(
                IllegalMoveException.class, () -> Usi.parse(Position.start(Variant.MINISHOGI), best.move()));
        Sessions.closeAndAssertGone(engine);
    }

    @Test
    void aBestmoveThatIsNotAMoveIsAProtocolError() {
        UsiEngine engine = Sessions.startFake("--malformed-bestmove");
        EngineFailure failure = assertInstanceOf(EngineFailure.class, engine.go(MINI_START, SearchLimits.nodes(1)));
        assertEquals(EngineFailure.Kind.PROTOCOL_ERROR, failure.kind());
        assertEquals("'bestmove xyzzy' does not name a move", failure.detail());
        Sessions.closeAndAssertGone(engine);
    }

    @Test
    void resignAndWinAreAnswersNotFailures() {
        UsiEngine resigner = Sessions.startFake("--resign");
        assertTrue(assertInstanceOf(BestMove.class, resigner.go(MINI_START, SearchLimits.nodes(1)))
                .resigned());
        Sessions.closeAndAssertGone(resigner);
        UsiEngine declarer = Sessions.startFake("--win");
        assertTrue(assertInstanceOf(BestMove.class, declarer.go(MINI_START, SearchLimits.nodes(1)))
                .declaredWin());
        Sessions.closeAndAssertGone(declarer);
    }

    @Test
    void aHundredMegabyteLineDoesNotGrowTheHeap() {
        UsiEngine engine = Sessions.startFake("--huge-line", "100");
        long before = usedHeapAfterGc();
        BestMove best =
                assertInstanceOf(BestMove.class, engine.go(MINI_START, SearchLimits.nodes(1)), engine.outputOddities());
        assertLegal(best.move(), Position.start(Variant.MINISHOGI));
        assertTrue(engine.outputOddities().contains("1 overlong line(s) cut"), engine.outputOddities());
        assertTrue(usedHeapAfterGc() - before < 16 << 20, "heap grew by " + (usedHeapAfterGc() - before));
        Sessions.closeAndAssertGone(engine);
    }

    @Test
    void aFloodOfOutputIsReadAndForgotten() {
        UsiEngine engine = Sessions.startFake("--flood", "100");
        long before = usedHeapAfterGc();
        BestMove best = assertInstanceOf(BestMove.class, engine.go(MINI_START, SearchLimits.nodes(1)));
        assertTrue(best.infoLines() > 1_000_000, "info lines: " + best.infoLines());
        assertTrue(usedHeapAfterGc() - before < 16 << 20, "heap grew by " + (usedHeapAfterGc() - before));
        assertInstanceOf(BestMove.class, engine.go(MINI_START, SearchLimits.nodes(1)), "healthy afterwards");
        Sessions.closeAndAssertGone(engine);
    }

    @Test
    void anEngineIgnoringStopStalls() {
        UsiEngine engine = Sessions.startFake("--ignore-stop");
        assertTrue(engine.startSearch(MINI_START, SearchLimits.infinite()).isEmpty());
        EngineFailure failure = assertInstanceOf(EngineFailure.class, engine.stop());
        assertEquals(EngineFailure.Kind.STALL, failure.kind());
        Sessions.closeAndAssertGone(engine);
    }

    @Test
    void childrenLeftBehindAreKilledWithTheEngine() {
        UsiEngine engine = Sessions.startFake("--spawn-child");
        assertTrue(engine.limitsApplied(), "setsid and prlimit are on this machine");
        assertEquals(2, engine.liveProcesses().size(), "the engine and its child");
        Sessions.closeAndAssertGone(engine);
    }

    @Test
    void anEngineIgnoringQuitIsKilled() {
        UsiEngine engine = Sessions.startFake("--ignore-quit");
        long started = System.nanoTime();
        Sessions.closeAndAssertGone(engine);
        long millis = (System.nanoTime() - started) / 1_000_000;
        assertTrue(
                millis >= QUICK.quitMillis() && millis < QUICK.quitMillis() + 3000, "closed after " + millis + " ms");
        assertTrue(engine.exitDescription().startsWith("killed by signal 9"), engine.exitDescription());
    }

    @Test
    void swappedClocksAreSentSwappedForEnginesWithTheQuirk() {
        // Sente to move with 200 ms against gote's 60 s: an engine reading the clocks the wrong way round
        // thinks it has 60 s (the fake then takes 2 s); sent swapped, it sees its 200 ms (10 ms of thought).
        // A long move margin lets the unaware engine overstep its time without being called a stall.
        SearchLimits limits = SearchLimits.byoyomi(200, 60_000, 0);
        UsiEngine unaware =
                Sessions.start(Sessions.fake("--swapped-clocks"), Variant.MINISHOGI, QUICK.withMoveMargin(10_000));
        long misread =
                assertInstanceOf(BestMove.class, unaware.go(MINI_START, limits)).engineNanos();
        Sessions.closeAndAssertGone(unaware);
        UsiEngine compensated = Sessions.start(
                Sessions.fake("--swapped-clocks").withQuirks(Set.of(Quirk.SWAPPED_CLOCKS)), Variant.MINISHOGI, QUICK);
        long read = assertInstanceOf(BestMove.class, compensated.go(MINI_START, limits))
                .engineNanos();
        Sessions.closeAndAssertGone(compensated);
        assertTrue(misread >= 2_000_000_000L, "misread clock: " + misread);
        assertTrue(read < 1_000_000_000L, "compensated clock: " + read);
    }

    /**
     * A tab after {@code bestmove} is white space, as USI (like UCI) allows between tokens: the move was not
     * seen and the engine lost by a stall. A {@code bestmove} nobody asked for (here on reading {@code
     * usinewgame}) is dropped, not kept as the next search's answer: it was played a move early, with a
     * negative time, and every answer after it was one move late.
     */
    @Test
    void aTabAfterBestmoveIsWhiteSpaceAndABestmoveNobodyAskedForIsDropped() throws Exception {
        UsiEngine tabbed = Sessions.start(Sessions.fake("--tab-bestmove"), Variant.MINISHOGI, QUICK);
        assertInstanceOf(BestMove.class, tabbed.go(MINI_START, SearchLimits.nodes(1)));
        Sessions.closeAndAssertGone(tabbed);

        UsiEngine stray = Sessions.start(Sessions.fake("--stray-bestmove"), Variant.MINISHOGI, QUICK);
        assertTrue(stray.newGame().isEmpty());
        BestMove best = assertInstanceOf(BestMove.class, stray.go(MINI_START, SearchLimits.nodes(1)));
        assertTrue(best.engineNanos() > 0, "the search's own answer, read after its go: " + best.engineNanos());
        assertTrue(
                stray.outputOddities().contains("1 answer(s) nobody asked for dropped, last: 'bestmove 5e4d'"),
                stray.outputOddities());
        assertTrue(stray.newGame().isEmpty(), "the next game's stray answer is dropped too");
        assertInstanceOf(BestMove.class, stray.go(MINI_START, SearchLimits.nodes(1)));
        Sessions.closeAndAssertGone(stray);
    }

    /**
     * An engine that leaves a process behind outside its process group (a double fork and setsid), holding
     * the engine's standard output and error open: the session still ends, leaving no thread or descriptor
     * of the driver behind, and the process that holds the engine's output dies with the engine (it was
     * left running under init).
     */
    @Test
    void aProcessThatEscapesTheEngineHoldingItsPipesLeavesNothingOfTheDriver() throws Exception {
        Path pidFile = Files.createTempFile("escaped", ".pid");
        List<String> command = new ArrayList<>(List.of(
                "/bin/sh", "-c", "(setsid sleep 120 & echo $! > " + pidFile + "); exec \"$@\"", "escaping-engine"));
        command.addAll(FakeEngines.command());
        Leaks leaks = Leaks.snapshot();
        try {
            UsiEngine engine = Sessions.start(EngineSpec.of("escaping", command), Variant.MINISHOGI, QUICK);
            long escaped = Long.parseLong(Files.readString(pidFile).strip());
            assertTrue(ProcessHandle.of(escaped).map(ProcessHandle::isAlive).orElse(false), "the escaped process runs");
            assertTrue(engine.liveProcesses().contains(escaped), "counted as the engine's: " + engine.liveProcesses());
            assertInstanceOf(BestMove.class, engine.go(MINI_START, SearchLimits.nodes(1)));
            engine.close();
            dev.taikai.testkit.Await.until(
                    Duration.ofSeconds(30),
                    "the process holding the engine's output is killed with it",
                    () -> !ProcessHandle.of(escaped).map(ProcessHandle::isAlive).orElse(false));
            leaks.assertNoneLeft(Duration.ofSeconds(30));
        } finally {
            String pid = Files.readString(pidFile).strip();
            if (!pid.isEmpty()) {
                ProcessHandle.of(Long.parseLong(pid)).ifPresent(ProcessHandle::destroyForcibly);
            }
            Files.deleteIfExists(pidFile);
        }
    }

    /**
     * An engine that stalls while a process it left outside its group holds its output: the read of the
     * output waited for that process, so the stall deadline never became a result and the run hung.
     */
    @Test
    void anEngineThatStallsWhileAnEscapedProcessHoldsItsOutputStillStalls() throws Exception {
        EngineFailure stalled = goWithAnEscapedProcess("--stall-after-go");
        assertEquals(EngineFailure.Kind.STALL, stalled.kind(), stalled.toString());
    }

    /** An engine that crashes while a process it left outside its group holds its output: it crashed, it did not stall. */
    @Test
    void anEngineThatCrashesWhileAnEscapedProcessHoldsItsOutputIsADisconnect() throws Exception {
        EngineFailure crashed = goWithAnEscapedProcess("--crash-on-go");
        assertEquals(EngineFailure.Kind.DISCONNECT, crashed.kind(), crashed.toString());
        assertTrue(crashed.detail().contains("exited with code 3"), crashed.toString());
    }

    /**
     * The failure of a {@code go} to the fake engine with {@code fault}, started by a shell that first left
     * {@code sleep 120} outside the engine's group holding its output; that process dies with the session.
     */
    private static EngineFailure goWithAnEscapedProcess(String fault) throws Exception {
        Path pidFile = Files.createTempFile("escaped", ".pid");
        List<String> command = new ArrayList<>(List.of(
                "/bin/sh", "-c", "(setsid sleep 120 & echo $! > " + pidFile + "); exec \"$@\"", "escaping-engine"));
        command.addAll(FakeEngines.command(fault));
        try {
            UsiEngine engine = Sessions.start(EngineSpec.of("escaping", command), Variant.MINISHOGI, QUICK);
            long escaped = Long.parseLong(Files.readString(pidFile).strip());
            EngineFailure failure =
                    assertInstanceOf(EngineFailure.class, engine.go(MINI_START, SearchLimits.movetime(100)));
            engine.close();
            dev.taikai.testkit.Await.until(
                    Duration.ofSeconds(30),
                    "the escaped process is killed",
                    () -> !ProcessHandle.of(escaped).map(ProcessHandle::isAlive).orElse(false));
            return failure;
        } finally {
            String pid = Files.readString(pidFile).strip();
            if (!pid.isEmpty()) {
                ProcessHandle.of(Long.parseLong(pid)).ifPresent(ProcessHandle::destroyForcibly);
            }
            Files.deleteIfExists(pidFile);
        }
    }

    /**
     * An option the engine did not declare never reaches its pipe: the session starts without it and says
     * which option, with the options the engine has; a caller that wants every option refuses the session.
     */
    @Test
    void anOptionTheEngineDoesNotDeclareIsNotSentAndIsNamedWithTheOptionsItHas(@TempDir Path dir) throws Exception {
        Path input = dir.resolve("input.log");
        EngineSpec spec =
                Sessions.fake("--log-input", input.toString()).withOptions(Map.of("Skill Level", "3", "Hsh", "64"));
        UsiEngine engine = Sessions.start(spec, Variant.MINISHOGI, QUICK);
        String named = "option 'Hsh' is not an option of engine 'fake' (it has: Skill Level, Debug Log File)";
        assertEquals(List.of(named), engine.unlistedOptions());
        assertTrue(
                engine.warnings().contains(named + "; not sent"),
                engine.warnings().toString());
        String sent = Files.readString(input);
        assertTrue(sent.contains("setoption name Skill Level value 3"), sent);
        assertFalse(sent.contains("Hsh"), sent);

        EngineFailure refused = assertInstanceOf(
                EngineFailure.class,
                LocalEngine.refusingUnlistedOptions(UsiEngine.start(spec, Variant.MINISHOGI, QUICK)));
        assertEquals(EngineFailure.Kind.START_FAILED, refused.kind());
        assertEquals(named, refused.detail());
    }

    /**
     * An XBoard engine started as a USI one never says usiok: the stall said only that, and the user had
     * to guess the engine's protocol; it names the setting now, beside the engine's own answer.
     */
    @Test
    void anXBoardEngineStartedAsUsiStallsWithTheSettingItNeeds() {
        EngineFailure refused = Sessions.startFailure(Sessions.fake("--xboard"), Sessions.withHandshake(1_500));
        assertEquals(EngineFailure.Kind.STALL, refused.kind());
        assertTrue(
                refused.detail()
                        .startsWith("no usiok within 1500 ms of starting (an XBoard engine never says it: give"
                                + " one proto=xboard, or protocol: xboard in its catalog entry)"),
                refused.detail());
        assertTrue(refused.detail().contains("Error (unknown command): usi"), refused.detail());
    }

    /**
     * A value the engine's declaration does not allow (a spin's text or out of its bounds, a combo's unknown
     * choice, a check's other word) was sent as given: an engine may then abort (Fairy-Stockfish does on
     * 'Skill Level=abc'). It is refused with what the engine declares, before any game.
     */
    @Test
    void optionValuesOutsideTheEnginesDeclarationAreRefused() throws Exception {
        Map<String, String> refusedValues = Map.of(
                "Skill Level=abc",
                        "option 'Skill Level' = 'abc' is not a whole number from 0 to 20;"
                                + " engine 'fake' declares it spin",
                "Skill Level=21",
                        "option 'Skill Level' = '21' is not a whole number from 0 to 20;"
                                + " engine 'fake' declares it spin",
                "USI_Ponder=yes", "option 'USI_Ponder' = 'yes' is not true or false; engine 'fake' declares it check");
        for (var entry : refusedValues.entrySet()) {
            String[] option = entry.getKey().split("=", 2);
            EngineFailure refused =
                    Sessions.startFailure(Sessions.fake("--ponder").withOptions(Map.of(option[0], option[1])), QUICK);
            assertEquals(EngineFailure.Kind.START_FAILED, refused.kind());
            assertEquals(entry.getValue(), refused.detail());
        }
        UsiEngine within = Sessions.start(
                Sessions.fake("--ponder").withOptions(Map.of("Skill Level", "20", "USI_Ponder", "FALSE")),
                Variant.MINISHOGI,
                QUICK);
        within.close();
    }

    /**
     * An option that names a file is set only where the catalog entry allows it, and only to a path inside
     * the engine's working directory; refused, it creates no file anywhere.
     */
    @Test
    void optionsThatNameFilesAreRefusedUnlessTheCatalogAllowsThemInsideTheWorkingDirectory(@TempDir Path dir)
            throws Exception {
        Path outside = dir.resolve("owned.txt");
        EngineFailure notAllowed =
                Sessions.startFailure(Sessions.fake().withOptions(Map.of("Debug Log File", outside.toString())), QUICK);
        assertEquals(EngineFailure.Kind.START_FAILED, notAllowed.kind());
        assertEquals(
                "option 'Debug Log File' names a file, which engine 'fake' may be given only where its catalog entry"
                        + " lists it under file-options",
                notAllowed.detail());

        EngineSpec allowed = Sessions.fake().withFileOptions(Set.of("Debug Log File"));
        for (String escape : List.of(outside.toString(), "../owned.txt", "a/../../owned.txt")) {
            EngineFailure refused = Sessions.startFailure(allowed.withOptions(Map.of("Debug Log File", escape)), QUICK);
            assertTrue(
                    refused.detail().contains("is not a path inside the engine's working directory"), refused.detail());
        }
        // the engine reads the value as words: a leading space made ' /abs/path' relative to the check only
        for (String spaced : List.of(" " + outside, " ../owned.txt", "a  b", "log ")) {
            EngineFailure refused = Sessions.startFailure(allowed.withOptions(Map.of("Debug Log File", spaced)), QUICK);
            assertTrue(
                    refused.detail().contains("a file option's value neither begins nor ends with a space"),
                    refused.detail());
        }
        assertFalse(Files.exists(outside), "no file made outside by any refused value");

        Path workdir = Files.createDirectory(dir.resolve("engine"));
        EngineSpec inside = new EngineSpec(
                "fake",
                allowed.command(),
                workdir,
                Map.of(),
                Map.of("Debug Log File", "debug.log"),
                EngineSpec.AUTO_VARIANT_OPTION,
                dev.taikai.rules.Notation.FAIRY_STOCKFISH,
                Set.of(),
                allowed.limits(),
                Set.of("Debug Log File"),
                dev.taikai.enginehost.catalog.Protocol.USI);
        UsiEngine engine = Sessions.start(inside, Variant.MINISHOGI, QUICK);
        Await.until(
                Duration.ofSeconds(30), "the engine opens its log", () -> Files.exists(workdir.resolve("debug.log")));
        Sessions.closeAndAssertGone(engine);
    }

    /** Without a catalog working directory, an engine runs in a scratch directory of its own, gone with it. */
    @Test
    void anEngineRunsInAScratchDirectoryOfItsOwn() throws Exception {
        UsiEngine first = Sessions.startFake();
        UsiEngine second = Sessions.startFake();
        Path scratch = Files.readSymbolicLink(Path.of("/proc/" + first.pid() + "/cwd"));
        assertTrue(scratch.getFileName().toString().startsWith("taikai-engine-"), scratch.toString());
        assertNotEquals(scratch, Files.readSymbolicLink(Path.of("/proc/" + second.pid() + "/cwd")));
        Sessions.closeAndAssertGone(first);
        Sessions.closeAndAssertGone(second);
        assertFalse(Files.exists(scratch), "deleted with the session");
    }

    /** After a misbehaving engine, the next session works as if nothing had happened. */
    @org.junit.jupiter.api.AfterEach
    void driverIsHealthyAfterwards(org.junit.jupiter.api.TestInfo test) {
        if (test.getTestMethod()
                .map(m -> m.getName().startsWith("aWellBehaved"))
                .orElse(false)) {
            return;
        }
        UsiEngine engine = Sessions.startFake("--think-ms", "0");
        assertInstanceOf(
                BestMove.class,
                engine.go(MINI_START, SearchLimits.nodes(1)),
                "driver healthy after " + test.getDisplayName());
        Sessions.closeAndAssertGone(engine);
    }

    private static void assertLegal(String move, Position position) {
        try {
            Usi.parse(position, move, dev.taikai.rules.Notation.FAIRY_STOCKFISH);
        } catch (Exception e) {
            throw new AssertionError("engine move " + move + " is not legal: " + e.getMessage(), e);
        }
    }

    private static long usedHeapAfterGc() {
        System.gc();
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }
}
