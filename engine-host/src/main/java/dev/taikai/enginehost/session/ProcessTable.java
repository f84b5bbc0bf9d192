package dev.taikai.enginehost.session;

import java.io.FileInputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

/**
 * The live processes of an engine, read from Linux's {@code /proc}: the members of its process group
 * (engines start in their own session, so the group is the engine and everything it forked), its
 * descendants, and the processes that hold its output's pipes. Zombies, which hold no resources, do not
 * count as live.
 *
 * <p>A look reads only the engine's tree and the orphans adopted since the engine started, through the
 * kernel's lists of each process's children ({@link KernelView}): reading every process of the host, as
 * it did, cost 150 ms of CPU a look at 2,000 processes, two or three looks a session's end, so that the
 * cost of a game grew with the games at once. Where the kernel has no such lists, every process's stat
 * line is read ({@link Snapshot}), once for all the callers that ask while a reading is under way.
 */
public final class ProcessTable {
    private static final Path PROC = Path.of("/proc");

    private ProcessTable() {}

    /**
     * Live processes in process group {@code groupId} or descended from {@code rootPid}, the root included;
     * −1 for either: none.
     */
    public static List<Long> liveProcessesOf(long rootPid, long groupId) {
        return liveProcessesOf(rootPid, groupId, Set.of());
    }

    /** As {@link #liveProcessesOf(long, long, Set, long)}, for a root that is alive: started when it started. */
    public static List<Long> liveProcessesOf(long rootPid, long groupId, Set<String> pipes) {
        return liveProcessesOf(rootPid, groupId, pipes, -1);
    }

    /**
     * As {@link #liveProcessesOf(long, long)}, and the processes, this one excepted, that hold one of {@code
     * pipes} open ({@link #outputPipes}): an engine's helper that left its process group (a double fork and
     * {@code setsid}) and kept the engine's output, whose end of the pipe keeps that output from closing.
     * Such a helper was started at or after the engine ({@code startTicks}, {@link #startTicks}; −1: when
     * the root started) and is a child of the engine's processes or, once its parent ended, of the process
     * that adopts orphans: init, or a subreaper among this process's ancestors. Only such processes have
     * their descriptors read.
     *
     * <p>A child of this process still in this process's group that holds one of {@code pipes} is not the
     * engine's: it is a program being started, which holds a copy of every descriptor of this process (the
     * engine's pipes among them) from its fork until it closes them before its exec. Killing it would kill
     * another engine's start. No process of an engine is in this group: the engine starts in a session of
     * its own ({@code setsid}, where util-linux has it), and a process cannot join a group of another
     * session.
     */
    public static List<Long> liveProcessesOf(long rootPid, long groupId, Set<String> pipes, long startTicks) {
        return liveProcessesOf(rootPid, groupId, pipes, startTicks, !KernelView.AVAILABLE);
    }

    /** As {@link #liveProcessesOf(long, long, Set, long)}; {@code readAll}: from a reading of every process. */
    static List<Long> liveProcessesOf(long rootPid, long groupId, Set<String> pipes, long startTicks, boolean readAll) {
        View view = readAll ? Snapshot.takenAfter(System.nanoTime()) : new KernelView();
        Set<Long> result = new java.util.LinkedHashSet<>();
        Stat root = rootPid > 0 ? view.stat(rootPid) : null;
        if (root != null) {
            for (long pid : view.subtree(rootPid)) {
                Stat stat = view.stat(pid);
                if (stat != null && stat.live()) {
                    result.add(pid);
                }
            }
        }
        long since = startTicks >= 0 ? startTicks : root != null ? root.startTicks : 0;
        long self = ProcessHandle.current().pid();
        Stat selfStat = view.stat(self);
        Set<Long> lineage = view.ancestorsOf(self);
        lineage.add(self);
        // outside the root's tree an engine's process is an orphan's subtree: adopted by init or a subreaper,
        // which can only be among this process's ancestors (or the engine's processes, already counted)
        for (long adopter : view.ancestorsOf(self)) {
            for (long child : view.children(adopter)) {
                Stat top = view.stat(child);
                if (lineage.contains(child) || top == null || top.startTicks < since) {
                    continue; // a process older than the engine is not the engine's, nor what it started
                }
                for (long pid : view.subtree(child)) {
                    Stat stat = view.stat(pid);
                    if (stat != null
                            && stat.live()
                            && pid != self
                            && !(stat.ppid == self && selfStat != null && stat.pgrp == selfStat.pgrp)
                            && ((groupId > 0 && stat.pgrp == groupId) || holds(pid, pipes))) {
                        result.add(pid);
                    }
                }
            }
        }
        return new ArrayList<>(result);
    }

