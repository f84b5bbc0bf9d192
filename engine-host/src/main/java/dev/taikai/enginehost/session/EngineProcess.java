package dev.taikai.enginehost.session;

import dev.taikai.enginehost.catalog.EngineSpec;
import dev.taikai.enginehost.catalog.ProcessLimits;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * One engine process. It starts through {@code setsid} (its own session and process group, so the
 * whole tree can be found and killed), {@code setpriv --pdeathsig KILL} (the kernel kills it when the
 * thread that started it ends, so an engine never outlives its host, even one killed with SIGKILL) and
 * {@code prlimit} (address space, process count, no core dumps), all from util-linux, and without network
 * where the host allows it ({@link EngineNetwork}). Without setsid and prlimit the engine starts directly
 * and {@link #limitsApplied()} says so.
 */
final class EngineProcess {
    /**
     * Engines of this JVM not yet killed. As the JVM exits (Ctrl-C, SIGTERM) each is killed with all it
     * started, whatever command hosts it: the kernel kills an engine with its host, but not what the engine
     * started (an engine's helper, a sleep), which was left running.
     */
    private static final Set<EngineProcess> LIVE = ConcurrentHashMap.newKeySet();

    static {
        Runtime.getRuntime()
                .addShutdownHook(new Thread(
                        () -> LIVE.forEach(engine -> {
                            engine.killTreeOnce();
                            engine.deleteScratch();
                        }),
                        "taikai-engines-at-exit"));
    }

    private static final Path SETSID = Path.of("/usr/bin/setsid");
    private static final Path PRLIMIT = Path.of("/usr/bin/prlimit");
    private static final Path SETPRIV = Path.of("/usr/bin/setpriv");

    private final Process process;
    private final boolean limitsApplied;
    private final Path workingDirectory;
    /** The session's own scratch directory (the engine's working directory), or null for the catalog's. */
    private final Path scratch;

    /** The pipes of the engine's output and errors (/proc's {@code pipe:[N]}), read at its start. */
    private final Set<String> outputPipes;
    /** When the engine started ({@link ProcessTable#startTicks}): a helper of its started no earlier. */
    private final long startTicks;

    private EngineProcess(
            Process process,
            boolean limitsApplied,
            Path workingDirectory,
            Path scratch,
            Set<String> outputPipes,
            long startTicks) {
        this.outputPipes = outputPipes;
        this.startTicks = startTicks;
        this.process = process;
        this.limitsApplied = limitsApplied;
        this.workingDirectory = workingDirectory;
        this.scratch = scratch;
    }

    /**
     * Starts the engine of {@code spec}.
     *
     * @throws IOException with a message naming the command when it cannot be started
     */
    static EngineProcess start(EngineSpec spec) throws IOException {
        Path program = resolve(spec.command().get(0), spec.workingDirectory());
        List<String> argv = new ArrayList<>();
        boolean limited = Files.isExecutable(SETSID) && Files.isExecutable(PRLIMIT);
        if (limited) {
            ProcessLimits limits = spec.limits();
            argv.add(SETSID.toString());
            // before setpriv: entering a user namespace would clear the parent-death signal
            argv.addAll(EngineNetwork.isolation().prefix());
            if (Files.isExecutable(SETPRIV)) {
                argv.addAll(List.of(SETPRIV.toString(), "--pdeathsig", "KILL", "--"));
            }
            argv.add(PRLIMIT.toString());
            if (limits.memoryMegabytes() > 0) {
                argv.add("--as=" + limits.memoryMegabytes() * 1024 * 1024);
            }
            if (limits.processes() > 0) {
                argv.add("--nproc=" + limits.processes());
            }
            argv.add("--core=0");
            argv.add("--");
        } else {
            argv.addAll(EngineNetwork.isolation().prefix());
        }
        argv.add(program.toString());
        argv.addAll(spec.command().subList(1, spec.command().size()));
        ProcessBuilder builder = new ProcessBuilder(argv);
        Path scratch = spec.workingDirectory() == null ? Files.createTempDirectory("taikai-engine-") : null;
        Path workingDirectory = (scratch != null ? scratch : spec.workingDirectory())
                .toAbsolutePath()
                .normalize();
        builder.directory(workingDirectory.toFile());
        Map<String, String> environment = builder.environment();
        environment.keySet().removeIf(name -> name.startsWith("TAIKAI_")); // the worker's own settings and secrets
        environment.putAll(spec.environment());
        try {
            Process started = builder.start();
            // read now, while the engine runs: a helper that escapes its group is found by these later
            EngineProcess engine = new EngineProcess(
                    started,
                    limited,
                    workingDirectory,
                    scratch,
                    ProcessTable.outputPipes(started.pid()),
                    Math.max(0, ProcessTable.startTicks(started.pid())));
            LIVE.add(engine);
            return engine;
        } catch (IOException | RuntimeException e) {
            deleteTree(scratch);
            throw e;
        }
    }

    /**
     * Where the engine runs: its catalog entry's {@code workdir}, or else a scratch directory of its own,
     * made for this session and deleted with it, so that whatever the engine writes stays out of the
     * host's directories and out of other sessions' way.
     */
    Path workingDirectory() {
        return workingDirectory;
    }

    /** Deletes the session's scratch directory, if it has one; call once the engine is gone. */
    void deleteScratch() {
        LIVE.remove(this);
        deleteTree(scratch);
    }

    private static void deleteTree(Path root) {
        if (root == null || !Files.exists(root)) {
            return;
        }
        try (var paths = Files.walk(root)) {
            for (Path path : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(path);
            }
        } catch (IOException | java.io.UncheckedIOException e) {
            // a file the engine keeps open, or one made unreadable: the temporary directory's cleaner takes it
        }
    }

    /** The program's path: as given when it contains a '/', otherwise the first match on PATH. */
    static Path resolve(String command, Path workingDirectory) throws IOException {
        if (workingDirectory != null && !Files.isDirectory(workingDirectory)) {
            // said here: the start would blame the first program it runs (setsid) for the missing directory
            throw new IOException("the engine's working directory " + workingDirectory + " is not a directory");
        }
        if (command.contains("/")) {
            Path path = Path.of(command);
            if (!path.isAbsolute() && workingDirectory != null) {
                path = workingDirectory.resolve(path);
            }
            if (!Files.exists(path)) {
                throw new IOException("engine program " + path + " does not exist");
            }
            if (!Files.isRegularFile(path) || !Files.isExecutable(path)) {
                throw new IOException("engine program " + path + " is not an executable file");
            }
            return path.toAbsolutePath();
        }
        String searchPath = System.getenv().getOrDefault("PATH", "") + File.pathSeparator + "/usr/games";
        for (String dir : searchPath.split(File.pathSeparator)) {
            if (!dir.isEmpty()) {
                Path candidate = Path.of(dir, command);
                if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
                    return candidate;
                }
            }
        }
        throw new IOException("engine program '" + command + "' is not on PATH (" + searchPath + ")");
    }

    Process process() {
        return process;
    }

    long pid() {
        return process.pid();
    }

    boolean limitsApplied() {
        return limitsApplied;
    }

    /** Waits up to {@code millis} for the process to end; true when it has. */
    boolean awaitExit(long millis) {
        try {
            return process.waitFor(millis, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return !process.isAlive();
        }
    }

    /** "exited with code 3", "killed by signal 9 (SIGKILL)", or "still running". */
    String exitDescription() {
        if (process.isAlive()) {
            return "still running";
        }
        int code = process.exitValue();
        if (code > 128 && code < 128 + 65) {
            int signal = code - 128;
            return "killed by signal " + signal + signalName(signal);
        }
        return "exited with code " + code;
    }

    private static String signalName(int signal) {
        return switch (signal) {
            case 1 -> " (SIGHUP)";
            case 2 -> " (SIGINT)";
            case 6 -> " (SIGABRT)";
            case 9 -> " (SIGKILL)";
            case 11 -> " (SIGSEGV)";
            case 13 -> " (SIGPIPE)";
            case 15 -> " (SIGTERM)";
            default -> "";
        };
    }

    /**
     * Kills the engine and everything it started (its process group and its descendants) with SIGKILL,
     * repeating while anything is still alive, for at most about a second.
     */
    void killTree() {
        for (int round = 0; round < 50; round++) {
            List<Long> live = liveProcesses();
            if (live.isEmpty()) {
                break;
            }
            for (long pid : live) {
                ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
            }
            sleepMillis(round == 0 ? 1 : 20);
        }
        awaitExit(1000);
    }

    /** One round of SIGKILL to every live process of the engine, without waiting: for the housekeeping thread. */
    void killTreeOnce() {
        for (long pid : liveProcesses()) {
            ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
        }
    }

    /**
     * Live processes of this engine: the engine itself, its group, its descendants, and any process that
     * holds its output's pipes (a helper that left the group with {@code setsid} and kept the engine's
     * output open: until it ends, the output never closes, and a read of it would wait for good).
     *
     * <p>Once the engine has ended (and this JVM has reaped it), its pid is free for another process, which
     * may lead a group of that number too, as a new engine does: then only the holders of its pipes can be
     * the engine's. While its group has members, the kernel gives its number to no new process.
     */
    List<Long> liveProcesses() {
        long pid = process.pid();
        if (process.isAlive()) {
            return ProcessTable.liveProcessesOf(pid, limitsApplied ? pid : -1, outputPipes, startTicks);
        }
        boolean pidTaken = ProcessHandle.of(pid).isPresent();
        return ProcessTable.liveProcessesOf(-1, limitsApplied && !pidTaken ? pid : -1, outputPipes, startTicks);
    }

    private static void sleepMillis(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
