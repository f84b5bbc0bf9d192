package dev.taikai.enginehost.host;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.taikai.enginehost.catalog.EngineSpec;
import dev.taikai.enginehost.engines.Engines;
import dev.taikai.enginehost.session.LocalEngine;
import dev.taikai.enginehost.session.StartResult;
import dev.taikai.enginehost.session.Timeouts;
import dev.taikai.rules.Variant;
import dev.taikai.testkit.LightEngine;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class HostLimitsTest {
    private static final int SESSIONS = 40;

    /**
     * What an engine session costs this process stays what the limits are reckoned from: three descriptors
     * and one thread each (a thread per pipe, or a timer per game, would show here first).
     */
    @Test
    void anEngineSessionCostsThreeDescriptorsAndOneThread() throws Exception {
        EngineSpec spec = EngineSpec.of("light", LightEngine.command());
        ((LocalEngine) Engines.start(spec, Variant.MINISHOGI, Timeouts.DEFAULT)).close(); // classes loaded
        long filesBefore = openFiles();
        long threadsBefore = threads();
        List<LocalEngine> engines = new ArrayList<>();
        try {
            for (int i = 0; i < SESSIONS; i++) {
                StartResult started = Engines.start(spec, Variant.MINISHOGI, Timeouts.DEFAULT);
                engines.add((LocalEngine) started);
            }
            long files = openFiles() - filesBefore;
            long threads = threads() - threadsBefore;
            assertTrue(
                    files <= (long) SESSIONS * HostLimits.FILES_PER_SESSION + 8,
                    files + " descriptors for " + SESSIONS + " sessions");
            assertTrue(
                    threads <= (long) SESSIONS * HostLimits.THREADS_PER_SESSION + 8,
                    threads + " threads for " + SESSIONS + " sessions");
        } finally {
            engines.forEach(LocalEngine::close);
        }
    }

    @Test
    void limitsTooLowForTheSessionsAreSaidWithWhatToRaise() {
        HostLimits low = new HostLimits(1024, 2000, 32768);
        List<String> said = low.shortfalls(500, 2000, 1000);
        assertEquals(2, said.size(), said.toString());
        assertTrue(
                said.get(0)
                        .startsWith("open files: 500 engine sessions need about 2012 descriptors and this process"
                                + " may open 1024 (raise it: ulimit -n 2012"),
                said.get(0));
        assertTrue(said.get(1).startsWith("processes: 2000 engine sessions need about 11256"), said.get(1));
        assertEquals(List.of(), new HostLimits(1 << 20, 1 << 20, 4_194_304).shortfalls(500, 2000, 1000));
        assertEquals(List.of(), new HostLimits(-1, -1, -1).shortfalls(500, 2000, 1000), "unknown limits say nothing");
    }

    /** kernel.pid_max was read as 3 of 32768 (a read of one byte first), and every cluster up warned of it. */
    @Test
    void theKernelsPidLimitIsReadWhole() throws Exception {
        long pidMax = Long.parseLong(
                Files.readAllLines(Path.of("/proc/sys/kernel/pid_max")).get(0).strip());
        assertEquals(pidMax, HostLimits.ofThisProcess().pidMax());
    }

    private static long openFiles() throws Exception {
        try (var fds = Files.list(Path.of("/proc/self/fd"))) {
            return fds.count();
        }
    }

    private static long threads() throws Exception {
        for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
            if (line.startsWith("Threads:")) {
                return Long.parseLong(line.substring(8).trim());
            }
        }
        throw new IllegalStateException("no Threads line");
    }
}
