package dev.taikai.enginehost.session;

import dev.taikai.enginehost.catalog.EngineSpec;
import dev.taikai.enginehost.catalog.EngineText;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CancellationException;

/**
 * The pipes of one engine process, whatever protocol it speaks: lines written in one flush each, answers
 * read with a deadline (a missed deadline kills the engine, which ends the read), telemetry and noise
 * sorted by the protocol's {@link LineClassifier}, the first failure recorded, and the whole process tree
 * ended with the session. A driver ({@code UsiEngine}, {@code XBoardEngine}) speaks its protocol over it.
 *
 * <p>One caller at a time; {@link #close} may come from any thread, and a caller waiting at that moment
 * gets a {@link CancellationException}.
 */
public final class EngineConnection {
    /** A wait without a deadline. */
    public static final long NO_DEADLINE = Long.MAX_VALUE;

    private final EngineSpec spec;
    private final EngineProcess process;
    private final EngineOutput output;
    private final StderrTail stderr;
    private final Writer stdin;
    /** Where every line to and from the engine is kept, or null. */
    private final PipeLog log;
    /** Answers read while waiting for something else, handed out before new ones. */
    private final ArrayDeque<OutputLine> setAside = new ArrayDeque<>();

    private final PipeWatcher.Deadline deadline = new PipeWatcher.Deadline();
    /** Armed while a write to the engine's input is under way (it blocks while the engine reads nothing). */
    private final PipeWatcher.Deadline writing = new PipeWatcher.Deadline();

    private final PipeWatcher.Session housekeeping = new PipeWatcher.Session() {
        @Override
        public boolean drainAvailable() {
            // both read, whatever the first found
            return output.drainAvailable(process.process().isAlive()) | stderr.drainAvailable();
        }

        @Override
        public PipeWatcher.Deadline deadline() {
            return deadline;
        }

        @Override
        public PipeWatcher.Deadline writeDeadline() {
            return writing;
        }

        @Override
        public void deadlineFired() {
            exitedBeforeDeadline = !process.process().isAlive();
            process.killTreeOnce(); // ends the waiting caller's read or write; the caller records the stall
        }
    };
    /**
     * The engine had exited when a deadline fired: only a process it left behind (outside its group) kept
     * its output open, so the wait was for an engine that had ended, not one that stalled.
     */
    private volatile boolean exitedBeforeDeadline;

    private volatile EngineFailure failure;
    private volatile boolean closed;
    /** Whether {@link #send} measures the caller's wait for a CPU: during a timed search. */
    private boolean timeSends;
    /** The caller's wait for a CPU during the last timed {@link #send}, or 0. */
    private long lastSendWaitNanos;

    private EngineConnection(EngineSpec spec, EngineProcess process, LineClassifier classifier, PipeLog log) {
        this.spec = spec;
        this.process = process;
        this.log = log;
        this.output = new EngineOutput(
                process.process().getInputStream(), spec.limits().maxLineBytes(), classifier);
        this.stderr =
                new StderrTail(process.process().getErrorStream(), spec.limits().stderrLines());
        this.stdin = new BufferedWriter(
                new OutputStreamWriter(process.process().getOutputStream(), StandardCharsets.UTF_8), 8192);
        output.logTo(log);
        PipeWatcher.register(housekeeping);
    }

    /**
     * Starts the engine of {@code spec} (under the limits of {@link EngineProcess}), its output sorted by
     * {@code classifier}, every line kept in {@code log} (null: none kept).
     *
     * @throws IOException with a message naming the command when it cannot be started
     */
    public static EngineConnection start(EngineSpec spec, LineClassifier classifier, PipeLog log) throws IOException {
        return new EngineConnection(spec, EngineProcess.start(spec), classifier, log);
    }

    /**
     * Why the program of {@code spec} cannot be started (it does not exist, is not an executable file, or
     * is not on PATH), or empty when it can: checked before a run's first game, so that a mistyped path is
     * one line and not a tournament of forfeits.
     */
    public static Optional<String> whyNotStartable(EngineSpec spec) {
        try {
            EngineProcess.resolve(spec.command().get(0), spec.workingDirectory());
            return Optional.empty();
        } catch (IOException | java.nio.file.InvalidPathException e) {
            return Optional.of(e.getMessage());
        }
    }

    /**
     * Sends one or more lines in a single write; a broken pipe is a disconnect. The write has a deadline of
     * {@value #WRITE_MILLIS} ms: an engine that reads none of its input lets the pipe fill and the write
     * block, and is then killed, a stall (so nothing waits on it for ever, not even the quit of a Ctrl-C).
     */
    public Optional<EngineFailure> send(String lines) {
        if (failure != null) {
            return Optional.of(failure);
        }
        long waitedBefore = timeSends ? CpuWait.callerWaited() : -1;
        long started = System.nanoTime(); // before the write: the engine may answer before it returns
        String first = lines.lines().findFirst().orElse("");
        writing.arm(started + WRITE_MILLIS * 1_000_000);
        try {
            stdin.write(lines);
            stdin.write('\n');
            stdin.flush();
        } catch (IOException e) {
            return Optional.of(writing.disarm() ? disconnected("while sending '" + first + "'") : stuck(first));
        }
        if (!writing.disarm()) {
            return Optional.of(stuck(first));
        }
        lastSendWaitNanos = CpuWait.callerWaitSince(waitedBefore);
        if (log != null) {
            log.sent(lines, started);
        }
        return Optional.empty();
    }