    /** What the table reads of processes: their stat lines and who their children are. */
    private interface View {
        /** The stat line of {@code pid}, or null when it is gone. */
        Stat stat(long pid);

        List<Long> children(long pid);

        /** {@code pid} and all its descendants. */
        default List<Long> subtree(long pid) {
            List<Long> tree = new ArrayList<>();
            Set<Long> seen = new HashSet<>();
            ArrayDeque<Long> next = new ArrayDeque<>(List.of(pid));
            while (!next.isEmpty()) {
                long at = next.removeFirst();
                if (seen.add(at)) {
                    tree.add(at);
                    next.addAll(children(at));
                }
            }
            return tree;
        }

        /** The ancestors of {@code pid}, init included: where an orphan of its descendants may be adopted. */
        default Set<Long> ancestorsOf(long pid) {
            Set<Long> ancestors = new java.util.LinkedHashSet<>();
            Stat stat = stat(pid);
            while (stat != null && stat.ppid > 0 && ancestors.add(stat.ppid)) {
                stat = stat(stat.ppid);
            }
            ancestors.add(1L);
            return ancestors;
        }
    }

    /**
     * Children as the kernel lists them ({@code /proc/PID/task/TID/children}, where the kernel has it), and
     * the stat lines of just the processes looked at: the cost of a look is the engine's tree and the
     * orphans adopted since it started, not the whole host.
     */
    private static final class KernelView implements View {
        static final boolean AVAILABLE = Files.exists(
                Path.of("/proc/self/task/" + ProcessHandle.current().pid() + "/children"));

        private final Map<Long, Stat> stats = new HashMap<>();
        private final byte[] buffer = new byte[Stat.BUFFER];

        @Override
        public Stat stat(long pid) {
            return stats.computeIfAbsent(pid, p -> Stat.read(p, buffer));
        }

        @Override
        public List<Long> children(long pid) {
            List<Long> children = new ArrayList<>();
            String[] tasks = PROC.resolve(pid + "/task").toFile().list();
            for (String task : tasks == null ? new String[0] : tasks) {
                try {
                    String listed = Files.readString(PROC.resolve(pid + "/task/" + task + "/children"));
                    for (String child : listed.trim().split(" ")) {
                        if (!child.isEmpty()) {
                            children.add(Long.parseLong(child));
                        }
                    }
                } catch (IOException | RuntimeException e) {
                    // the thread ended while listed
                }
            }
            return children;
        }
    }

    /** When {@code pid} started, in clock ticks since boot (/proc's stat), or −1 when it is gone. */
    public static long startTicks(long pid) {
        Stat stat = Stat.read(pid, new byte[Stat.BUFFER]);
        return stat == null ? -1 : stat.startTicks;
    }

    /** Stat lines read so far by this process: what a look costs, for tests. */
    static final java.util.concurrent.atomic.LongAdder READ = new java.util.concurrent.atomic.LongAdder();

    /** What one process's stat line says that this table needs. */
    private record Stat(long pid, char state, long ppid, long pgrp, long session, long startTicks) {
        static final int BUFFER = 1024;

        boolean live() {
            return state != 'Z' && state != 'X';
        }

        /** The stat line of {@code pid}, or null when it is gone or unreadable. */
        static Stat read(long pid, byte[] buffer) {
            READ.increment();
            int length;
            try (FileInputStream in = new FileInputStream("/proc/" + pid + "/stat")) {
                length = in.readNBytes(buffer, 0, buffer.length);
            } catch (IOException e) {
                return null;
            }
            int close = length;
            while (close > 0 && buffer[close - 1] != ')') {
                close--;
            }
            if (close == 0 || close + 2 >= length) {
                return null;
            }
            // after "pid (comm) ": state ppid pgrp session tty_nr tpgid flags minflt cminflt majflt cmajflt
            // utime stime cutime cstime priority nice num_threads itrealvalue starttime
            long[] fields = new long[20];
            int field = 0;
            int at = close + 3;
            long value = 0;
            for (; at < length && field < fields.length; at++) {
                byte b = buffer[at];
                if (b == ' ' || b == '\n') {
                    fields[field++] = value;
                    value = 0;
                } else if (b >= '0' && b <= '9') {
                    value = value * 10 + (b - '0');
                }
            }
            return field < 19
                    ? null
                    : new Stat(pid, (char) buffer[close + 1], fields[0], fields[1], fields[2], fields[18]);
        }
    }

