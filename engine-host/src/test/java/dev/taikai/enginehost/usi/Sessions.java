package dev.taikai.enginehost.usi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.fail;

import dev.taikai.enginehost.catalog.EngineSpec;
import dev.taikai.enginehost.session.EngineFailure;
import dev.taikai.enginehost.session.ProcessTable;
import dev.taikai.enginehost.session.StartResult;
import dev.taikai.enginehost.session.Timeouts;
import dev.taikai.rules.Variant;
import dev.taikai.testkit.FakeEngines;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Starting engines in tests, and checking that nothing of them is left afterwards. Every engine started
 * here is also closed after its test by {@link CloseLeftovers}, so a test that fails half-way leaves no
 * engine running into the next test's checks.
 */
final class Sessions {
    private static final List<UsiEngine> STARTED = new ArrayList<>();

    /** Closes, after each test, the engines it started and did not close (because an assertion failed). */
    static final class CloseLeftovers implements AfterEachCallback {
        @Override
        public void afterEach(ExtensionContext context) {
            List<UsiEngine> started;
            synchronized (STARTED) {
                started = List.copyOf(STARTED);
                STARTED.clear();
            }
            started.forEach(UsiEngine::close);
        }
    }

    /**
     * Short deadlines, so that stalls are found within a second or two, but long enough that a fake engine
     * (a JVM) on a loaded machine still answers, stops and exits within them.
     */
    static final Timeouts QUICK = new Timeouts(5_000, 5_000, 1_000, 5_000, 1_500, 1_500);

    private Sessions() {}

    static EngineSpec fake(String... switches) {
        return EngineSpec.of("fake", FakeEngines.command(switches));
    }

    static UsiEngine start(EngineSpec spec, Variant variant, Timeouts timeouts) {
        StartResult result = UsiEngine.start(spec, variant, timeouts);
        if (result instanceof EngineFailure failure) {
            fail("engine did not start: " + failure);
        }
        UsiEngine engine = (UsiEngine) result;
        synchronized (STARTED) {
            STARTED.add(engine);
        }
        return engine;
    }

    static UsiEngine startFake(String... switches) {
        return start(fake(switches), Variant.MINISHOGI, QUICK);
    }

    static EngineFailure startFailure(EngineSpec spec, Timeouts timeouts) {
        return assertInstanceOf(EngineFailure.class, UsiEngine.start(spec, Variant.MINISHOGI, timeouts));
    }

    static Timeouts withHandshake(long millis) {
        return QUICK.withStartup(Duration.ofMillis(millis), Duration.ofMillis(millis));
    }

    /** Closes the session and asserts that no process of the engine is alive afterwards. */
    static void closeAndAssertGone(UsiEngine engine) {
        long pid = engine.pid();
        engine.close();
        assertNoProcessesLeft(pid);
    }

    static void assertNoProcessesLeft(long pid) {
        List<Long> left = ProcessTable.liveProcessesOf(pid, pid);
        assertEquals(List.of(), left, "processes of engine " + pid + " still alive");
    }
}
