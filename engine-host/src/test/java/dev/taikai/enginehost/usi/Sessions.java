package dev.taikai.enginehost.usi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.fail;

import dev.taikai.enginehost.catalog.EngineSpec;
import dev.taikai.rules.Variant;
import dev.taikai.testkit.FakeEngines;
import java.time.Duration;
import java.util.List;

/** Starting engines in tests, and checking that nothing of them is left afterwards. */
final class Sessions {
    /** Short deadlines so that stalls are found in tests within a second or two. */
    static final Timeouts QUICK = new Timeouts(5_000, 5_000, 300, 5_000, 500, 500);

    private Sessions() {}

    static EngineSpec fake(String... switches) {
        return EngineSpec.of("fake", FakeEngines.command(switches));
    }

    static UsiEngine start(EngineSpec spec, Variant variant, Timeouts timeouts) {
        StartResult result = UsiEngine.start(spec, variant, timeouts);
        if (result instanceof EngineFailure failure) {
            fail("engine did not start: " + failure);
        }
        return (UsiEngine) result;
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
