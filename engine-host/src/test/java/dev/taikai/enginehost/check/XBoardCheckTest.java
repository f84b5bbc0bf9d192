package dev.taikai.enginehost.check;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.taikai.enginehost.catalog.Catalog;
import dev.taikai.enginehost.catalog.EngineSpec;
import dev.taikai.enginehost.catalog.Protocol;
import dev.taikai.enginehost.check.CheckReport.Verdict;
import dev.taikai.enginehost.session.Timeouts;
import dev.taikai.rules.Variant;
import dev.taikai.testkit.FakeEngines;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The XBoard check against Debian's CrazyWa and Sjaak II and against the XBoard fake with its faults. */
@Timeout(value = 240, unit = TimeUnit.SECONDS)
class XBoardCheckTest {
    private static final Timeouts QUICK = new Timeouts(8_000, 5_000, 1_000, 5_000, 1_500, 1_500);

    @Test
    void crazyWaPassesInBothVariantsAndSjaakIIInMinishogi() {
        requireDebian("crazywa");
        requireDebian("sjaakii");
        Catalog builtIn = Catalog.builtIn();
        for (Variant variant : Variant.all()) {
            CheckReport report = EngineCheck.run(builtIn.engine("crazywa").orElseThrow(), variant, QUICK, r -> {});
            assertTrue(report.passed(), report.render());
            assertTrue(report.render().contains("PASS  move now (?)"), report.render());
            assertTrue(report.render().contains("PASS  moves "), report.render());
        }
        CheckReport sjaak = EngineCheck.run(builtIn.engine("sjaakii").orElseThrow(), Variant.MINISHOGI, QUICK, r -> {});
        assertTrue(sjaak.passed(), sjaak.render());
        // its node count runs many times past 'nps 1000': said, where the check passed it silently
        assertEquals(Verdict.WARN, sjaak.result("nps").verdict(), sjaak.render());
        assertTrue(
                sjaak.result("nps").detail().contains("nodes for a limit of 1000 (")
                        && sjaak.result("nps")
                                .detail()
                                .endsWith("it does not keep node limits, so a tournament"
                                        + " at a node limit plays it stronger than asked"),
                sjaak.render());
        CheckReport noKyoto =
                EngineCheck.run(builtIn.engine("sjaakii").orElseThrow(), Variant.KYOTOSHOGI, QUICK, r -> {});
        assertFalse(noKyoto.passed());
        assertTrue(noKyoto.render().contains("include neither kyotoshogi nor 5x5+4_shogi"), noKyoto.render());
        // it started: the rest is skipped for the variant, not as if the engine never started
        assertEquals(
                "the engine does not play kyotoshogi", noKyoto.result("quit").detail(), noKyoto.render());
    }

    @Test
    void theFakePassesAndEachFaultIsFoundWhereItIs() {
        CheckReport clean = run();
        assertTrue(clean.passed(), clean.render());
        assertTrue(clean.render().contains("'variant minishogi'; its setup is the rules' start"), clean.render());
        // no setup announced: the check said it had verified one
        String noSetup = run("--no-setup").render();
        assertTrue(
                noSetup.contains(
                        "'variant minishogi'; it announced no setup (it takes the variant's start as its own)"),
                noSetup);
        assertTrue(
                clean.render().lines().anyMatch(l -> l.startsWith("PASS  moves ") && l.contains("a game of 12 plies")),
                clean.render());
        // no other check sends a move: an engine that takes none passed them all
        String refusing = run("--refuse-moves").render();
        assertTrue(refusing.contains("FAIL  moves "), refusing);
        String noPing = run("--no-ping").render();
        assertTrue(noPing.contains("WARN  ping"), noPing);
        // an engine that moves on its own before '?' is sent was said to move "-290 ms after ?", a pass
        String early = run("--think-ms", "5").render();
        assertTrue(early.contains("WARN  move now (?)             'st 30' -> move "), early);
        assertTrue(early.contains("before '?' was sent: not tested"), early);
        String stuck = run("--ignore-stop").render();
        assertTrue(stuck.contains("FAIL  move now (?)"), stuck);
        String noSetboard = run("--no-setboard").render();
        assertTrue(noSetboard.contains("WARN  setboard"), noSetboard);
        String crashing = run("--crash-after", "3").render();
        assertTrue(crashing.contains("FAIL  "), crashing);
        assertTrue(crashing.contains("PASS  quit"), "restarted after the crash, the later checks run: " + crashing);
    }

    private static CheckReport run(String... switches) {
        List<String> arguments = new ArrayList<>(List.of("--xboard"));
        arguments.addAll(List.of(switches));
        EngineSpec fake = EngineSpec.of("fake-xboard", FakeEngines.command(arguments.toArray(String[]::new)))
                .withProtocol(Protocol.XBOARD);
        return EngineCheck.run(fake, Variant.MINISHOGI, QUICK, r -> {});
    }

    private static void requireDebian(String program) {
        if (!Files.isExecutable(Path.of("/usr/games", program))) {
            String message = program + " is not installed (apt-get install " + program + ")";
            if (Boolean.getBoolean("taikai.requireXBoardEngines")) {
                throw new AssertionError(message);
            }
            Assumptions.abort(message);
        }
        assertEquals(
                Protocol.XBOARD, Catalog.builtIn().engine(program).orElseThrow().protocol());
    }
}
