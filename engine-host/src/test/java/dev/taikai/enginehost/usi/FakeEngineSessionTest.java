package dev.taikai.enginehost.usi;

import static dev.taikai.enginehost.usi.Sessions.QUICK;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.taikai.enginehost.catalog.EngineSpec;
import dev.taikai.enginehost.catalog.ProcessLimits;
import dev.taikai.enginehost.catalog.Quirk;
import dev.taikai.rules.IllegalMoveException;
import dev.taikai.rules.Position;
import dev.taikai.rules.Usi;
import dev.taikai.rules.Variant;
import java.lang.management.ManagementFactory;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The driver against the fake engines of the testkit: real processes, real pipes, one switch each.
 * Every test ends by checking that no process of the engine is left.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class FakeEngineSessionTest {
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

    @Test
    void theEnginesThinkingTimeIsMeasuredAtThePipe() {
        UsiEngine engine = Sessions.startFake("--think-ms", "100");
        for (int i = 0; i < 3; i++) {
            BestMove best = assertInstanceOf(BestMove.class, engine.go(MINI_START, SearchLimits.movetime(1000)));
            long millis = best.engineNanos() / 1_000_000;
            assertTrue(millis >= 100 && millis < 160, "measured " + millis + " ms for a 100 ms think");
            assertTrue(
                    best.info().timeMillis() >= 100,
                    "the engine's own report: " + best.info().timeMillis());
        }
        Sessions.closeAndAssertGone(engine);
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

    @Test
    void outputWrittenWhileNobodyWaitsIsDrained() throws Exception {
        UsiEngine engine = Sessions.startFake("--flood-on-newgame", "20");
        assertTrue(engine.newGame().isEmpty());
        Thread.sleep(1500); // nobody reads: the housekeeper must, or the engine blocks on a full pipe
        long started = System.nanoTime();
        assertInstanceOf(BestMove.class, engine.go(MINI_START, SearchLimits.nodes(1)));
        assertTrue(System.nanoTime() - started < 300_000_000L, "the flood was drained before go");
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
        assertTrue(waitedMillis >= 400 && waitedMillis < 2000, "waited " + waitedMillis + " ms");
        assertTrue(failure.detail().contains("(100 ms allowed + 300 ms margin)"), failure.detail());
        assertTrue(engine.liveProcesses().isEmpty(), "a stalled engine is killed at once");
        Sessions.closeAndAssertGone(engine);
    }

    @Test
    void handshakeDeadlines() {
        EngineFailure noUsiok = Sessions.startFailure(Sessions.fake("--no-usiok"), Sessions.withHandshake(800));
        assertEquals(EngineFailure.Kind.STALL, noUsiok.kind());
        assertEquals("no usiok within 800 ms of starting", noUsiok.detail());

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
        assertTrue((System.nanoTime() - started) / 1_000_000 < 3000);
        assertTrue(engine.exitDescription().startsWith("killed by signal 9"), engine.exitDescription());
    }

    @Test
    void swappedClocksAreSentSwappedForEnginesWithTheQuirk() {
        // Sente to move with 200 ms against gote's 20 s: an engine reading the clocks the wrong way round
        // thinks it has 20 s (the fake then takes 1 s); sent swapped, it sees its 200 ms (10 ms of thought).
        // A long move margin lets the unaware engine overstep its time without being called a stall.
        SearchLimits limits = SearchLimits.byoyomi(200, 20_000, 0);
        UsiEngine unaware =
                Sessions.start(Sessions.fake("--swapped-clocks"), Variant.MINISHOGI, QUICK.withMoveMargin(2000));
        long misread =
                assertInstanceOf(BestMove.class, unaware.go(MINI_START, limits)).engineNanos();
        Sessions.closeAndAssertGone(unaware);
        UsiEngine compensated = Sessions.start(
                Sessions.fake("--swapped-clocks").withQuirks(Set.of(Quirk.SWAPPED_CLOCKS)), Variant.MINISHOGI, QUICK);
        long read = assertInstanceOf(BestMove.class, compensated.go(MINI_START, limits))
                .engineNanos();
        Sessions.closeAndAssertGone(compensated);
        assertTrue(misread > 800_000_000L, "misread clock: " + misread);
        assertTrue(read < 300_000_000L, "compensated clock: " + read);
    }

    @Test
    void unknownCatalogOptionsAreSentWithAWarning() {
        UsiEngine engine = Sessions.start(
                Sessions.fake().withOptions(java.util.Map.of("Skill Level", "3", "Hsh", "64")),
                Variant.MINISHOGI,
                QUICK);
        assertEquals(List.of("option 'Hsh' is not listed by the engine; sent anyway"), engine.warnings());
        assertFalse(engine.failure().isPresent());
        Sessions.closeAndAssertGone(engine);
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
