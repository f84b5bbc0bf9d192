package dev.taikai.enginehost.xboard;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.fail;

import dev.taikai.enginehost.catalog.EngineSpec;
import dev.taikai.enginehost.catalog.Protocol;
import dev.taikai.enginehost.session.EngineFailure;
import dev.taikai.enginehost.session.ProcessTable;
import dev.taikai.enginehost.session.StartResult;
import dev.taikai.enginehost.session.Timeouts;
import dev.taikai.rules.Variant;
import dev.taikai.testkit.FakeEngines;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * XBoard engines for tests: the fake ({@code FakeEngine --xboard}) and Debian's crazywa and sjaakii. Every
 * engine started here is closed after its test ({@link CloseLeftovers}). Debian's engines missing, the
 * test is skipped with a message, unless the build runs with {@code -DrequireXBoardEngines=true} (as the
 * test command does, having installed them).
 */
final class XBoardSessions {
    private static final List<XBoardEngine> STARTED = new ArrayList<>();

    /** Deadlines short enough to find a stall in seconds, long enough for a JVM fake on a loaded machine. */
    static final Timeouts QUICK = new Timeouts(8_000, 5_000, 1_000, 5_000, 1_500, 1_500);

    private XBoardSessions() {}

    /** Closes, after each test, the engines it started and did not close (because an assertion failed). */
    static final class CloseLeftovers implements AfterEachCallback {
        @Override
        public void afterEach(ExtensionContext context) {
            List<XBoardEngine> started;
            synchronized (STARTED) {
                started = List.copyOf(STARTED);
                STARTED.clear();
            }
            started.forEach(XBoardEngine::close);
        }
    }

    static EngineSpec fake(String... switches) {
        List<String> arguments = new ArrayList<>(List.of("--xboard"));
        arguments.addAll(List.of(switches));
        return EngineSpec.of("fake-xboard", FakeEngines.command(arguments.toArray(String[]::new)))
                .withProtocol(Protocol.XBOARD);
    }

    static EngineSpec crazyWa() {
        return debian("crazywa");
    }

    static EngineSpec sjaakII() {
        return debian("sjaakii");
    }

    private static EngineSpec debian(String program) {
        Path path = Path.of("/usr/games", program);
        if (!Files.isExecutable(path)) {
            String message = program + " is not installed (apt-get install " + program + ")";
            if (Boolean.getBoolean("taikai.requireXBoardEngines")) {
                fail(message);
            }
            Assumptions.abort(message);
        }
        return EngineSpec.of(program, List.of(path.toString())).withProtocol(Protocol.XBOARD);
    }

    static XBoardEngine start(EngineSpec spec, Variant variant, Timeouts timeouts) {
        StartResult result = XBoardEngine.start(spec, variant, timeouts, null);
        if (result instanceof EngineFailure failure) {
            fail("engine did not start: " + failure);
        }
        XBoardEngine engine = (XBoardEngine) result;
        synchronized (STARTED) {
            STARTED.add(engine);
        }
        return engine;
    }

    static XBoardEngine startFake(Variant variant, String... switches) {
        return start(fake(switches), variant, QUICK);
    }

    static EngineFailure startFailure(EngineSpec spec, Variant variant) {
        return assertInstanceOf(EngineFailure.class, XBoardEngine.start(spec, variant, QUICK, null));
    }

    /** Closes the session and asserts that no process of the engine is alive afterwards. */
    static void closeAndAssertGone(XBoardEngine engine) {
        long pid = engine.pid();
        engine.close();
        assertEquals(List.of(), ProcessTable.liveProcessesOf(pid, pid), "processes of engine " + pid + " still alive");
    }
}
