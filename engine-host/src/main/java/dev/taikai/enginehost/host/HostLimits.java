package dev.taikai.enginehost.host;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The operating system's limits that bound how many engine sessions one process can host, checked against
 * what that many sessions need, so that a host says at its start what to raise rather than failing its
 * 900th engine start. What a session costs was measured with the light engine at 10 to 2,000 sessions
 * (bench/scale.sh): three descriptors in this process (the engine's input, output and error), one thread
 * of this process (the JDK's reaper of the engine's process) and the engine's own processes and threads,
 * all counted against the user's process limit and the kernel's pid space.
 *
 * @param openFiles this process's limit of open descriptors ({@code ulimit -n}), or −1 when unknown
 * @param processes the user's limit of processes and threads ({@code ulimit -u}), or −1 when unknown
 * @param pidMax the kernel's largest pid ({@code /proc/sys/kernel/pid_max}), or −1 when unknown
 */
public record HostLimits(long openFiles, long processes, long pidMax) {
    /** Descriptors of this process per engine session: its input, output and error pipes. */
    public static final int FILES_PER_SESSION = 3;
    /** Descriptors of the process itself, sessions aside (jars, sockets, the JVM's own). */
    public static final int BASE_FILES = 512;
    /** Threads per session: the JDK's reaper thread of the engine's process. */
    public static final int THREADS_PER_SESSION = 1;
    /** Processes and threads an engine is allowed for (its process and a few threads: Fairy-Stockfish has 3). */
    public static final int ENGINE_TASKS = 4;
    /** Threads of the process itself, sessions aside. */
    public static final int BASE_THREADS = 256;

    /** This process's limits, read from /proc. */
    public static HostLimits ofThisProcess() {
        long openFiles = -1;
        long processes = -1;
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/limits"))) {
                if (line.startsWith("Max open files")) {
                    openFiles = soft(line);
                } else if (line.startsWith("Max processes")) {
                    processes = soft(line);
                }
            }
        } catch (IOException | RuntimeException e) {
            // not Linux: nothing is known, nothing is said
        }
        long pidMax = -1;
        try {
            // one read for the whole file: Files.readString read "3" of "32768" (its first read asks for one byte,
            // and this file answers a read past its start with nothing)
            try (var in = new java.io.FileInputStream("/proc/sys/kernel/pid_max")) {
                pidMax = Long.parseLong(
                        new String(in.readNBytes(64), java.nio.charset.StandardCharsets.US_ASCII).strip());
            }
        } catch (IOException | RuntimeException e) {
            // unknown
        }
        return new HostLimits(openFiles, processes, pidMax);
    }

    /** The soft limit of a /proc/self/limits line; {@link Long#MAX_VALUE} for unlimited. */
    private static long soft(String line) {
        String[] words = line.substring(26).trim().split("\\s+");
        return words[0].equals("unlimited") ? Long.MAX_VALUE : Long.parseLong(words[0]);
    }

    /** Descriptors that {@code sessions} engine sessions in one process need. */
    public static long filesNeeded(int sessions) {
        return BASE_FILES + (long) FILES_PER_SESSION * sessions;
    }

    /** Processes and threads that {@code sessions} engine sessions and {@code gameThreads} games need. */
    public static long tasksNeeded(int sessions, int gameThreads) {
        return BASE_THREADS + (long) (THREADS_PER_SESSION + ENGINE_TASKS) * sessions + gameThreads;
    }

    /**
     * What is too low for {@code sessions} engine sessions and {@code gameThreads} game threads in this
     * process, each with the limit, what it needs and how to raise it; empty when nothing is.
     */
    public List<String> shortfalls(int sessions, int gameThreads) {
        return shortfalls(sessions, sessions, gameThreads);
    }

    /**
     * As {@link #shortfalls(int, int)} for processes of this user that host {@code sessionsPerProcess}
     * sessions each, {@code sessionsOfUser} in all (several workers of one machine, whose processes and
     * threads count against one limit).
     */
    public List<String> shortfalls(int sessionsPerProcess, int sessionsOfUser, int gameThreads) {
        List<String> found = new ArrayList<>();
        int sessions = sessionsPerProcess;
        long files = filesNeeded(sessions);
        if (openFiles >= 0 && openFiles < files) {
            found.add("open files: " + sessions + " engine sessions need about " + files + " descriptors and this"
                    + " process may open " + openFiles + " (raise it: ulimit -n " + files
                    + ", LimitNOFILE= in a systemd unit, or the container runtime's nofile ulimit)");
        }
        long tasks = tasksNeeded(sessionsOfUser, gameThreads);
        if (processes >= 0 && processes < tasks) {
            found.add("processes: " + sessionsOfUser + " engine sessions need about " + tasks + " processes and threads"
                    + " of this user and the limit is " + processes + " (raise it: ulimit -u " + tasks
                    + ", LimitNPROC=, or the pod's pids limit)");
        }
        if (pidMax >= 0 && pidMax < tasks) {
            found.add("pids: " + sessionsOfUser + " engine sessions need about " + tasks + " pids and the kernel has "
                    + pidMax + " (raise it: sysctl kernel.pid_max=" + Math.max(tasks, 4_194_304L) + ")");
        }
        return found;
    }

    /** The shortfalls in one line, or empty. */
    public Optional<String> warning(int sessions, int gameThreads) {
        List<String> found = shortfalls(sessions, gameThreads);
        return found.isEmpty() ? Optional.empty() : Optional.of(String.join("; ", found));
    }
}
