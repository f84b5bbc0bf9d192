package dev.taikai.enginehost.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@link CpuWait} on real processes pinned to one CPU with {@code taskset}: a busy process that shares its
 * CPU with another waits for it, and the wait is measured; a process that sleeps waits for nothing.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class CpuWaitTest {
    private static final long MILLI = 1_000_000;
    private final List<Process> started = new ArrayList<>();

    @AfterEach
    void stopThem() {
        started.forEach(Process::destroyForcibly);
    }

    /** The engine's and the manager's waits overlap: their sum is capped at the move (results.json had 62 ms in 7). */
    @Test
    void aMovesWaitIsAtMostTheMove() {
        assertEquals(7_000_000, CpuWait.ofMove(55_000_000, 7_000_000, 7_000_000));
        assertEquals(30_000_000, CpuWait.ofMove(20_000_000, 10_000_000, 50_000_000));
        assertEquals(0, CpuWait.ofMove(0, 0, 50_000_000));
    }

    @Test
    void aBusyProcessSharingItsCpuWaitsAndTheWaitIsMeasured() throws Exception {
        start("taskset", "-c", "0", "sh", "-c", "while :; do :; done"); // the other program
        Process searcher = start("taskset", "-c", "0", "sh", "-c", "while :; do :; done");
        CpuWait.Reading before = CpuWait.of(searcher.pid());
        long from = System.nanoTime();
        long deadline = from + 30_000 * MILLI;
        long waited = 0;
        while (waited < 100 * MILLI && System.nanoTime() < deadline) {
            Thread.onSpinWait();
            waited = CpuWait.of(searcher.pid()).since(before, System.nanoTime() - from);
        }
        assertTrue(waited >= 100 * MILLI, "waited only " + waited / MILLI + " ms for its shared CPU");
        assertTrue(waited <= System.nanoTime() - from + 20 * MILLI, "no more than the time that passed");
    }

    @Test
    void aProcessThatSleepsWaitsForNoCpu() throws Exception {
        start("taskset", "-c", "0", "sh", "-c", "while :; do :; done");
        Process sleeper = start("taskset", "-c", "0", "sleep", "30");
        CpuWait.Reading before = CpuWait.of(sleeper.pid());
        long from = System.nanoTime();
        while (System.nanoTime() - from < 300 * MILLI) {
            Thread.onSpinWait(); // a move of 300 ms in which the sleeper never wants the CPU
        }
        assertEquals(0, CpuWait.of(sleeper.pid()).since(before, System.nanoTime() - from));
    }

    /**
     * The caller's own wait: a thread that keeps busy beside as many busy programs (each a session of its
     * own, as engines are) as the machine has CPUs waits for a CPU, and its wait is measured; an unknown
     * first reading measures nothing.
     */
    @Test
    void aBusyCallerBesideBusyProgramsWaitsAndItsOwnWaitIsMeasured() throws Exception {
        for (int i = 0; i < Runtime.getRuntime().availableProcessors(); i++) {
            start("setsid", "sh", "-c", "while :; do :; done");
        }
        long before = CpuWait.callerWaited();
        assertTrue(before >= 0, "Linux says how long this thread waited");
        long deadline = System.nanoTime() + 30_000 * MILLI;
        long waited = 0;
        while (waited < 100 * MILLI && System.nanoTime() < deadline) {
            Thread.onSpinWait();
            waited = CpuWait.callerWaitSince(before);
        }
        assertTrue(waited >= 100 * MILLI, "waited only " + waited / MILLI + " ms for a CPU");
        assertEquals(0, CpuWait.callerWaitSince(-1), "nothing measured without a first reading");
    }

    @Test
    void aThreadTheFirstReadingMissedDoesNotBringItsWholeLifesWait() {
        long move = 350 * MILLI;
        CpuWait.Reading atGo =
                new CpuWait.Reading(Map.of("1", new CpuWait.ThreadTimes(9_000 * MILLI, 100 * MILLI)), Map.of(), 0);
        CpuWait.Reading atBestmove = new CpuWait.Reading(
                Map.of(
                        "1", new CpuWait.ThreadTimes(9_300 * MILLI, 140 * MILLI),
                        // there at go, but unreadable then: 1 s of wait over its life, not this move's
                        "2", new CpuWait.ThreadTimes(20_000 * MILLI, 1_000 * MILLI),
                        // born during the move: all its wait is this move's
                        "3", new CpuWait.ThreadTimes(200 * MILLI, 60 * MILLI)),
                Map.of(),
                move);
        assertEquals(60 * MILLI, atBestmove.since(atGo, move), "the born thread's 60 ms, not the missed one's 1 s");
    }

    /**
     * An engine with more busy threads than cores waits for its own threads: that is not time others took
     * from it. Eight spinning threads on two cores for twice a 500 ms move each waited about 900 ms, and all
     * of it was excused, so the engine never lost on time.
     */
    @Test
    void anEngineThatFillsEveryCoreItselfIsExcusedNothing() {
        long move = 1_000 * MILLI;
        Map<String, CpuWait.ThreadTimes> before = new java.util.HashMap<>();
        Map<String, CpuWait.ThreadTimes> after = new java.util.HashMap<>();
        for (int t = 0; t < 8; t++) {
            before.put(String.valueOf(t), new CpuWait.ThreadTimes(0, 0));
            after.put(String.valueOf(t), new CpuWait.ThreadTimes(250 * MILLI, 750 * MILLI)); // 8 x 250 ms = 2 cores
        }
        CpuWait.Reading atGo = new CpuWait.Reading(before, Map.of(), 0);
        CpuWait.Reading atBestmove = new CpuWait.Reading(after, Map.of(), move);
        assertEquals(0, atBestmove.since(atGo, move, 2), "its own threads filled both cores");
        assertEquals(750 * MILLI, atBestmove.since(atGo, move, 8), "on eight cores the others kept them waiting");
        // one thread beside busy programs: it ran 400 ms of a 1 s move and waited 600 ms, all of it others'
        CpuWait.Reading single =
                new CpuWait.Reading(Map.of("0", new CpuWait.ThreadTimes(400 * MILLI, 600 * MILLI)), Map.of(), move);
        CpuWait.Reading singleAtGo = new CpuWait.Reading(Map.of("0", new CpuWait.ThreadTimes(0, 0)), Map.of(), 0);
        assertEquals(600 * MILLI, single.since(singleAtGo, move, 2));
        assertEquals(600 * MILLI, single.since(singleAtGo, move, 1), "one core: the 600 ms were someone else's");
    }

    @Test
    void aProcessGoneOrUnknownWaitedNothing() {
        CpuWait.Reading none = CpuWait.of(Long.MAX_VALUE);
        assertEquals(0, none.since(none, 1_000 * MILLI));
    }

    @Test
    void theExcuseIsTheWaitAtMostTheOverrunAndAtMostTheAllowanceAndMargin() {
        assertEquals(30, CpuWait.excusedNanos(50, 30, 100, 10), "the wait");
        assertEquals(50, CpuWait.excusedNanos(50, 80, 100, 10), "at most the overrun");
        assertEquals(110, CpuWait.excusedNanos(500, 400, 100, 10), "at most allowance plus margin");
        assertEquals(0, CpuWait.excusedNanos(0, 400, 100, 10), "no overrun, nothing to excuse");
        assertEquals(0, CpuWait.excusedNanos(50, -5, 100, 10), "a negative wait from a lying worker");
    }

    private Process start(String... command) throws Exception {
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        started.add(process);
        return process;
    }
}