    /** Whether a write to the engine is under way: for tests of a write that blocks. */
    boolean writeUnderWay() {
        return writing.armed();
    }

    /** The stall of a write that blocked past its deadline (the engine has been killed). */
    private EngineFailure stuck(String line) {
        return fail(
                EngineFailure.Kind.STALL,
                "the engine read none of its input for " + WRITE_MILLIS + " ms (its input pipe stayed full while '"
                        + EngineText.shown(line) + "' was written)");
    }

    /** How long one write to the engine's input may block before the engine is taken to be stuck. */
    static final long WRITE_MILLIS = 10_000;

    /**
     * The next answer before {@code deadlineNanos} ({@link #NO_DEADLINE}: none): {@link OutputLine#END} when
     * the output ended, null when the deadline passed (the engine has then been killed).
     */
    public OutputLine next(long deadlineNanos) {
        if (!setAside.isEmpty()) {
            return setAside.removeFirst();
        }
        OutputLine line;
        if (deadlineNanos == NO_DEADLINE) {
            line = output.next(true);
        } else if (System.nanoTime() - deadlineNanos >= 0) {
            line = output.next(false);
        } else {
            deadline.arm(deadlineNanos);
            return awaitArmed();
        }
        return checkedOpen(line);
    }

    /** The next answer, read while {@link #deadline} is armed: null when it fired (the engine was killed). */
    private OutputLine awaitArmed() {
        OutputLine line = output.next(true);
        if (!deadline.disarm()) {
            return exitedBeforeDeadline ? OutputLine.END : null; // an engine that had exited did not stall
        }
        return checkedOpen(line);
    }

    /** {@code line}, unless it is the end of an output that {@link #close} ended. */
    private OutputLine checkedOpen(OutputLine line) {
        if (line == OutputLine.END && closed) {
            throw new CancellationException("the session with engine '" + spec.id() + "' was closed");
        }
        return line;
    }

    /**
     * As {@link #next}, with the deadline moved by the time the engine has waited for a CPU since it
     * started (its threads' longest wait, {@link CpuWait}), at most {@code maxExcuseNanos} later: for the
     * waits of a start, where an engine that had no CPU on a busy host did nothing wrong.
     */
    public OutputLine nextExcusingCpuWait(long deadlineNanos, long maxExcuseNanos) {
        if (!setAside.isEmpty()) {
            return setAside.removeFirst();
        }
        deadline.armExcusing(deadlineNanos, this::cpuWaitedNanos, maxExcuseNanos);
        return awaitArmed();
    }

    /** The longest time one of the engine's threads has waited for a CPU since it started, nanoseconds. */
    public long cpuWaitedNanos() {
        return CpuWait.of(process.pid()).longestWaitNanos();
    }

    /**
     * The next answer before {@code deadlineNanos}, or null when none came by then; unlike {@link #next}, a
     * passed deadline leaves the engine running (for waits the protocol allows to run out, such as XBoard's
     * two seconds for {@code feature done=1}). {@link OutputLine#END} when the output ended. It looks every
     * millisecond or so.
     */
    public OutputLine nextWithin(long deadlineNanos) {
        while (true) {
            OutputLine line = setAside.isEmpty() ? output.next(false) : setAside.removeFirst();
            if (line != null) {
                if (line == OutputLine.END && closed) {
                    throw new CancellationException("the session with engine '" + spec.id() + "' was closed");
                }
                return line;
            }
            if (System.nanoTime() - deadlineNanos >= 0) {
                return null;
            }
            try {
                Thread.sleep(1);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return null;
            }
        }
    }

    /** An answer that is there already, without waiting: null when none is. */
    public OutputLine poll() {
        if (!setAside.isEmpty()) {
            return setAside.removeFirst();
        }
        OutputLine line = output.next(false);
        return line == OutputLine.END ? null : line;
    }

    /**
     * Drops the answers already read that nobody asked for (a {@code bestmove} outside a search, a result
     * claim left from the last game), counted in the failure's account of odd output: played later, such
     * an answer would be taken for the next question's.
     */
    public void dropLeftovers() {
        for (OutputLine line = poll(); line != null; line = poll()) {
            output.stray(line.text());
        }
    }

    /** Counts {@code line}, an answer that came when none was asked for, and drops it. */
    public void dropStray(OutputLine line) {
        output.stray(line.text());
    }

    /** Hands {@code lines} out again, in this order, before anything read later. */
    public void setAside(List<OutputLine> lines) {
        for (int i = lines.size() - 1; i >= 0; i--) {
            setAside.addFirst(lines.get(i));
        }
    }

    /** A disconnect failure: the engine's exit status and {@code when} ("during a search"). */
    public EngineFailure disconnected(String when) {
        process.awaitExit(500);
        String exit = process.exitDescription();
        String what = process.process().isAlive()
                ? "closed its output and kept running"
                : exit.startsWith("killed") ? "was " + exit : exit;
        return fail(EngineFailure.Kind.DISCONNECT, "the engine " + what + " " + when);
    }

