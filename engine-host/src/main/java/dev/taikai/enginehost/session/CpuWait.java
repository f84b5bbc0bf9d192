package dev.taikai.enginehost.session;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * How long an engine was ready to run but had no CPU during a move, as Linux counts it: the largest wait
 * of one of its threads, plus the largest steal of one CPU. Any thread's wait can be the move's delay: the
 * thread that reads {@code go} waits before the engine's own clock even starts (Fairy-Stockfish's input
 * thread waited up to 96 ms so, on two crowded cores, and its search then kept to its 50 ms), the search
 * thread waits while it searches. The wait counts only when the engine wanted a CPU for nine tenths of
 * the move or more (its threads ran, or waited to run, that long in all), as a search does from {@code go}
 * to {@code bestmove}; an engine that sleeps past its time, or waits for anything but a CPU, does not.
 *
 * <ul>
 *   <li>a thread's wait: the second field of {@code /proc/<pid>/task/<tid>/schedstat}, nanoseconds
 *       runnable without running while other programs had the CPU;
 *   <li>steal ({@code /proc/stat}, in USER_HZ ticks of 10 ms): the time a virtual machine's host ran
 *       something else while the machine's threads seemed to run.
 * </ul>
 *
 * <p>The manager's own thread can wait too: a move's time runs from writing {@code go} to reading {@code
 * bestmove} on the caller's thread, so a wait of that thread for a CPU while it writes the one or reads the
 * other lengthens the move without being the engine's. {@link #callerWaited} and {@link #callerWaitSince}
 * measure it ({@code /proc/thread-self/schedstat}), and the drivers add it to the move's CPU wait whatever
 * the engine did, for it is the manager's time, not the engine's.
 *
 * <p>Where {@code /proc} does not say (another system, a process gone), the wait is 0: nothing is
 * excused that was not measured.
 */
public final class CpuWait {
    private static final Path PROC = Path.of("/proc");
    /** Linux reports {@code /proc/stat} in USER_HZ, 100 per second on every architecture it runs on. */
    private static final long NANOS_PER_TICK = 10_000_000;

    /** A thread's time on a CPU and waiting for one, so far, nanoseconds. */
    record ThreadTimes(long ran, long waited) {}

    /** Each thread's times and each CPU's steal so far, at one moment; empty when unreadable. */
    public static final class Reading {
        private final Map<String, ThreadTimes> threads;
        private final Map<String, Long> stolenByCpu;
        /** {@link System#nanoTime} when it was read. */
        private final long atNanos;

        Reading(Map<String, ThreadTimes> threads, Map<String, Long> stolenByCpu, long atNanos) {
            this.threads = threads;
            this.stolenByCpu = stolenByCpu;
            this.atNanos = atNanos;
        }

        /** The longest wait for a CPU of one of the threads, over each thread's life so far, nanoseconds. */
        public long longestWaitNanos() {
            long longest = 0;
            for (ThreadTimes thread : threads.values()) {
                longest = Math.max(longest, thread.waited());
            }
            return longest;
        }

        /**
         * Nanoseconds the engine waited for a CPU since {@code earlier}, over a move of {@code moveNanos}:
         * the largest wait of one thread plus the largest steal of one CPU; 0 when its threads wanted a CPU
         * for less than nine tenths of the move in all. A thread born since {@code earlier} counts from 0;
         * one that {@code earlier} missed (its times since birth are more than the time between the two
         * readings: it was there, and unreadable) is left out, for its times since are not known. No
         * thread waits longer than the time between the readings, and the wait is at most the CPU time the
         * machine's cores had left beside the engine's own: an engine whose threads outnumber the cores
         * waits for itself, and that is its own time (eight busy threads on two cores took twice their time
         * and had it all excused).
         */
        public long since(Reading earlier, long moveNanos) {
            return since(earlier, moveNanos, Runtime.getRuntime().availableProcessors());
        }

