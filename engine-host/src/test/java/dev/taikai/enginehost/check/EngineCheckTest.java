package dev.taikai.enginehost.check;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.taikai.enginehost.catalog.EngineSpec;
import dev.taikai.enginehost.catalog.Quirk;
import dev.taikai.enginehost.check.CheckReport.Verdict;
import dev.taikai.enginehost.session.Timeouts;
import dev.taikai.enginehost.usi.FairyStockfishSessions;
import dev.taikai.rules.Variant;
import dev.taikai.testkit.FakeEngines;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** The compliance check gives a correct report on Fairy-Stockfish in both variants and on every fake engine. */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class EngineCheckTest {
    /** Deadlines short enough for quick stalls, long enough for a fake engine (a JVM) on a loaded machine. */
    private static final Timeouts QUICK = new Timeouts(5_000, 5_000, 1_000, 3_000, 1_500, 1_500);
    /** For engines that never finish the handshake: the deadline is the thing tested. */
    private static final Timeouts SHORT_HANDSHAKE = new Timeouts(1_500, 1_500, 1_000, 3_000, 1_500, 1_500);

    enum Variants {
        MINISHOGI(Variant.MINISHOGI),
        KYOTOSHOGI(Variant.KYOTOSHOGI);

        final Variant variant;

        Variants(Variant variant) {
            this.variant = variant;
        }
    }

    @ParameterizedTest
    @EnumSource(Variants.class)
    void fairyStockfishWithItsCatalogEntryPasses(Variants variant) {
        CheckReport report = EngineCheck.run(fairyStockfish(), variant.variant, Timeouts.DEFAULT, r -> {});
        assertTrue(report.passed(), report.render());
        assertEquals(Verdict.PASS, report.result("clocks").verdict(), report.render());
        assertTrue(report.result("clocks").detail().contains("with the swapped-clocks quirk"));
        assertEquals(Verdict.PASS, report.result("ponder").verdict(), "Fairy-Stockfish offers Ponder");
        assertEquals(Verdict.PASS, report.result("moves").verdict(), report.render());
        assertEquals(Verdict.WARN, report.result("gameover").verdict(), "Fairy-Stockfish 11.1 does not know gameover");
        assertTrue(report.result("gameover").detail().contains("Unknown command: gameover win"));
        assertTrue(report.notes().stream().anyMatch(n -> n.startsWith("per-move round trip")), report.render());
    }

    @Test
    void fairyStockfishWithoutTheQuirkIsCaughtReadingSwappedClocks() {
        CheckReport report =
                EngineCheck.run(fairyStockfish().withQuirks(Set.of()), Variant.MINISHOGI, Timeouts.DEFAULT, r -> {});
        assertFalse(report.passed());
        assertEquals(Verdict.FAIL, report.result("clocks").verdict());
        assertTrue(
                report.result("clocks")
                        .detail()
                        .contains("give it the swapped-clocks quirk (engine-check --quirk"
                                + " swapped-clocks, -engine ... quirk=swapped-clocks, quirks: [swapped-clocks]"),
                report.render());
    }

    /** A bestmove nobody asked for passed every check without a word; the XBoard check warned of its kind. */
    @Test
    void answersNobodyAskedForAreAWarning() {
        CheckReport report = check(fake("--stray-bestmove"));
        assertEquals(Verdict.WARN, report.result("stray answers").verdict(), report.render());
        assertTrue(
                report.result("stray answers")
                        .detail()
                        .contains("answer(s) nobody asked for dropped, last: 'bestmove 5e4d'"),
                report.render());
        assertTrue(report.passed(), "a warning: the games go on: " + report.render());
    }

    @Test
    void aWellBehavedFakePassesEverything() {
        CheckReport report = check(fake("--ponder"));
        assertTrue(report.passed(), report.render());
        assertTrue(report.results().stream().allMatch(r -> r.verdict() == Verdict.PASS), report.render());
    }

    /** An engine that reads a position's start and not its moves: every other check asks from the start. */
    @Test
    void anEngineThatIgnoresTheGamesMovesFailsTheGameCheckOnly() {
        CheckReport report = check(fake("--ignore-moves"));
        assertFalse(report.passed(), report.render());
        assertEquals(Verdict.FAIL, report.result("moves").verdict(), report.render());
        assertTrue(report.result("moves").detail().startsWith("after "), report.render());
        assertTrue(
                report.results().stream()
                        .filter(r -> !r.name().equals("moves"))
                        .noneMatch(r -> r.verdict() == Verdict.FAIL),
                report.render());
    }

    @Test
    void crashingEnginesFailEveryGoAndAreRestartedForTheRest() {
        CheckReport onGo = check(fake("--crash-on-go"));
        assertFalse(onGo.passed());
        for (String go : List.of("go byoyomi", "go fischer", "go movetime", "go nodes", "go depth")) {
            assertEquals(Verdict.FAIL, onGo.result(go).verdict());
            assertTrue(onGo.result(go).detail().contains("disconnect: the engine exited with code 3"), onGo.render());
        }
        assertEquals(Verdict.PASS, onGo.result("gameover").verdict(), "checks without go still run");
        assertEquals(Verdict.PASS, onGo.result("quit").verdict());

        CheckReport later = check(fake("--crash-after", "2"));
        assertEquals(Verdict.PASS, later.result("go byoyomi").verdict());
        assertEquals(Verdict.PASS, later.result("go fischer").verdict());
        assertEquals(Verdict.FAIL, later.result("go movetime").verdict());
    }

    /** The check judges a late move by the default overrun margin a tournament would apply (100 ms at 200 ms). */
    @Test
    void aLateMoveIsJudgedByTheDefaultMarginATournamentApplies() {
        CheckReport late = check(fake("--think-ms", "215"));
        assertEquals(Verdict.WARN, late.result("go movetime").verdict(), late.render());
        assertTrue(
                late.result("go movetime").detail().contains("within the default overrun margin of 100 ms"),
                late.render());
        CheckReport twice = check(fake("--think-ms", "400"));
        assertEquals(Verdict.FAIL, twice.result("go movetime").verdict(), twice.render());
        assertTrue(
                twice.result("go movetime").detail().contains("under default settings it would lose on time"),
                twice.render());
    }

    @Test
    void stallsAreFailuresWithTheirDeadline() {
        CheckReport report = check(fake("--stall-after-go"));
        assertEquals(Verdict.FAIL, report.result("go movetime").verdict());
        assertTrue(
                report.result("go movetime").detail().contains("(200 ms allowed + 1000 ms stall margin)"),
                report.render());
        assertEquals(Verdict.FAIL, report.result("stop during search").verdict());
        assertEquals(Verdict.SKIP, report.result("clocks").verdict(), "no go answered: clocks cannot be timed");
    }

    @Test
    void handshakeFailures() {
        CheckReport noUsiok = check(fake("--no-usiok"), SHORT_HANDSHAKE);
        assertEquals(Verdict.FAIL, noUsiok.result("handshake").verdict());
        assertTrue(noUsiok.result("handshake").detail().startsWith("stall: no usiok within"), noUsiok.render());
        assertEquals(Verdict.SKIP, noUsiok.result("go byoyomi").verdict());

        CheckReport noReadyok = check(fake("--no-readyok"), SHORT_HANDSHAKE);
        assertTrue(noReadyok.result("handshake").detail().startsWith("stall: no readyok within"), noReadyok.render());

        CheckReport noVariant = check(fake("--no-variant"));
        // it started: the rest is skipped for the variant, not as if the engine never started
        assertEquals(
                "the engine does not play minishogi", noVariant.result("quit").detail(), noVariant.render());
        assertEquals(
                "not reached: the start failed (above)",
                noUsiok.result("variant").detail(),
                noUsiok.render());
        assertEquals("the engine did not start", noUsiok.result("quit").detail(), noUsiok.render());
        assertEquals(Verdict.FAIL, noVariant.result("variant").verdict());
        assertTrue(noVariant.result("variant").detail().contains("does not list minishogi"));
        assertEquals(
                Verdict.FAIL,
                check(fake("--no-variant-option")).result("variant").verdict());

        CheckReport slow = check(fake("--slow-start", "600"));
        assertTrue(slow.passed(), slow.render());
        // at least the engine's 600 ms (more on a busy machine: the fake engine is a JVM)
        var handshake = java.util.regex.Pattern.compile("handshake time: ([0-9]+\\.[0-9]) ms")
                .matcher(slow.notes().get(0));
        assertTrue(handshake.matches(), slow.notes().get(0));
        assertTrue(Double.parseDouble(handshake.group(1)) >= 600, slow.notes().get(0));
    }

    @Test
    void wrongAnswersAreFailures() {
        CheckReport illegal = check(fake("--illegal-move"));
        assertEquals(Verdict.FAIL, illegal.result("go nodes").verdict());
        assertTrue(illegal.result("go nodes").detail().contains(": illegal move"), illegal.render());

        CheckReport malformed = check(fake("--malformed-bestmove"));
        assertTrue(malformed
                .result("go nodes")
                .detail()
                .contains("protocol error: 'bestmove xyzzy' does not name a move"));

        assertTrue(check(fake("--resign")).result("go depth").detail().endsWith("resigned from the start position"));
        assertTrue(check(fake("--win")).result("go depth").detail().contains("entering-king declaration"));
    }

    @Test
    void clockAndStopProblems() {
        CheckReport swapped = check(fake("--swapped-clocks"));
        assertEquals(Verdict.FAIL, swapped.result("clocks").verdict(), swapped.render());
        CheckReport compensated = check(fake("--swapped-clocks").withQuirks(Set.of(Quirk.SWAPPED_CLOCKS)));
        assertEquals(Verdict.PASS, compensated.result("clocks").verdict(), compensated.render());
        CheckReport fixedTime = check(fake("--think-ms", "30"));
        assertEquals(Verdict.WARN, fixedTime.result("clocks").verdict(), fixedTime.render());

        CheckReport ignoresStop = check(fake("--ignore-stop"));
        assertEquals(Verdict.FAIL, ignoresStop.result("stop during search").verdict());
        assertEquals(Verdict.PASS, ignoresStop.result("go byoyomi").verdict());
    }

    @Test
    void quitProblems() {
        CheckReport child = check(fake("--spawn-child"));
        assertEquals(Verdict.WARN, child.result("quit").verdict(), child.render());
        assertTrue(child.result("quit").detail().contains("left 1 process(es) behind"));
        CheckReport ignoresQuit = check(fake("--ignore-quit"));
        assertEquals(Verdict.FAIL, ignoresQuit.result("quit").verdict());
    }

    @Test
    void theCatalogsKyotoNotationIsHeldToTheLetter() {
        EngineSpec lishogiFake = fake("--lishogi");
        EngineSpec declared = new EngineSpec(
                lishogiFake.id(),
                lishogiFake.command(),
                null,
                Map.of(),
                Map.of(),
                EngineSpec.AUTO_VARIANT_OPTION,
                dev.taikai.rules.Notation.LISHOGI,
                Set.of(),
                lishogiFake.limits(),
                Set.of(),
                dev.taikai.enginehost.catalog.Protocol.USI);
        CheckReport right = EngineCheck.run(declared, Variant.KYOTOSHOGI, QUICK, r -> {});
        assertTrue(right.passed(), right.render());
        CheckReport wrong = EngineCheck.run(lishogiFake, Variant.KYOTOSHOGI, QUICK, r -> {});
        assertFalse(wrong.passed(), "a lishogi-speaking engine declared as fsf: " + wrong.render());
        assertTrue(wrong.render().contains("turns into a"), wrong.render());
    }

    @Test
    void floodsAndHugeLinesDoNotDisturbTheCheck() {
        assertTrue(check(fake("--flood", "5")).passed());
        assertTrue(check(fake("--huge-line", "5")).passed());
    }

    private static CheckReport check(EngineSpec spec) {
        return check(spec, QUICK);
    }

    private static CheckReport check(EngineSpec spec, Timeouts timeouts) {
        return EngineCheck.run(spec, Variant.MINISHOGI, timeouts, r -> {});
    }

    private static EngineSpec fake(String... switches) {
        return EngineSpec.of("fake", FakeEngines.command(switches)).withOptions(Map.of());
    }

    private static EngineSpec fairyStockfish() {
        return FairyStockfishSessions.spec();
    }
}