    /** Records the first failure, kills the engine's processes and returns the failure (the first one). */
    public synchronized EngineFailure fail(EngineFailure.Kind kind, String detail) {
        if (failure == null) {
            process.killTree();
            String oddities = output.oddities();
            failure = new EngineFailure(kind, detail + (oddities.isEmpty() ? "" : "; " + oddities), stderr.lines());
        }
        return failure;
    }

    public Optional<EngineFailure> failure() {
        return Optional.ofNullable(failure);
    }

    /**
     * Forgets the telemetry of the previous search. In a {@code timed} one (until the next call), sends and
     * reads also measure how long the caller waited for a CPU, for {@link #cpuWait}.
     */
    public void beginSearch(boolean timed) {
        output.beginSearch(timed);
        timeSends = timed;
        lastSendWaitNanos = 0;
    }

    /** The caller's wait for a CPU during the last {@link #send} of a timed search (its {@code go}), or 0. */
    public long lastSendWaitNanos() {
        return lastSendWaitNanos;
    }

    /** The last telemetry line with search data since {@link #beginSearch}, or null. */
    public String lastSearchInfo() {
        return output.lastSearchInfo();
    }

    /** Telemetry lines read since {@link #beginSearch}. */
    public long infoLines() {
        return output.infoLines();
    }

    /** What Linux says of the engine's threads now, for {@link CpuWait}. */
    public CpuWait.Reading cpu() {
        return CpuWait.of(process.pid());
    }

    /**
     * A timed move's CPU wait, now that its {@code answer} is read: the engine's since {@code atGo} ({@link
     * CpuWait.Reading#since}, over the move from {@code goWrittenNanos} to the answer), plus the caller's own
     * waits while it wrote the {@code go} ({@code goSendWaitNanos}, {@link #lastSendWaitNanos}) and while it
     * read the answer; the caller's count whatever the engine did, for they are the manager's time. At most
     * the move's time ({@link CpuWait#ofMove}).
     */
    public long cpuWait(CpuWait.Reading atGo, long goWrittenNanos, long goSendWaitNanos, OutputLine answer) {
        long move = answer.readNanos() - goWrittenNanos;
        return CpuWait.ofMove(cpu().since(atGo, move), goSendWaitNanos + answer.readWaitNanos(), move);
    }

    /**
     * Sends {@code quitCommand} (unless the engine failed or exited) and waits up to {@code quitMillis} for
     * the engine to exit; {@link #close} then kills whatever is left.
     */
    public QuitResult quit(String quitCommand, long quitMillis) {
        long sent = System.nanoTime();
        boolean exited = quitAndWait(quitCommand, quitMillis);
        long nanos = System.nanoTime() - sent;
        return new QuitResult(exited, nanos, exited ? process.liveProcesses() : List.of());
    }

    /** {@code quitCommand} (unless the engine failed or exited) and up to {@code quitMillis} to exit; whether it did. */
    private boolean quitAndWait(String quitCommand, long quitMillis) {
        if (failure == null && process.process().isAlive()) {
            send(quitCommand);
            process.awaitExit(quitMillis);
        }
        return !process.process().isAlive();
    }

    /**
     * Ends the connection: {@code quitCommand} and a grace period of {@code quitMillis} to exit (unless the
     * engine is gone), then SIGKILL to whatever is left of its process tree. Idempotent.
     */
    public void close(String quitCommand, long quitMillis) {
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
        }
        // what is left is found once, by killTree: quit's own look for it would be a second read of /proc
        quitAndWait(quitCommand, quitMillis);
        process.killTree();
        process.deleteScratch();
        PipeWatcher.unregister(housekeeping);
        try {
            stdin.close();
        } catch (IOException e) {
            // the process is gone; nothing left to flush
        }
        output.close();
        stderr.close();
    }

    /** The engine's process id (its process group id too, when limits apply). */
    public long pid() {
        return process.pid();
    }

    public boolean alive() {
        return process.process().isAlive();
    }

    /** Processes of this engine still alive: the engine, its process group and its descendants. */
    public List<Long> liveProcesses() {
        return process.liveProcesses();
    }

    /** Whether the engine runs under setsid and prlimit (false where util-linux is missing). */
    public boolean limitsApplied() {
        return process.limitsApplied();
    }

    /** "exited with code 0", "killed by signal 9 (SIGKILL)", or "still running". */
    public String exitDescription() {
        return process.exitDescription();
    }

    /** Where the engine runs. */
    public Path workingDirectory() {
        return process.workingDirectory();
    }

    /** Output that was not protocol so far: unexpected lines, overlong lines cut, lines dropped in a flood. */
    public String oddities() {
        return output.oddities();
    }

    /** Where this connection keeps every line to and from the engine, if it was started with one. */
    public Optional<PipeLog> pipeLog() {
        return Optional.ofNullable(log);
    }

    /** The last lines of the engine's standard error. */
    public List<String> stderrTail() {
        return stderr.lines();
    }
}
