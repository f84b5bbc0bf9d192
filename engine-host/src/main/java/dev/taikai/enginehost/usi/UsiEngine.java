package dev.taikai.enginehost.usi;

import dev.taikai.enginehost.catalog.EngineSpec;
import dev.taikai.enginehost.catalog.Quirk;
import dev.taikai.rules.Color;
import dev.taikai.rules.Notation;
import dev.taikai.rules.Variant;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CancellationException;
import java.util.regex.Pattern;

/**
 * A session with one USI engine process: handshake and variant selection, games, searches in every
 * {@code go} form, pondering, and shutdown. Every wait has a deadline ({@link Timeouts}); whatever the
 * engine does wrong (missing a deadline, dying, answering nonsense) becomes an {@link EngineFailure}
 * value, after which the engine's whole process tree is gone. No engine behaviour makes a method throw.
 *
 * <p>The caller reads the engine's pipe itself while it waits, so an answer reaches it without a thread
 * hand-off; {@link PipeWatcher} drains the pipe between waits and ends overdue waits by killing the
 * engine. One caller at a time; {@link #close} may be called from any thread, and a caller waiting at
 * that moment gets a {@link CancellationException}.
 */
public final class UsiEngine implements StartResult, EngineSession {
    private static final long NO_DEADLINE = Long.MAX_VALUE;
    private static final Pattern MOVE =
            Pattern.compile("[1-9][a-i][1-9][a-i][+-]?|\\+?[PLNSGBRKT]\\*[1-9][a-i]|resign|win");
    private static final long MILLI = 1_000_000;

    private final EngineSpec spec;
    private final Variant variant;
    private final Timeouts timeouts;
    private final EngineProcess process;
    private final EngineOutput output;
    private final StderrTail stderr;
    private final Writer stdin;
    /** Protocol lines read while waiting for something else, handed out before new ones. */
    private final ArrayDeque<EngineOutput.Line> setAside = new ArrayDeque<>();

    private final PipeWatcher.Deadline deadline = new PipeWatcher.Deadline();
    private final PipeWatcher.Session housekeeping = new PipeWatcher.Session() {
        @Override
        public void drainAvailable() {
            output.drainAvailable(process.process().isAlive());
            stderr.drainAvailable();
        }

        @Override
        public PipeWatcher.Deadline deadline() {
            return deadline;
        }

        @Override
        public void deadlineFired() {
            process.killTreeOnce(); // ends the waiting caller's read; the caller records the stall
        }
    };
    private final List<String> warnings = new ArrayList<>();
    /** Where every line to and from the engine is kept, or null. */
    private final PipeLog log;

    private final List<String> unlistedOptions = new ArrayList<>();
    private EngineIdentity identity;
    private Search search;
    private volatile EngineFailure failure;
    private volatile boolean closed;

    /** The search in progress: when the engine's time started and when a missing bestmove becomes a stall. */
    private static final class Search {
        final SearchLimits limits;
        final Color side;
        long goWrittenNanos;
        CpuWait.Reading cpuAtGo;
        long deadlineNanos;

        Search(SearchLimits limits, Color side) {
            this.limits = limits;
            this.side = side;
        }
    }

