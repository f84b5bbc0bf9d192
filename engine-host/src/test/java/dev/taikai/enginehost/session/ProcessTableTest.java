package dev.taikai.enginehost.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

class ProcessTableTest {
    /** Programs started while the looking goes on: enough that, taken for the engine's, some would be. */
    private static final int STARTS = 300;

    /**
     * A program this process starts while an engine's processes are looked for is not one of them, though
     * it holds the engine's pipes from its fork until it closes them before its exec. Taken for one, it was
     * killed with a failed engine: another game's engine failed to start ("Failed to exec spawn helper ...
     * signal: 9"), a disconnect its engine never made.
     */
    @Test
    void aProgramBeingStartedIsNotTakenForAnEnginesProcess() throws Exception {
        Process engine = new ProcessBuilder("sleep", "600").start();
        try {
            Set<String> pipes = ProcessTable.outputPipes(engine.pid());
            assertFalse(pipes.isEmpty(), "the engine's output goes to pipes");
            Set<Long> strangers = ConcurrentHashMap.newKeySet();
            AtomicBoolean started = new AtomicBoolean();
            Thread looking = new Thread(() -> {
                while (!started.get()) {
                    for (long pid : ProcessTable.liveProcessesOf(engine.pid(), -1, pipes)) {
                        if (pid != engine.pid()) {
                            strangers.add(pid);
                        }
                    }
                }
            });
            looking.start();
            for (int i = 0; i < STARTS; i++) {
                assertEquals(0, new ProcessBuilder("/bin/true").start().waitFor());
            }
            started.set(true);
            looking.join();
            assertEquals(Set.of(), strangers, "programs being started, taken for the engine's processes");
        } finally {
            engine.destroyForcibly();
        }
    }
}
