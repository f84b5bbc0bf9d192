package dev.taikai.enginehost.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.taikai.testkit.Await;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
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

    /**
     * A look at an engine's processes reads the engine's tree and what was adopted since it started, not
     * every process of the host: with 2,000 engines on a host, each session's end read 2,000 stat lines and
     * listed the descriptors of the rest, 150 ms of CPU, two or three times.
     */
    @Test
    void aLookAtAnEnginesProcessesDoesNotReadTheOtherEngines() throws Exception {
        List<Process> others = new ArrayList<>();
        Process engine = new ProcessBuilder("setsid", "sleep", "600").start();
        try {
            for (int i = 0; i < 200; i++) {
                others.add(new ProcessBuilder("setsid", "sleep", "600").start());
            }
            long before = ProcessTable.READ.sum();
            List<Long> found = ProcessTable.liveProcessesOf(
                    engine.pid(),
                    engine.pid(),
                    ProcessTable.outputPipes(engine.pid()),
                    ProcessTable.startTicks(engine.pid()));
            long read = ProcessTable.READ.sum() - before;
            assertEquals(List.of(engine.pid()), found);
            assertTrue(read < 100, read + " stat lines read for one engine beside 200 others");
        } finally {
            others.forEach(Process::destroyForcibly);
            engine.destroyForcibly();
        }
    }

    /** Where the kernel lists no children, a reading of every process finds what the kernel's lists find. */
    @Test
    void aReadingOfEveryProcessFindsAnEscapedHelperAsTheKernelsListsDo() throws Exception {
        Path pidFile = Files.createTempFile("escaped", ".pid");
        Process engine = new ProcessBuilder(
                        "setsid", "sh", "-c", "(setsid sleep 600 & echo $! > " + pidFile + "); exec sleep 600")
                .start();
        long escaped = -1;
        try {
            Await.until(
                    java.time.Duration.ofSeconds(30),
                    "the helper's pid is written",
                    () -> pidFile.toFile().length() > 0);
            escaped = Long.parseLong(Files.readString(pidFile).strip());
            Set<String> pipes = ProcessTable.outputPipes(engine.pid());
            long started = ProcessTable.startTicks(engine.pid());
            List<Long> kernel = ProcessTable.liveProcessesOf(engine.pid(), engine.pid(), pipes, started, false);
            List<Long> everyProcess = ProcessTable.liveProcessesOf(engine.pid(), engine.pid(), pipes, started, true);
            assertTrue(kernel.contains(escaped) && kernel.contains(engine.pid()), kernel.toString());
            assertEquals(Set.copyOf(kernel), Set.copyOf(everyProcess));
        } finally {
            engine.destroyForcibly();
            if (escaped > 0) {
                ProcessHandle.of(escaped).ifPresent(ProcessHandle::destroyForcibly);
            }
            Files.deleteIfExists(pidFile);
        }
    }
}
