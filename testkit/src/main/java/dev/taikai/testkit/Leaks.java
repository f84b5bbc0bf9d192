package dev.taikai.testkit;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * What a test started in this JVM and left running: threads, child processes and open file descriptors
 * that did not exist when the snapshot was taken. Whatever other tests left behind before the snapshot
 * does not count, so one test's failure cannot fail another's leak check.
 *
 * <p>Threads of the JDK's own pools (the process reaper, the common fork-join pool) are not counted:
 * they are shared, and they end on their own after idling.
 */
public final class Leaks {
    private static final List<String> JDK_POOL_THREADS = List.of("process reaper", "ForkJoinPool.commonPool");

    private static final String OWN_FD_DIRECTORY =
            "/proc/" + ProcessHandle.current().pid() + "/fd";

    private final Set<Thread> threads;
    private final Set<Long> processes;
    private final Map<String, String> files;

    private Leaks(Set<Thread> threads, Set<Long> processes, Map<String, String> files) {
        this.threads = threads;
        this.processes = processes;
        this.files = files;
    }

    /** What runs and is open now; call before the test starts anything. */
    public static Leaks snapshot() {
        return new Leaks(Set.copyOf(liveThreads()), Set.copyOf(liveChildProcesses()), openFiles());
    }

    /**
     * Waits up to {@code within} until every thread, process and file descriptor that appeared since the
     * snapshot is gone (threads end and processes are reaped a moment after what ended them).
     *
     * @throws AssertionError listing what is left
     */
    public void assertNoneLeft(Duration within) {
        Await.until(within, "nothing this test started may be left", () -> left().isEmpty(), this::left);
    }

    /**
     * Waits up to {@code within} until every child process that appeared since the snapshot is gone: for
     * tests of code that may keep threads of its own (an HTTP client's selector) after the work is done.
     */
    public void assertNoProcessesLeft(Duration within) {
        Await.until(
                within,
                "no process this test started may be left",
                () -> newProcesses().isEmpty(),
                () -> describe(newProcesses()));
    }

    private List<Long> newProcesses() {
        return liveChildProcesses().stream()
                .filter(pid -> !processes.contains(pid))
                .sorted()
                .toList();
    }

    /** A description of what is left since the snapshot, or an empty string. */
    public String left() {
        List<String> newThreads = liveThreads().stream()
                .filter(t -> !threads.contains(t))
                .filter(t -> JDK_POOL_THREADS.stream().noneMatch(t.getName()::startsWith))
                .map(Thread::getName)
                .sorted()
                .toList();
        List<Long> newProcesses = newProcesses();
        List<String> newFiles = openFiles().entrySet().stream()
                .filter(e -> !e.getValue().equals(files.get(e.getKey())))
                .map(e -> e.getKey() + " -> " + e.getValue())
                .sorted()
                .toList();
        StringBuilder out = new StringBuilder();
        if (!newThreads.isEmpty()) {
            out.append("threads ").append(newThreads);
        }
        if (!newProcesses.isEmpty()) {
            out.append(out.isEmpty() ? "" : "; ").append("processes ").append(describe(newProcesses));
        }
        if (!newFiles.isEmpty()) {
            out.append(out.isEmpty() ? "" : "; ").append("file descriptors ").append(newFiles);
        }
        return out.toString();
    }

    private static Set<Thread> liveThreads() {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(Thread::isAlive)
                .collect(Collectors.toSet());
    }

    /** Descendants of this JVM that are running (zombies, which hold nothing, excluded). */
    private static Set<Long> liveChildProcesses() {
        return ProcessHandle.current()
                .descendants()
                .map(ProcessHandle::pid)
                .filter(Leaks::running)
                .collect(Collectors.toSet());
    }

    private static boolean running(long pid) {
        try {
            String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
            char state = stat.charAt(stat.lastIndexOf(')') + 2);
            return state != 'Z' && state != 'X';
        } catch (IOException | RuntimeException e) {
            return false; // gone while we looked
        }
    }

    private static String describe(List<Long> pids) {
        return pids.stream()
                .map(pid -> pid + " ("
                        + ProcessHandle.of(pid)
                                .flatMap(h -> h.info().commandLine())
                                .map(c -> c.length() > 120 ? c.substring(0, 120) + "..." : c)
                                .orElse("?")
                        + ")")
                .toList()
                .toString();
    }

    /** This JVM's open file descriptors and what each points at. */
    private static Map<String, String> openFiles() {
        Map<String, String> open = new HashMap<>();
        try (Stream<Path> fds = Files.list(Path.of("/proc/self/fd"))) {
            for (Path fd : fds.toList()) {
                try {
                    String target = Files.readSymbolicLink(fd).toString();
                    if (!target.equals(OWN_FD_DIRECTORY)) { // the listing's own descriptor
                        open.put(fd.getFileName().toString(), target);
                    }
                } catch (IOException e) {
                    // closed while listed
                }
            }
        } catch (IOException e) {
            throw new AssertionError("cannot list /proc/self/fd", e);
        }
        return open;
    }
}