    /**
     * Every process's stat line, read at one moment. {@link #takenAfter} hands out a reading begun after the
     * given time, and callers that come while one is under way share the next one.
     */
    private static final class Snapshot implements View {
        private static final Object LOCK = new Object();
        private static Snapshot latest;

        final long beganNanos;
        final Map<Long, Stat> stats = new HashMap<>();
        private final Map<Long, List<Long>> children = new HashMap<>();

        private Snapshot(long beganNanos) {
            this.beganNanos = beganNanos;
        }

        static Snapshot takenAfter(long nanos) {
            synchronized (LOCK) {
                if (latest == null || latest.beganNanos - nanos < 0) {
                    latest = read();
                }
                return latest;
            }
        }

        private static Snapshot read() {
            Snapshot snapshot = new Snapshot(System.nanoTime());
            String[] names = PROC.toFile().list();
            byte[] buffer = new byte[Stat.BUFFER];
            for (String name : names == null ? new String[0] : names) {
                if (name.isEmpty() || !name.chars().allMatch(Character::isDigit)) {
                    continue;
                }
                Stat stat = Stat.read(Long.parseLong(name), buffer);
                if (stat != null) {
                    snapshot.stats.put(stat.pid, stat);
                    snapshot.children
                            .computeIfAbsent(stat.ppid, k -> new ArrayList<>())
                            .add(stat.pid);
                }
            }
            return snapshot;
        }

        @Override
        public Stat stat(long pid) {
            return stats.get(pid);
        }

        @Override
        public List<Long> children(long pid) {
            return children.getOrDefault(pid, List.of());
        }
    }

    /**
     * The pipes that {@code pid}'s standard output and error go to, as /proc names them ({@code
     * pipe:[12345]}); empty when they are not pipes or cannot be read (the process is gone).
     */
    public static Set<String> outputPipes(long pid) {
        Set<String> pipes = new HashSet<>();
        for (int fd : new int[] {1, 2}) {
            try {
                String target =
                        Files.readSymbolicLink(PROC.resolve(pid + "/fd/" + fd)).toString();
                if (target.startsWith("pipe:")) {
                    pipes.add(target);
                }
            } catch (IOException | RuntimeException e) {
                // gone, or not ours to read
            }
        }
        return pipes;
    }

    /** True when {@code pid} has one of {@code pipes} open; false for none, or a process gone or another user's. */
    private static boolean holds(long pid, Set<String> pipes) {
        if (pipes.isEmpty()) {
            return false;
        }
        try (Stream<Path> open = Files.list(PROC.resolve(pid + "/fd"))) {
            for (Path fd : open.toList()) {
                try {
                    if (pipes.contains(Files.readSymbolicLink(fd).toString())) {
                        return true;
                    }
                } catch (IOException | RuntimeException e) {
                    // closed while listed
                }
            }
        } catch (IOException | RuntimeException e) {
            // gone, or another user's
        }
        return false;
    }

    /** The process group of {@code pid}, or −1 when it is gone or unreadable. */
    public static long processGroup(long pid) {
        Stat stat = Stat.read(pid, new byte[Stat.BUFFER]);
        return stat == null ? -1 : stat.pgrp;
    }

    /** The session of {@code pid}, or −1 when it is gone or unreadable. */
    public static long session(long pid) {
        Stat stat = Stat.read(pid, new byte[Stat.BUFFER]);
        return stat == null ? -1 : stat.session;
    }

    /** True unless the process is gone, a zombie or dead. */
    static boolean isLive(long pid) {
        Stat stat = Stat.read(pid, new byte[Stat.BUFFER]);
        if (stat == null) {
            return ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
        }
        return stat.live();
    }
}
