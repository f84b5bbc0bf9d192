package dev.taikai.enginehost.usi;

import dev.taikai.enginehost.catalog.EngineSpec;
import dev.taikai.enginehost.catalog.EngineText;
import dev.taikai.enginehost.catalog.Quirk;
import dev.taikai.enginehost.session.BestMove;
import dev.taikai.enginehost.session.CpuWait;
import dev.taikai.enginehost.session.EngineConnection;
import dev.taikai.enginehost.session.EngineFailure;
import dev.taikai.enginehost.session.EngineIdentity;
import dev.taikai.enginehost.session.EngineOption;
import dev.taikai.enginehost.session.GameEnd;
import dev.taikai.enginehost.session.LineClassifier;
import dev.taikai.enginehost.session.MoveReply;
import dev.taikai.enginehost.session.OptionGate;
import dev.taikai.enginehost.session.OutputLine;
import dev.taikai.enginehost.session.PipeEngine;
import dev.taikai.enginehost.session.PipeLog;
import dev.taikai.enginehost.session.PositionCommand;
import dev.taikai.enginehost.session.SearchInfo;
import dev.taikai.enginehost.session.SearchLimits;
import dev.taikai.enginehost.session.StartResult;
import dev.taikai.enginehost.session.Timeouts;
import dev.taikai.enginehost.session.Words;
import dev.taikai.rules.Color;
import dev.taikai.rules.Notation;
import dev.taikai.rules.Variant;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * A session with one USI engine process: handshake and variant selection, games, searches in every
 * {@code go} form, pondering, and shutdown. Every wait has a deadline ({@link Timeouts}); whatever the
 * engine does wrong (missing a deadline, dying, answering nonsense) becomes an {@link EngineFailure}
 * value, after which the engine's whole process tree is gone. No engine behaviour makes a method throw.
 *
 * <p>The caller reads the engine's pipe itself while it waits, so an answer reaches it without a thread
 * hand-off; the pipe watcher ({@link EngineConnection}) drains the pipe between waits and ends overdue waits by killing the
 * engine. One caller at a time; {@link #close} may be called from any thread, and a caller waiting at
 * that moment gets a {@link CancellationException}.
 */
public final class UsiEngine extends PipeEngine {
    private static final long NO_DEADLINE = EngineConnection.NO_DEADLINE;
    private static final Pattern MOVE =
            Pattern.compile("[1-9][a-i][1-9][a-i][+-]?|\\+?[PLNSGBRKT]\\*[1-9][a-i]|resign|win");
    private static final long MILLI = 1_000_000;

    private EngineIdentity identity;
    private Search search;

    /** The search in progress: when the engine's time started and when a missing bestmove becomes a stall. */
    private static final class Search {
        final SearchLimits limits;
        final Color side;
        long goWrittenNanos;
        CpuWait.Reading cpuAtGo;
        /** The caller's wait for a CPU while it wrote the go line ({@link EngineConnection#lastSendWaitNanos}). */
        long goSendWaitNanos;

        long deadlineNanos;

        Search(SearchLimits limits, Color side) {
            this.limits = limits;
            this.side = side;
        }
    }

    private UsiEngine(EngineSpec spec, Variant variant, Timeouts timeouts, EngineConnection connection) {
        super(spec, variant, timeouts);
        this.connection = connection;
    }

    /**
     * USI's lines: {@code info} is telemetry (with search data when it has a score, pv or depth); {@code
     * bestmove}, {@code readyok}, {@code usiok}, {@code id} and {@code option} are answers; anything else is
     * not the protocol.
     */
    static final LineClassifier LINES = line -> {
        if (line.startsWith("info")) {
            return line.contains(" score ") || line.contains(" pv ") || line.contains(" depth ")
                    ? LineClassifier.Kind.SEARCH_INFO
                    : LineClassifier.Kind.INFO;
        }
        if (line.startsWith("bestmove")
                || line.equals("readyok")
                || line.equals("usiok")
                || line.startsWith("id ")
                || line.startsWith("option ")) {
            return LineClassifier.Kind.ANSWER;
        }
        return line.isEmpty() ? LineClassifier.Kind.IGNORED : LineClassifier.Kind.OTHER;
    };

    /**
     * Why the program of {@code spec} cannot be started, or empty when it can ({@link
     * EngineConnection#whyNotStartable}).
     */
    public static Optional<String> whyNotStartable(EngineSpec spec) {
        return EngineConnection.whyNotStartable(spec);
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
        EngineConnection connection;
        try {
            connection = EngineConnection.start(spec, LINES, log);
        } catch (IOException | RuntimeException e) {
            return new EngineFailure(
                    EngineFailure.Kind.START_FAILED,
                    "cannot start engine '" + spec.id() + "': " + e.getMessage(),
                    List.of());
        }
        UsiEngine engine = new UsiEngine(spec, variant, timeouts, connection);
        Optional<EngineFailure> failed = engine.handshake(started);
        if (failed.isPresent()) {
            engine.close();
            return failed.get();
        }
        return engine;
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
            // the time it waited for a CPU is not held against it, up to the handshake's time again
            OutputLine line = connection.nextExcusingCpuWait(deadline, timeouts.handshakeMillis() * MILLI);
            if (line == null) {
                long waited = connection.cpuWaitedNanos() / MILLI;
                // the hint fits an engine that said nothing a USI engine says: an XBoard engine waits for "xboard"
                boolean spokeUsi = !name.isEmpty() || !author.isEmpty() || !options.isEmpty();
                return Optional.of(fail(
                        EngineFailure.Kind.STALL,
                        "no usiok within " + timeouts.handshakeMillis() + " ms of starting"
                                + (spokeUsi
                                        ? ""
                                        : " (an XBoard engine never says it: give one proto=xboard, or protocol:"
                                                + " xboard in its catalog entry)")
                                + (waited > 0 ? "; the " + waited + " ms it waited for a CPU not counted" : "")));
            }
            if (line == OutputLine.END) {
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
            Optional<String> refused = OptionGate.refusal(
                    spec, identity, connection.workingDirectory(), option.getKey(), option.getValue());
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
        if (connection.failure().isPresent()) {
            return connection.failure();
        }
        Optional<EngineFailure> sent = send("isready");
        if (sent.isPresent()) {
            return sent;
        }
        long deadline = System.nanoTime() + timeouts.readyMillis() * MILLI;
        List<OutputLine> keep = new ArrayList<>();
        try {
            while (true) {
                OutputLine line = next(deadline);
                if (line == null) {
                    return Optional.of(fail(
                            EngineFailure.Kind.STALL,
                            "no readyok within " + timeouts.readyMillis() + " ms of isready"));
                }
                if (line == OutputLine.END) {
                    return Optional.of(disconnected("while waiting for readyok"));
                }
                if (line.is("readyok")) {
                    return Optional.empty();
                }
                if (line.is("bestmove")) {
                    if (search != null) {
                        keep.add(line); // the running search's, for its caller
                    } else {
                        connection.dropStray(line);
                    }
                }
            }
        } finally {
            connection.setAside(keep);
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
        if (connection.failure().isPresent()) {
            return connection.failure();
        }
        if (search != null) {
            throw new IllegalStateException("a search is already running on engine '" + spec.id() + "'");
        }
        connection.dropLeftovers(); // a bestmove read since the last search's is no answer to this one
        connection.beginSearch(limits.timed());
        Search started = new Search(limits, position.sideToMove());
        String commands = position.text() + "\n" + limits.goCommand(spec.has(Quirk.SWAPPED_CLOCKS));
        // The engine's time starts as the go line is written: a write can wake the engine and hand it this
        // very CPU before the call returns, so a timestamp taken after it could miss the engine's work.
        // The CPU wait only excuses an overrun, so an untimed search (nodes, depth) does not read /proc.
        started.cpuAtGo = limits.timed() ? connection.cpu() : null;
        started.goWrittenNanos = System.nanoTime();
        Optional<EngineFailure> sent = send(commands);
        if (sent.isPresent()) {
            return sent;
        }
        started.goSendWaitNanos = connection.lastSendWaitNanos();
        started.deadlineNanos = limits.ponder() || limits.form() == SearchLimits.Form.INFINITE
                ? NO_DEADLINE
                : searchDeadline(started.goWrittenNanos, limits, started.side);
        search = started;
        return Optional.empty();
    }

    /**
     * Waits for the running search's {@code bestmove}.
     *
     * @throws IllegalStateException when no search is running
     */
    public MoveReply awaitBestMove() {
        if (connection.failure().isPresent()) {
            return connection.failure().get();
        }
        if (search == null) {
            throw new IllegalStateException("no search is running on engine '" + spec.id() + "'");
        }
        while (true) {
            OutputLine line = next(search.deadlineNanos);
            if (line == null) {
                return fail(EngineFailure.Kind.STALL, stallDetail());
            }
            if (line == OutputLine.END) {
                return disconnected("during a search");
            }
            if (line.is("bestmove")) {
                return bestMove(line);
            }
        }
    }

    private String stallDetail() {
        long waited = (System.nanoTime() - search.goWrittenNanos) / MILLI;
        return "no bestmove " + waited + " ms after '" + search.limits.goCommand(spec.has(Quirk.SWAPPED_CLOCKS)) + "'"
                + allowance(search.limits, search.side);
    }

    private MoveReply bestMove(OutputLine line) {
        Search finished = search;
        search = null;
        List<String> words = Words.of(line.text(), 4);
        if (words.size() < 2 || !MOVE.matcher(words.get(1)).matches()) {
            return fail(
                    EngineFailure.Kind.PROTOCOL_ERROR, "'" + EngineText.shown(line.text()) + "' does not name a move");
        }
        String ponder = words.size() >= 4
                        && words.get(2).equals("ponder")
                        && MOVE.matcher(words.get(3)).matches()
                ? words.get(3)
                : null;
        String info = connection.lastSearchInfo();
        return new BestMove(
                words.get(1),
                ponder,
                finished.goWrittenNanos,
                line.readNanos(),
                info == null ? null : SearchInfo.parse(info),
                connection.infoLines(),
                finished.cpuAtGo == null
                        ? 0
                        : connection.cpuWait(
                                finished.cpuAtGo, finished.goWrittenNanos, finished.goSendWaitNanos, line));
    }

    /**
     * {@code stop}, then wait for the search's {@code bestmove} (the move of a {@code go infinite}, or the
     * move to discard after a ponder miss).
     */
    public MoveReply stop() {
        if (connection.failure().isPresent()) {
            return connection.failure().get();
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
        if (connection.failure().isPresent()) {
            return connection.failure();
        }
        if (search == null || !search.limits.ponder()) {
            throw new IllegalStateException("engine '" + spec.id() + "' is not pondering");
        }
        search.cpuAtGo = connection.cpu();
        search.goWrittenNanos = System.nanoTime();
        Optional<EngineFailure> sent = send("ponderhit");
        search.goSendWaitNanos = connection.lastSendWaitNanos();
        search.deadlineNanos = searchDeadline(search.goWrittenNanos, search.limits, search.side);
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
        Optional<String> refused = OptionGate.refusal(spec, identity, connection.workingDirectory(), name, value);
        if (refused.isPresent()) {
            throw new IllegalArgumentException(refused.get());
        }
        return send(setOptionLine(name, value));
    }

    /** {@code gameover win|lose|draw}, from this engine's point of view. */
    @Override
    public Optional<EngineFailure> gameOver(GameEnd end) {
        return connection.failure().isPresent()
                ? connection.failure()
                : send("gameover " + end.name().toLowerCase(Locale.ROOT));
    }

    private Optional<EngineFailure> send(String lines) {
        return connection.send(lines);
    }

    private OutputLine next(long deadlineNanos) {
        return connection.next(deadlineNanos);
    }

    private EngineFailure disconnected(String when) {
        search = null;
        return connection.disconnected(when);
    }

    /** Records the first failure, kills the engine's processes and returns the failure. */
    private EngineFailure fail(EngineFailure.Kind kind, String detail) {
        search = null;
        return connection.fail(kind, detail);
    }

    @Override
    public Notation notation() {
        return spec.notation();
    }

    @Override
    public EngineIdentity identity() {
        return identity;
    }

    public boolean isSearching() {
        return search != null;
    }

    /** The {@code info} lines read since the last search began (or since the start): for tests of the draining. */
    long infoLinesRead() {
        return connection.infoLines();
    }
}