        /** {@link #since(Reading, long)} on a machine of {@code cores} cores. */
        long since(Reading earlier, long moveNanos, int cores) {
            long between = Math.max(0, atNanos - earlier.atNanos);
            long wanted = 0;
            long ranInAll = 0;
            long waited = 0;
            for (Map.Entry<String, ThreadTimes> thread : threads.entrySet()) {
                ThreadTimes before = earlier.threads.get(thread.getKey());
                ThreadTimes now = thread.getValue();
                if (before == null && now.ran() + now.waited() > between) {
                    continue; // missed by the earlier reading: its whole life's wait is not this move's
                }
                before = before == null ? new ThreadTimes(0, 0) : before;
                long ran = now.ran() - before.ran();
                long wait = Math.min(between, now.waited() - before.waited());
                wanted += ran + wait;
                ranInAll += ran;
                waited = Math.max(waited, wait);
            }
            if (wanted < moveNanos / 10 * 9) {
                return 0;
            }
            // what others can have kept from it: the cores' time between the readings less the engine's own
            waited = Math.min(waited, Math.max(0, cores * between - ranInAll));
            long stolen = 0;
            for (Map.Entry<String, Long> cpu : stolenByCpu.entrySet()) {
                stolen = Math.max(
                        stolen, cpu.getValue() - earlier.stolenByCpu.getOrDefault(cpu.getKey(), cpu.getValue()));
            }
            return waited + stolen;
        }
    }

    private CpuWait() {}

    /**
     * A move's CPU wait: the engine's and the manager's thread's, which can overlap in time (both wait for
     * the same busy core) and a steal counted in 10 ms ticks, so their sum is capped at the move's own
     * {@code moveNanos}: no move waited longer than it lasted (a 7 ms move was said to have waited 62).
     */
    public static long ofMove(long engineWaitNanos, long callerWaitNanos, long moveNanos) {
        return Math.max(0, Math.min(engineWaitNanos + callerWaitNanos, moveNanos));
    }

    /**
     * The part of a move's overrun that does not count against its overrun margin: the time the engine
     * waited for a CPU, at most the move's allowance plus margin (so a worker that overstates the wait
     * gains at most one more move's time), and at most the overrun itself. The referee's clock and the
     * engine check both judge by it.
     */
    public static long excusedNanos(long overrunNanos, long cpuWaitNanos, long allowedNanos, long marginNanos) {
        return Math.max(0, Math.min(overrunNanos, Math.min(cpuWaitNanos, allowedNanos + marginNanos)));
    }

    /**
     * How long the calling thread has waited for a CPU in its life so far, nanoseconds; -1 where Linux does
     * not say. A reading for {@link #callerWaitSince}.
     */
    public static long callerWaited() {
        ThreadTimes times = timesOf(PROC.resolve("thread-self/schedstat"));
        return times == null ? -1 : times.waited();
    }

    /**
     * How long the calling thread waited for a CPU since it read {@code before} from {@link #callerWaited}:
     * 0 when either reading is unknown.
     */
    public static long callerWaitSince(long before) {
        if (before < 0) {
            return 0;
        }
        long now = callerWaited();
        return now < 0 ? 0 : Math.max(0, now - before);
    }

    /** The threads of process {@code pid} and their times, and the CPUs' steal, now. */
    public static Reading of(long pid) {
        return new Reading(threadTimes(pid), steal(), System.nanoTime());
    }

    private static Map<String, ThreadTimes> threadTimes(long pid) {
        Map<String, ThreadTimes> times = new HashMap<>();
        try (DirectoryStream<Path> tasks = Files.newDirectoryStream(PROC.resolve(pid + "/task"))) {
            for (Path task : tasks) {
                ThreadTimes thread = timesOf(task.resolve("schedstat"));
                if (thread != null) {
                    times.put(task.getFileName().toString(), thread);
                }
            }
        } catch (IOException | RuntimeException e) {
            // the process is gone or /proc is not Linux's: what was read still holds
        }
        return times;
    }

    /** The times in {@code schedstat} ("run-time wait-time timeslices"), or null. */
    private static ThreadTimes timesOf(Path schedstat) {
        try {
            String[] fields = Files.readString(schedstat, StandardCharsets.US_ASCII)
                    .trim()
                    .split(" ");
            return fields.length >= 2 ? new ThreadTimes(Long.parseLong(fields[0]), Long.parseLong(fields[1])) : null;
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /** Steal per CPU ({@code cpuN} lines of {@code /proc/stat}, the eighth number), in nanoseconds. */
    private static Map<String, Long> steal() {
        Map<String, Long> stolen = new HashMap<>();
        try {
            for (String line : Files.readAllLines(PROC.resolve("stat"), StandardCharsets.US_ASCII)) {
                if (!line.startsWith("cpu") || line.startsWith("cpu ")) {
                    continue;
                }
                String[] fields = line.trim().split(" +");
                if (fields.length > 8) {
                    stolen.put(fields[0], Long.parseLong(fields[8]) * NANOS_PER_TICK);
                }
            }
        } catch (IOException | RuntimeException e) {
            // not Linux's /proc: no steal is known
        }
        return stolen;
    }
}