    private UsiEngine(EngineSpec spec, Variant variant, Timeouts timeouts, EngineProcess process, PipeLog log) {
        this.log = log;
        this.spec = spec;
        this.variant = variant;
        this.timeouts = timeouts;
        this.process = process;
        this.output = new EngineOutput(
                process.process().getInputStream(), spec.limits().maxLineBytes());
        this.stderr =
                new StderrTail(process.process().getErrorStream(), spec.limits().stderrLines());
        this.stdin = new BufferedWriter(
                new OutputStreamWriter(process.process().getOutputStream(), StandardCharsets.UTF_8), 8192);
        output.logTo(log);
        PipeWatcher.register(housekeeping);
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
        } catch (IOException e) {
            return Optional.of(e.getMessage());
        }
    }

    /**
     * Starts the engine, completes the handshake, selects {@code variant} and sends the catalog's options,
     * then waits for {@code readyok}.
     */
    public static StartResult start(EngineSpec spec, Variant variant, Timeouts timeouts) {
        return start(spec, variant, timeouts, null);
    }

    /**
     * As {@link #start(EngineSpec, Variant, Timeouts)}, with every line to and from the engine, from its
     * first, kept in {@code log} (null: none kept).
     */
    public static StartResult start(EngineSpec spec, Variant variant, Timeouts timeouts, PipeLog log) {
        long started = System.nanoTime();
        EngineProcess process;
        try {
            process = EngineProcess.start(spec);
        } catch (IOException | RuntimeException e) {
            return new EngineFailure(
                    EngineFailure.Kind.START_FAILED,
                    "cannot start engine '" + spec.id() + "': " + e.getMessage(),
                    List.of());
        }
        UsiEngine engine = new UsiEngine(spec, variant, timeouts, process, log);
        Optional<EngineFailure> failed = engine.handshake(started);
        if (failed.isPresent()) {
            engine.close();
            return failed.get();
        }
        return engine;
    }

    /**
     * {@code started}, unless it is a session with {@linkplain #unlistedOptions options the engine does not
     * list}: then the session is closed and the start failed, naming the first of them.
     */
    public static StartResult refusingUnlistedOptions(StartResult started) {
        if (started instanceof UsiEngine engine && !engine.unlistedOptions.isEmpty()) {
            engine.close();
            return new EngineFailure(EngineFailure.Kind.START_FAILED, engine.unlistedOptions.get(0), List.of());
        }
        return started;
    }

    private Optional<EngineFailure> handshake(long startedNanos) {
        Optional<EngineFailure> sent = send("usi");
        if (sent.isPresent()) {
            return sent;
        }
        String name = "";
        String author = "";
        List<EngineOption> options = new ArrayList<>();
        long deadline = startedNanos + timeouts.handshakeMillis() * MILLI;
        while (true) {
            EngineOutput.Line line = next(deadline);
            if (line == null) {
                return Optional.of(fail(
                        EngineFailure.Kind.STALL, "no usiok within " + timeouts.handshakeMillis() + " ms of starting"));
            }
            if (line == EngineOutput.END) {
                return Optional.of(disconnected("before usiok"));
            }
            if (line.is("usiok")) {
                break;
            }
            if (line.text().startsWith("id name ")) {
                name = line.text().substring(8).trim();
            } else if (line.text().startsWith("id author ")) {
                author = line.text().substring(10).trim();
            } else if (line.is("option")) {
                EngineOption.parse(line.text())
                        .ifPresentOrElse(options::add, () -> warnings.add("unreadable option line: " + line.text()));
            }
        }
        long handshakeNanos = System.nanoTime() - startedNanos;
        Optional<String> variantOption = variantOption(options);
        if (variantOption.isEmpty()) {
            return Optional.of(fail(EngineFailure.Kind.VARIANT_UNSUPPORTED, variantProblem(options)));
        }
        identity = new EngineIdentity(name, author, options, variantOption.get(), handshakeNanos);
        StringBuilder setup = new StringBuilder(setOptionLine(variantOption.get(), variant.name()));
        for (Map.Entry<String, String> option : spec.options().entrySet()) {
            Optional<String> undeclared = OptionGate.undeclared(spec, identity, option.getKey());
            if (undeclared.isPresent()) { // not sent: the caller decides whether the engine may play without it
                unlistedOptions.add(undeclared.get());
                warnings.add(undeclared.get() + "; not sent");
                continue;
            }
            Optional<String> refused =
                    OptionGate.refusal(spec, identity, process.workingDirectory(), option.getKey(), option.getValue());
            if (refused.isPresent()) {
                return Optional.of(fail(EngineFailure.Kind.START_FAILED, refused.get()));
            }
            setup.append('\n').append(setOptionLine(option.getKey(), option.getValue()));
        }
        sent = send(setup.toString());
        return sent.isPresent() ? sent : isReady();
    }

    /** The option that selects the variant: the catalog's choice, or USI_Variant / UCI_Variant, if it offers the variant. */
    private Optional<String> variantOption(List<EngineOption> options) {
        List<String> candidates = spec.variantOption().equals(EngineSpec.AUTO_VARIANT_OPTION)
                ? List.of("USI_Variant", "UCI_Variant")
                : List.of(spec.variantOption());
        for (String candidate : candidates) {
            for (EngineOption option : options) {
                if (option.name().equals(candidate)
                        && (!option.isCombo() || option.vars().contains(variant.name()))) {
                    return Optional.of(candidate);
                }
            }
        }
        return Optional.empty();
    }

    private String variantProblem(List<EngineOption> options) {
        for (EngineOption option : options) {
            if (option.name().equals("USI_Variant") || option.name().equals("UCI_Variant")) {
                String listed = String.join(" ", option.vars());
                return "the engine's " + option.name() + " does not list " + variant.name() + " (it lists: "
                        + (listed.length() > 200 ? listed.substring(0, 200) + "..." : listed) + ")";
            }
        }
        return spec.variantOption().equals(EngineSpec.AUTO_VARIANT_OPTION)
                ? "the engine lists neither USI_Variant nor UCI_Variant, so it cannot be told to play " + variant.name()
                : "the engine does not list the variant option '" + spec.variantOption()
                        + "' named in its catalog entry";
    }

    private static String setOptionLine(String name, String value) {
        return "setoption name " + name + (value == null || value.isEmpty() ? "" : " value " + value);
    }

    /** {@code isready} and wait for {@code readyok}; allowed during a search, whose bestmove is kept. */
    public Optional<EngineFailure> isReady() {
        if (failure != null) {
            return Optional.of(failure);
        }
        Optional<EngineFailure> sent = send("isready");
        if (sent.isPresent()) {
            return sent;
        }
        long deadline = System.nanoTime() + timeouts.readyMillis() * MILLI;
        List<EngineOutput.Line> keep = new ArrayList<>();
        try {
            while (true) {
                EngineOutput.Line line = next(deadline);
                if (line == null) {
                    return Optional.of(fail(
                            EngineFailure.Kind.STALL,
                            "no readyok within " + timeouts.readyMillis() + " ms of isready"));
                }
                if (line == EngineOutput.END) {
                    return Optional.of(disconnected("while waiting for readyok"));
                }
                if (line.is("readyok")) {
                    return Optional.empty();
                }
                if (line.is("bestmove")) {
                    keep.add(line);
                }
            }
        } finally {
            for (int i = keep.size() - 1; i >= 0; i--) {
                setAside.addFirst(keep.get(i));
            }
        }
    }

    /**
     * {@code usinewgame}, then {@code isready} until {@code readyok}: call before each game. An engine may
     * do its new-game work (Stockfish clears its hash) after reading {@code usinewgame}; waiting for
     * {@code readyok} keeps that off the first move's clock.
     */
    @Override
    public Optional<EngineFailure> newGame() {
        Optional<EngineFailure> sent = send("usinewgame");
        return sent.isPresent() ? sent : isReady();
    }

    /** Sends the position and {@code go}, and waits for the engine's {@code bestmove}. */
    @Override
    public MoveReply go(PositionCommand position, SearchLimits limits) {
        Optional<EngineFailure> started = startSearch(position, limits);
        return started.isPresent() ? started.get() : awaitBestMove();
    }

    /**
     * Sends the position and {@code go} without waiting. The engine's time starts when the {@code go}
     * line has been flushed (for {@code go ponder}: at {@link #ponderHit}).
     *
     * @throws IllegalStateException when a search is already running
     */
    public Optional<EngineFailure> startSearch(PositionCommand position, SearchLimits limits) {
        if (failure != null) {
            return Optional.of(failure);
        }
        if (search != null) {
            throw new IllegalStateException("a search is already running on engine '" + spec.id() + "'");
        }
        output.beginSearch();
        Search started = new Search(limits, position.sideToMove());
        String commands = position.text() + "\n" + limits.goCommand(spec.has(Quirk.SWAPPED_CLOCKS));
        // The engine's time starts as the go line is written: a write can wake the engine and hand it this
        // very CPU before the call returns, so a timestamp taken after it could miss the engine's work.
        started.cpuAtGo = CpuWait.of(process.pid());
        started.goWrittenNanos = System.nanoTime();
        Optional<EngineFailure> sent = send(commands);
        if (sent.isPresent()) {
            return sent;
        }
        started.deadlineNanos = limits.ponder() || limits.form() == SearchLimits.Form.INFINITE
                ? NO_DEADLINE
                : deadlineFrom(started.goWrittenNanos, limits, started.side);
        search = started;
        return Optional.empty();
    }

    private long deadlineFrom(long startNanos, SearchLimits limits, Color side) {
        long allowed = limits.allowedMillis(side);
        long millis = allowed >= 0
                ? allowed + limits.graceMillis() + timeouts.moveMarginMillis()
                : timeouts.unboundedSearchMillis();
        return startNanos + millis * MILLI;
    }

    /**
     * Waits for the running search's {@code bestmove}.
     *
     * @throws IllegalStateException when no search is running
     */
    public MoveReply awaitBestMove() {
        if (failure != null) {
            return failure;
        }
        if (search == null) {
            throw new IllegalStateException("no search is running on engine '" + spec.id() + "'");
        }
        while (true) {
            EngineOutput.Line line = next(search.deadlineNanos);
            if (line == null) {
                return fail(EngineFailure.Kind.STALL, stallDetail());
            }
            if (line == EngineOutput.END) {
                return disconnected("during a search");
            }
            if (line.is("bestmove")) {
                return bestMove(line);
            }
        }
    }

    private String stallDetail() {
        long allowed = search.limits.allowedMillis(search.side);
        long waited = (System.nanoTime() - search.goWrittenNanos) / MILLI;
        return "no bestmove " + waited + " ms after '" + search.limits.goCommand(spec.has(Quirk.SWAPPED_CLOCKS)) + "'"
                + (allowed >= 0
                        ? " (" + allowed + " ms allowed + "
                                + (search.limits.graceMillis() > 0
                                        ? search.limits.graceMillis() + " ms overrun margin + "
                                        : "")
                                + timeouts.moveMarginMillis() + " ms margin)"
                        : "");
    }

    private MoveReply bestMove(EngineOutput.Line line) {
        Search finished = search;
        search = null;
        List<String> words = Words.of(line.text(), 4);
        if (words.size() < 2 || !MOVE.matcher(words.get(1)).matches()) {
            String shown = line.text().length() > 80 ? line.text().substring(0, 80) + "..." : line.text();
            return fail(EngineFailure.Kind.PROTOCOL_ERROR, "'" + shown + "' does not name a move");
        }
        String ponder = words.size() >= 4
                        && words.get(2).equals("ponder")
                        && MOVE.matcher(words.get(3)).matches()
                ? words.get(3)
                : null;
        String info = output.lastSearchInfo();
        return new BestMove(
                words.get(1),
                ponder,
                finished.goWrittenNanos,
                line.readNanos(),
                info == null ? null : SearchInfo.parse(info),
                output.infoLines(),
                finished.cpuAtGo == null
                        ? 0
                        : CpuWait.of(process.pid())
                                .since(finished.cpuAtGo, line.readNanos() - finished.goWrittenNanos));
    }

    /**
     * {@code stop}, then wait for the search's {@code bestmove} (the move of a {@code go infinite}, or the
     * move to discard after a ponder miss).
     */
    public MoveReply stop() {
        if (failure != null) {
            return failure;
        }
        if (search == null) {
            throw new IllegalStateException("no search to stop on engine '" + spec.id() + "'");
        }
        Optional<EngineFailure> sent = send("stop");
        if (sent.isPresent()) {
            return sent.get();
        }
        search.deadlineNanos = System.nanoTime() + timeouts.stopMillis() * MILLI;
        MoveReply reply = awaitBestMove();
        if (reply instanceof EngineFailure stalled && stalled.kind() == EngineFailure.Kind.STALL) {
            return stalled;
        }
        return reply;
    }

    /** {@code ponderhit}: the pondered move was played; the engine's time starts now. */
    public Optional<EngineFailure> ponderHit() {
        if (failure != null) {
            return Optional.of(failure);
        }
        if (search == null || !search.limits.ponder()) {
            throw new IllegalStateException("engine '" + spec.id() + "' is not pondering");
        }
        search.cpuAtGo = CpuWait.of(process.pid());
        search.goWrittenNanos = System.nanoTime();
        Optional<EngineFailure> sent = send("ponderhit");
        search.deadlineNanos = deadlineFrom(search.goWrittenNanos, search.limits, search.side);
        return sent;
    }

    /**
     * {@code setoption} between searches, for example {@code USI_Ponder} before pondering.
     *
     * @throws IllegalArgumentException when the option may not be sent to this engine ({@link OptionGate})
     */
    public Optional<EngineFailure> setOption(String name, String value) {
        if (search != null) {
            throw new IllegalStateException("cannot set options during a search on engine '" + spec.id() + "'");
        }
        Optional<String> refused = OptionGate.refusal(spec, identity, process.workingDirectory(), name, value);
        if (refused.isPresent()) {
            throw new IllegalArgumentException(refused.get());
        }
        return send(setOptionLine(name, value));
    }

    /** {@code gameover win|lose|draw}, from this engine's point of view. */
    @Override
    public Optional<EngineFailure> gameOver(GameEnd end) {
        return failure != null
                ? Optional.of(failure)
                : send("gameover " + end.name().toLowerCase(Locale.ROOT));
    }

    /** Sends one or more lines in a single write; a broken pipe is a disconnect. */
    private Optional<EngineFailure> send(String lines) {
        if (failure != null) {
            return Optional.of(failure);
        }
        long writing = System.nanoTime(); // before the write: the engine may answer before it returns
        try {
            stdin.write(lines);
            stdin.write('\n');
            stdin.flush();
            if (log != null) {
                log.sent(lines, writing);
            }
            return Optional.empty();
        } catch (IOException e) {
            return Optional.of(
                    disconnected("while sending '" + lines.lines().findFirst().orElse("") + "'"));
        }
    }

    /**
     * The next protocol line before {@code deadlineNanos}: {@link EngineOutput#END} when the output ended,
     * null when the deadline passed (the engine has then been killed).
     */
    private EngineOutput.Line next(long deadlineNanos) {
        if (!setAside.isEmpty()) {
            return setAside.removeFirst();
        }
        EngineOutput.Line line;
        if (deadlineNanos == NO_DEADLINE) {
            line = output.next(true);
        } else if (System.nanoTime() - deadlineNanos >= 0) {
            line = output.next(false);
        } else {
            deadline.arm(deadlineNanos);
            line = output.next(true);
            if (!deadline.disarm()) {
                return null;
            }
        }
        if (line == EngineOutput.END && closed) {
            throw new CancellationException("the session with engine '" + spec.id() + "' was closed");
        }
        return line;
    }

    private EngineFailure disconnected(String when) {
        process.awaitExit(500);
        return fail(EngineFailure.Kind.DISCONNECT, "the engine " + process.exitDescription() + " " + when);
    }

    /** Records the first failure, kills the engine's processes and returns the failure. */
    private synchronized EngineFailure fail(EngineFailure.Kind kind, String detail) {
        if (failure == null) {
            process.killTree();
            String oddities = output.oddities();
            failure = new EngineFailure(kind, detail + (oddities.isEmpty() ? "" : "; " + oddities), stderr.lines());
        }
        search = null;
        return failure;
    }

    /**
     * How an engine took {@code quit}.
     *
     * @param exited whether the engine exited by itself within the quit deadline
     * @param exitNanos from sending {@code quit} to its exit (or to the deadline)
     * @param leftBehind processes of the engine still alive after it exited, killed by {@link #close}
     */
    public record QuitResult(boolean exited, long exitNanos, List<Long> leftBehind) {}

    /** Sends {@code quit} and waits for the engine to exit; {@link #close} then kills whatever is left. */
    public QuitResult quit() {
        long sent = System.nanoTime();
        if (failure == null && process.process().isAlive()) {
            send("quit");
            process.awaitExit(timeouts.quitMillis());
        }
        boolean exited = !process.process().isAlive();
        long nanos = System.nanoTime() - sent;
        return new QuitResult(exited, nanos, exited ? process.liveProcesses() : List.of());
    }

    /**
     * Ends the session: {@code quit} (unless {@link #quit} was called), a grace period to exit, then SIGKILL
     * to whatever is left of the engine's process tree (children it left behind included). Idempotent.
     */
    @Override
    public void close() {
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
        }
        if (process.process().isAlive()) {
            quit();
        }
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

    public EngineSpec spec() {
        return spec;
    }

    @Override
    public Notation notation() {
        return spec.notation();
    }

    public Variant variant() {
        return variant;
    }

    public EngineIdentity identity() {
        return identity;
    }

    /**
     * The options of the catalog entry (or the entrant) that the engine does not list, each with the
     * options it has: they were not sent. A caller that wants every option set (taikai run --strict)
     * refuses such a session.
     */
    public List<String> unlistedOptions() {
        return List.copyOf(unlistedOptions);
    }

    /** Problems that did not stop the session, such as options the engine does not list. */
    public List<String> warnings() {
        return List.copyOf(warnings);
    }

    @Override
    public Optional<EngineFailure> failure() {
        return Optional.ofNullable(failure);
    }

    public boolean isSearching() {
        return search != null;
    }

    /** The engine's process id (its process group id too, when limits apply). */
    public long pid() {
        return process.pid();
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

    /** The {@code info} lines read since the last search began (or since the start): for tests of the draining. */
    long infoLinesRead() {
        return output.infoLines();
    }

    /** Output that was not protocol so far: unexpected lines, overlong lines cut, lines dropped in a flood. */
    public String outputOddities() {
        return output.oddities();
    }

    /** Where this session keeps every line to and from the engine, if it was started with one. */
    public Optional<PipeLog> pipeLog() {
        return Optional.ofNullable(log);
    }

    /** The last lines of the engine's standard error. */
    public List<String> stderrTail() {
        return stderr.lines();
    }
}
