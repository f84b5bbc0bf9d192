package dev.taikai.enginehost.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.taikai.enginehost.catalog.EngineSpec;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class EngineProcessTest {
    /** Where Linux keeps the last pid it gave out; root may set it, so that the next process gets the one after. */
    private static final Path LAST_PID = Path.of("/proc/sys/kernel/ns_last_pid");

    /**
     * Once an engine has ended, its pid may be given to another process, which may lead a group of that
     * number too (as a new engine does): that process is not the engine's, and ending the engine's session
     * does not kill it with all it started.
     */
    @Test
    void aProcessGivenTheEnginesPidAfterItEndedIsNotTheEngines() throws Exception {
        assertTrue(Files.isWritable(LAST_PID), LAST_PID + " can be set (as root, as the tests run)");
        EngineProcess engine = EngineProcess.start(EngineSpec.of("ends-at-once", List.of("/bin/true")));
        Process stranger = null;
        try {
            engine.process().waitFor();
            assertTrue(engine.limitsApplied(), "the engine leads a group of its own (setsid is on this machine)");
            stranger = startWithPid(engine.pid());
            assertFalse(engine.liveProcesses().contains(stranger.pid()), "the stranger counted as the engine's");
            engine.killTree();
            assertTrue(stranger.isAlive(), "the stranger was killed with the engine's processes");
        } finally {
            engine.deleteScratch();
            if (stranger != null) {
                stranger.destroyForcibly();
            }
        }
    }

    /** What an engine started is still killed with it after the engine ended: its group keeps the engine's pid. */
    @Test
    void whatAnEngineLeftInItsGroupIsKilledAfterItEnded() throws Exception {
        EngineProcess engine =
                EngineProcess.start(EngineSpec.of("leaves-a-child", List.of("/bin/sh", "-c", "sleep 600 & exit 0")));
        try {
            engine.process().waitFor();
            List<Long> left = engine.liveProcesses();
            assertEquals(1, left.size(), "the sleep the engine left: " + left);
            engine.killTree();
            assertEquals(List.of(), engine.liveProcesses());
            assertFalse(ProcessTable.isLive(left.get(0)), "the sleep is dead (a zombie at most, its parent init's)");
        } finally {
            engine.killTree();
            engine.deleteScratch();
        }
    }

    /** A process that leads a group of its own (as an engine does) with pid {@code pid}. */
    private static Process startWithPid(long pid) throws Exception {
        for (int attempt = 0; attempt < 100; attempt++) {
            Files.writeString(LAST_PID, Long.toString(pid - 1));
            Process started = new ProcessBuilder("/usr/bin/setsid", "sleep", "600").start();
            if (started.pid() == pid) {
                return started;
            }
            started.destroyForcibly().waitFor(); // another process took the pid first
        }
        throw new AssertionError("no process got pid " + pid + " in 100 attempts");
    }
}
