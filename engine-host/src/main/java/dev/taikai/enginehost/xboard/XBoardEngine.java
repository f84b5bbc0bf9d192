package dev.taikai.enginehost.xboard;

import dev.taikai.enginehost.catalog.EngineSpec;
import dev.taikai.enginehost.catalog.EngineText;
import dev.taikai.enginehost.session.BestMove;
import dev.taikai.enginehost.session.CpuWait;
import dev.taikai.enginehost.session.EngineConnection;
import dev.taikai.enginehost.session.EngineFailure;
import dev.taikai.enginehost.session.EngineIdentity;
import dev.taikai.enginehost.session.EngineOption;
import dev.taikai.enginehost.session.GameEnd;
import dev.taikai.enginehost.session.LineClassifier;
import dev.taikai.enginehost.session.LocalEngine;
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
import dev.taikai.rules.Color;
import dev.taikai.rules.InvalidSfenException;
import dev.taikai.rules.MoveException;
import dev.taikai.rules.Notation;
import dev.taikai.rules.Position;
import dev.taikai.rules.Sfen;
import dev.taikai.rules.Usi;
import dev.taikai.rules.Variant;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * A session with one XBoard engine (the Chess Engine Communication Protocol, version 2), behind the same
 * {@link LocalEngine} as the USI driver and with the same guarantees: every wait has a deadline, whatever
 * the engine does wrong becomes an {@link EngineFailure}, its whole process tree ends with the session.
 *
 * <p>The conversation: {@code xboard}, {@code protover 2}, the engine's {@code feature} lines each answered
 * {@code accepted} or {@code rejected} until {@code done=1} (or two seconds without {@code done}, as XBoard
 * waits; {@code done=0} extends that to the handshake deadline); {@code new}, {@code variant} (the name the
 * engine lists: {@code minishogi} or {@code 5x5+5_shogi}, {@code kyotoshogi} or {@code 5x5+4_shogi}), whose
 * {@code setup} announcement must have Taikai's letters and start; the entry's options ({@code option
 * NAME=VALUE}, {@code memory} and {@code cores} as those commands). Each game: {@code new}, {@code variant},
 * {@code easy}, {@code post}, {@code force}, then {@code setboard} when the game does not begin at the
 * start; before each search {@code force}, the moves since the engine last saw the game ({@code usermove}
 * when the engine asked for it), the clock settings once a game, {@code ping} answered by {@code pong} (so
 * the engine has taken everything before its clock starts), then {@code time}, {@code otim} and {@code go}
 * in one write. The reply is {@code move}, {@code resign}, or a result claim, which loses: the referee asks
 * for a move only while the game goes on. At the end {@code result}; a new process for the next game when
 * the engine said {@code reuse=0}; {@code quit}.
 *
 * <p>Time controls: a fixed time per move is {@code st} (seconds), with {@code time} and {@code otim} that
 * time; Fischer is {@code level 0 BASE INC}; byoyomi, which CECP does not have, is {@code level 0 BASE
 * BYOYOMI} with {@code time} the main time left plus the byoyomi, what the move may take; nodes are {@code
 * nps} with {@code st 1}; depth is {@code sd} (with an hour on the clocks). {@code time} and {@code otim}
 * are in centiseconds, rounded down, before every move. The referee's clock stays the authority.
 *
 * <p>Moves and positions are translated by {@link XBoardText}; in Kyoto shogi the engine is spoken to in
 * lishogi's letters (a {@code +} on every turn-over), which are XBoard's.
 */
public final class XBoardEngine extends PipeEngine {
    private static final long MILLI = 1_000_000;
    /** How long XBoard waits for {@code feature done=1} before it takes the features it has. */
    static final long FEATURE_WAIT_MILLIS = 2_000;
    /** The option names that are XBoard commands of their own, sent when the engine has the feature. */
    private static final Map<String, String> COMMAND_OPTIONS = Map.of("memory", "memory", "cores", "smp");

    /** Set when the engine announced a setup for the variant. */
    private boolean announcedSetup;

    private final PipeLog log;

    private Features features;
    private String variantName;
    private EngineIdentity identity;
    private int pings;
    private boolean gamePlayed;

    /** What the engine's board holds since the last {@code new}: the game's start and the moves it was told. */
    private String boardStart;

    private String startSfen;

    private List<String> boardMoves = new ArrayList<>();
    /**
     * The game's position after {@link #boardMoves}, by the rules, so that an illegal move is reported with
     * the engine's own text; null where it cannot be known (a start the rules do not read).
     */
    private Position board;
    /** The clock settings sent since the last {@code new}, or null. */
    private String clockSettings;
    /** Sente or gote: the side the engine last moved for in this game, or null before its first move. */
    private Color playing;

    private Search search;
    /** The pong {@link #pingDuringSearch} waits for, and whether it came before the move. */
    private String awaitedPong;

    private boolean pongBeforeMove;

    /** The search in progress. */
    private static final class Search {
        final SearchLimits limits;
        final Color side;
        final List<String> moves;
        long goWrittenNanos;
        CpuWait.Reading cpuAtGo;
        /** The caller's wait for a CPU while it wrote the go line ({@link EngineConnection#lastSendWaitNanos}). */
        long goSendWaitNanos;

        long deadlineNanos;

        Search(SearchLimits limits, Color side, List<String> moves) {
            this.limits = limits;
            this.side = side;
            this.moves = moves;
        }
    }

    /**
     * XBoard's lines: thinking output (a line that begins with a number and is no result) is telemetry;
     * {@code #} comments are ignored; the commands an engine sends are answers; anything else (banners, a
     * board drawn in text) is not the protocol.
     */
    static final LineClassifier LINES = line -> {
        if (line.isEmpty() || line.startsWith("#")) {
            return LineClassifier.Kind.IGNORED;
        }
        if (isResultClaim(line)) {
            return LineClassifier.Kind.ANSWER;
        }
        char first = line.charAt(0);
        if (first >= '0' && first <= '9') {
            return LineClassifier.Kind.SEARCH_INFO;
        }
        for (String command : List.of(
                "feature",
                "pong",
                "move",
                "resign",
                "offer",
                "setup",
                "Illegal move",
                "Error",
                "tellusererror",
                "telluser",
                "tellall",
                "askuser",
                "piece",
                "Hint:",
                "hint")) {
            if (line.startsWith(command)) {
                return command.equals("piece") || command.startsWith("Hint") || command.equals("hint")
                        ? LineClassifier.Kind.IGNORED
                        : LineClassifier.Kind.ANSWER;
            }
        }
        return LineClassifier.Kind.OTHER;
    };

    private XBoardEngine(EngineSpec spec, Variant variant, Timeouts timeouts, PipeLog log) {
        super(spec, variant, timeouts);
        this.log = log;
    }

    /**
     * Starts the engine, negotiates its features, selects {@code variant}, checks its pieces and start and
     * sends the entry's options; every line to and from it kept in {@code log} (null: none).
     */
    public static StartResult start(EngineSpec spec, Variant variant, Timeouts timeouts, PipeLog log) {
        XBoardEngine engine = new XBoardEngine(spec, variant, timeouts, log);
        Optional<EngineFailure> failed = engine.open();
        if (failed.isPresent()) {
            engine.close();
            return failed.get();
        }
        return engine;
    }

    /** Starts a process and completes the handshake with it. */
    private Optional<EngineFailure> open() {
        long started = System.nanoTime();
        try {
            connection = EngineConnection.start(spec, LINES, log);
        } catch (IOException | RuntimeException e) {
            return Optional.of(new EngineFailure(
                    EngineFailure.Kind.START_FAILED,
                    "cannot start engine '" + spec.id() + "': " + e.getMessage(),
                    List.of()));
        }
        return handshake(started);
    }

    private Optional<EngineFailure> handshake(long startedNanos) {
        Optional<EngineFailure> sent = send("xboard\nprotover 2");
        if (sent.isPresent()) {
            return sent;
        }
        features = new Features();
        long handshakeDeadline = startedNanos + timeouts.handshakeMillis() * MILLI;
        long deadline = Math.min(System.nanoTime() + FEATURE_WAIT_MILLIS * MILLI, handshakeDeadline);
        boolean anyFeature = false;
        while (true) {
            OutputLine line = connection.nextWithin(deadline);
            if (line == OutputLine.END) {
                return Optional.of(disconnected("before feature done=1"));
            }
            if (line == null && !anyFeature && deadline < handshakeDeadline) {
                // not one feature yet: an engine slow to start on a busy machine, not one that never says
                // done (without features it could not be told its variant anyway); wait to the deadline
                deadline = handshakeDeadline;
                continue;
            }
            if (line == null) {
                if (features.done().isPresent()) { // done=0, and no done=1 by the handshake's deadline
                    return Optional.of(fail(
                            EngineFailure.Kind.STALL,
                            "no feature done=1 within " + timeouts.handshakeMillis()
                                    + " ms of starting, after done=0"));
                }
                warnings.add("the engine did not say feature done=1; its features were taken after "
                        + FEATURE_WAIT_MILLIS + " ms, as XBoard takes them");
                break;
            }
            if (line.is("feature")) {
                anyFeature = true;
                String answers = features.read(line.text());
                if (!answers.isEmpty() && (sent = send(answers)).isPresent()) {
                    return sent;
                }
                Optional<Boolean> done = features.done();
                if (done.isPresent() && done.get()) {
                    break;
                }
                if (done.isPresent()) {
                    deadline = handshakeDeadline;
                }
            }
        }
        long handshakeNanos = System.nanoTime() - startedNanos;
        features.unreadableOptions().forEach(o -> warnings.add("unreadable option feature: " + o));
        Optional<String> chosen = variantName(features.variants());
        if (chosen.isEmpty()) {
            return Optional.of(fail(EngineFailure.Kind.VARIANT_UNSUPPORTED, variantProblem(features.variants())));
        }
        variantName = chosen.get();
        identity = new EngineIdentity(
                features.value("myname").orElse(""), "", features.options(), "variant", handshakeNanos);
        Optional<EngineFailure> checked = checkSetup();
        return checked.isPresent() ? checked : sendOptions();
    }

    /** The engine's name for the variant: Taikai's, else the board-size form XBoard gives it. */
    private Optional<String> variantName(List<String> listed) {
        List<String> names = variant == Variant.MINISHOGI
                ? List.of("minishogi", "5x5+5_shogi")
                : List.of("kyotoshogi", "5x5+4_shogi");
        return names.stream().filter(listed::contains).findFirst();
    }

    private String variantProblem(List<String> listed) {
        if (listed.isEmpty()) {
            return "the engine lists no variants (feature variants=...), so it cannot be told to play "
                    + variant.name();
        }
        String shown = String.join(",", listed);
        return "the engine's variants (" + (shown.length() > 200 ? shown.substring(0, 200) + "..." : shown)
                + ") include neither "
                + (variant == Variant.MINISHOGI ? "minishogi nor 5x5+5_shogi" : "kyotoshogi nor 5x5+4_shogi");
    }

    /** Whether the engine announced a {@code setup} for the variant (which {@link #checkSetup} checked). */
    public boolean announcedSetup() {
        return announcedSetup;
    }

    /**
     * {@code new} and {@code variant}, then the engine's {@code setup} announcement, if it makes one: its
     * letters must be Taikai's and its start the variant's.
     */
    private Optional<EngineFailure> checkSetup() {
        Optional<EngineFailure> sent = send("new\nvariant " + variantName);
        if (sent.isPresent()) {
            return sent;
        }
        List<OutputLine> lines = new ArrayList<>();
        Optional<EngineFailure> synced = sync(timeouts.readyMillis(), lines);
        if (synced.isPresent()) {
            return synced;
        }
        for (OutputLine line : lines) {
            if (line.is("setup")) {
                announcedSetup = true;
                Optional<String> problem = setupProblem(line.text());
                if (problem.isPresent()) {
                    return Optional.of(fail(EngineFailure.Kind.VARIANT_UNSUPPORTED, problem.get()));
                }
            }
        }
        return Optional.empty();
    }

    /** Why {@code setup (TABLE) [WxH+S_PARENT] FEN} is not the variant as Taikai writes it, or empty. */
    private Optional<String> setupProblem(String line) {
        String rest = line.substring("setup".length()).trim();
        if (rest.startsWith("(")) {
            int close = rest.indexOf(')');
            if (close < 0) {
                return Optional.of("the engine's setup '" + EngineText.shown(line) + "' has no closing ')'");
            }
            Set<String> letters = PieceTable.letters(rest.substring(1, close));
            if (letters == null || !letters.equals(PieceTable.expected(variant))) {
                return Optional.of("the engine names the pieces of " + variantName + " " + letters
                        + " (setup " + EngineText.shown(rest.substring(0, close + 1)) + "); Taikai writes them "
                        + PieceTable.expected(variant));
            }
            rest = rest.substring(close + 1).trim();
        }
        if (rest.matches("\\d+x\\d+\\+\\d+_\\S+ .*")) {
            rest = rest.substring(rest.indexOf(' ') + 1);
        }
        Optional<String> sfen = XBoardText.sfen(rest);
        try {
            if (sfen.isPresent() && Sfen.parse(variant, sfen.get()).samePosition(Position.start(variant))) {
                return Optional.empty();
            }
        } catch (InvalidSfenException e) {
            // the engine's start is no position of the variant: said below
        }
        return Optional.of("the engine's start of " + variantName + " is '" + EngineText.shown(rest)
                + "', not the rules' " + Position.start(variant).toSfen(notation()));
    }

    /**
     * The entry's options: {@code option NAME=VALUE} for each the engine declared; {@code memory} and
     * {@code cores} as those commands, when the engine has the feature. An option it does not have is not
     * sent ({@link #unlistedOptions}).
     */
    private Optional<EngineFailure> sendOptions() {
        StringBuilder lines = new StringBuilder();
        for (Map.Entry<String, String> option : spec.options().entrySet()) {
            String name = option.getKey();
            String value = option.getValue();
            String feature = COMMAND_OPTIONS.get(name.toLowerCase(Locale.ROOT));
            if (feature != null && features.flag(feature, false)) {
                if (!value.matches("[0-9]{1,7}")) {
                    return Optional.of(fail(
                            EngineFailure.Kind.START_FAILED,
                            "option '" + name + "' is the XBoard command " + name.toLowerCase(Locale.ROOT)
                                    + ", which takes a whole number, not '" + EngineText.shown(value) + "'"));
                }
                lines.append(lines.isEmpty() ? "" : "\n")
                        .append(name.toLowerCase(Locale.ROOT))
                        .append(' ')
                        .append(value);
                continue;
            }
            Optional<String> undeclared = OptionGate.undeclared(spec, identity, name);
            if (undeclared.isPresent()) {
                unlistedOptions.add(undeclared.get());
                warnings.add(undeclared.get() + "; not sent");
                continue;
            }
            Optional<String> refused = OptionGate.refusal(spec, identity, connection.workingDirectory(), name, value);
            if (refused.isEmpty() && name.contains("=")) {
                refused = Optional.of("option '" + EngineText.shown(name) + "' has a '=' in its name, which XBoard's"
                        + " option command cannot carry");
            }
            if (refused.isPresent()) {
                return Optional.of(fail(EngineFailure.Kind.START_FAILED, refused.get()));
            }
            lines.append(lines.isEmpty() ? "" : "\n").append(optionCommand(name, value));
        }
        if (lines.isEmpty()) {
            return Optional.empty();
        }
        Optional<EngineFailure> sent = send(lines.toString());
        return sent.isPresent() ? sent : sync(timeouts.readyMillis(), new ArrayList<>());
    }

    /** {@code option NAME=VALUE}; a check box takes 1 or 0 (true or false are written so), a button no value. */
    private String optionCommand(String name, String value) {
        EngineOption declared = identity.option(name).orElseThrow();
        if (declared.type().equals("button")) {
            return "option " + name;
        }
        if (declared.type().equals("check")) {
            value = value.equalsIgnoreCase("true") ? "1" : value.equalsIgnoreCase("false") ? "0" : value;
        }
        return "option " + name + "=" + value;
    }

    /**
     * {@code ping N} and the lines up to {@code pong N}, which go to {@code seen}; an engine without {@code
     * ping} is taken as ready at once. A missing pong within {@code millis} is a stall.
     */
    private Optional<EngineFailure> sync(long millis, List<OutputLine> seen) {
        return sync("", millis, seen);
    }

    /** As {@link #sync(long, List)}, with {@code before} (lines, each ending in a newline) in the same write. */
    private Optional<EngineFailure> sync(String before, long millis, List<OutputLine> seen) {
        if (!features.flag("ping", false)) {
            return before.isEmpty() ? Optional.empty() : send(before.substring(0, before.length() - 1));
        }
        int n = ++pings;
        Optional<EngineFailure> sent = send(before + "ping " + n);
        if (sent.isPresent()) {
            return sent;
        }
        long deadline = System.nanoTime() + millis * MILLI;
        while (true) {
            OutputLine line = connection.next(deadline);
            if (line == null) {
                return Optional.of(
                        fail(EngineFailure.Kind.STALL, "no pong " + n + " within " + millis + " ms of ping " + n));
            }
            if (line == OutputLine.END) {
                return Optional.of(disconnected("while waiting for pong " + n));
            }
            if (line.text().equals("pong " + n)) {
                return Optional.empty();
            }
            seen.add(line);
        }
    }

    /**
     * A new game: a new process if the engine wants one ({@code reuse=0}) and has played, then {@code new},
     * {@code variant}, {@code easy} (no pondering), {@code post} (thinking output) and {@code force}, and
     * {@code ping} until {@code pong}.
     */
    @Override
    public Optional<EngineFailure> newGame() {
        if (connection.failure().isPresent()) {
            return connection.failure();
        }
        if (gamePlayed && !features.flag("reuse", true)) {
            connection.close("quit", timeouts.quitMillis());
            Optional<EngineFailure> reopened = open();
            if (reopened.isPresent()) {
                return reopened;
            }
        }
        gamePlayed = true;
        playing = null;
        // what the last game left (a result claim after its last move, which CECP asks for) answers nothing
        // of this one; with ping, sync reads it too, without it would be taken for the first move's answer
        connection.dropLeftovers();
        Optional<EngineFailure> sent = resetBoard(startSfen());
        return sent.isPresent() ? sent : sync(timeouts.readyMillis(), new ArrayList<>());
    }

    /** The variant's start in the engine's notation, worked out once. */
    private String startSfen() {
        if (startSfen == null) {
            startSfen = Position.start(variant).toSfen(notation());
        }
        return startSfen;
    }

    /** {@code new}, {@code variant}, {@code easy}, {@code post}, {@code force}: the engine's board at the start. */
    private Optional<EngineFailure> resetBoard(String startSfen) {
        boardStart = startSfen;
        boardMoves = new ArrayList<>();
        board = Position.start(variant);
        clockSettings = null;
        return send("new\nvariant " + variantName + "\neasy\npost\nforce");
    }

    /** Sends the game since the engine last saw it and the clocks, and waits for its move. */
    @Override
    public MoveReply go(PositionCommand position, SearchLimits limits) {
        Optional<EngineFailure> started = startSearch(position, limits);
        return started.isPresent() ? started.get() : awaitMove();
    }

    /**
     * Sends the game since the engine last saw it and the clocks, and {@code go}, without waiting for the
     * move. The engine's time starts as the {@code go} line is written.
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
        if (limits.ponder()) {
            throw new IllegalArgumentException(
                    "engine '" + spec.id() + "' speaks XBoard, where Taikai does not ponder");
        }
        if (limits.form() == SearchLimits.Form.NODES && !features.flag("nps", false)) {
            // CECP's node limit is nps with st: an engine without nps=1 would play a second a move
            return Optional.of(fail(
                    EngineFailure.Kind.VARIANT_UNSUPPORTED,
                    "the engine has no feature nps=1, so it cannot play a node limit (nodes=" + limits.nodes()
                            + "); give it a time control instead"));
        }
        connection.beginSearch(limits.timed());
        StringBuilder commands = new StringBuilder();
        boolean sameGame = position.sfen().equals(boardStart)
                && position.moves().size() >= boardMoves.size()
                && position.moves().subList(0, boardMoves.size()).equals(boardMoves);
        if (!sameGame) {
            boardStart = position.sfen();
            boardMoves = new ArrayList<>();
            board = readable(position.sfen());
            clockSettings = null;
            commands.append("new\nvariant ").append(variantName).append("\neasy\npost\nforce\n");
            if (!position.sfen().equals(startSfen())) {
                if (!features.flag("setboard", false)) {
                    return Optional.of(fail(
                            EngineFailure.Kind.VARIANT_UNSUPPORTED,
                            "the engine cannot be given a position (it has no feature setboard=1), and this game"
                                    + " begins at " + position.sfen()));
                }
                commands.append("setboard ")
                        .append(XBoardText.fen(position.sfen()))
                        .append('\n');
            }
        } else {
            commands.append("force\n");
        }
        String prefix = features.flag("usermove", false) ? "usermove " : "";
        for (String move :
                position.moves().subList(boardMoves.size(), position.moves().size())) {
            commands.append(prefix).append(XBoardText.move(move)).append('\n');
            board = played(board, move);
        }
        boardMoves = new ArrayList<>(position.moves());
        if (clockSettings == null) { // once a game: time and otim tell the clocks before every move
            clockSettings = clockSettings(limits, position.sideToMove());
            commands.append(clockSettings).append('\n');
        }
        List<OutputLine> before = new ArrayList<>();
        Optional<EngineFailure> synced = sync(commands.toString(), timeouts.readyMillis(), before);
        if (synced.isPresent()) {
            return synced;
        }
        for (OutputLine line : before) {
            Optional<EngineFailure> objection = objection(line, position);
            if (objection.isPresent()) {
                return objection;
            }
        }
        Color side = position.sideToMove();
        playing = side;
        Search running = new Search(limits, side, position.moves());
        String clocks = features.flag("time", true)
                ? "time " + centiseconds(limits, side) + "\notim " + centiseconds(limits, side.opposite()) + "\n"
                : "";
        // the engine's time starts as the go line is written, as with USI; an untimed search reads no CPU wait
        running.cpuAtGo = limits.timed() ? connection.cpu() : null;
        running.goWrittenNanos = System.nanoTime();
        Optional<EngineFailure> sent = send(clocks + "go");
        if (sent.isPresent()) {
            return sent;
        }
        running.goSendWaitNanos = connection.lastSendWaitNanos();
        running.deadlineNanos = searchDeadline(running.goWrittenNanos, limits, side);
        search = running;
        return Optional.empty();
    }

    /**
     * What a line the engine sent before its clock started says against the game: a refused move (the
     * referee checked it, so the engine's rules differ from Taikai's) or a result claim (the game went on,
     * so the claim was false) ends the game; other answers are no objection.
     */
    private Optional<EngineFailure> objection(OutputLine line, PositionCommand position) {
        if (line.is("Illegal move") || line.text().startsWith("Illegal move")) {
            return Optional.of(fail(
                    EngineFailure.Kind.PROTOCOL_ERROR,
                    "the engine refused a move the rules allow ('" + EngineText.shown(line.text())
                            + "'; the game so far: " + String.join(" ", position.moves()) + ")"));
        }
        if (isResultClaim(line.text())) {
            return Optional.of(fail(
                    EngineFailure.Kind.PROTOCOL_ERROR,
                    "false claim '" + EngineText.shown(line.text()) + "': the game was not over by the rules"));
        }
        return Optional.empty();
    }

    /**
     * The line that sets the clocks for this game's searches, from the engine's own side ({@code side}, to
     * move at its first search of the game): its main time then and its own increment, not the opponent's.
     */
    private String clockSettings(SearchLimits limits, Color side) {
        long main = side == Color.SENTE ? limits.senteMillis() : limits.goteMillis();
        return switch (limits.form()) {
            case MOVETIME -> "st " + seconds(limits.moveTimeMillis());
            case BYOYOMI -> "level 0 " + minutesSeconds(main) + " " + seconds(limits.byoyomiMillis());
            case FISCHER ->
                "level 0 " + minutesSeconds(main) + " "
                        + seconds(side == Color.SENTE ? limits.senteIncrementMillis() : limits.goteIncrementMillis());
            case NODES -> "nps " + limits.nodes() + "\nst 1";
            case DEPTH -> "sd " + limits.depth() + "\nst 3600";
            case INFINITE -> "st 3600";
        };
    }

    /** {@code time} and {@code otim}: what {@code side} may take on this move, in whole centiseconds. */
    private static long centiseconds(SearchLimits limits, Color side) {
        long allowed = limits.allowedMillis(side);
        return switch (limits.form()) {
            case NODES -> 100;
            case DEPTH, INFINITE -> 360_000;
            default -> Math.max(0, allowed) / 10;
        };
    }

    private static String seconds(long millis) {
        return millis % 1000 == 0
                ? String.valueOf(millis / 1000)
                : String.format(Locale.ROOT, "%.3f", millis / 1000.0).replaceAll("0+$", "");
    }

    /** {@code level}'s base time: {@code M} or {@code M:SS}, whole seconds. */
    private static String minutesSeconds(long millis) {
        // CECP's level has whole seconds: the nearest, and a main time under half a second is still one (0
        // would be no main time); time and otim give the exact clock before every move
        long seconds = millis == 0 ? 0 : Math.max(1, (millis + 500) / 1000);
        return seconds % 60 == 0
                ? String.valueOf(seconds / 60)
                : seconds / 60 + ":" + String.format(Locale.ROOT, "%02d", seconds % 60);
    }

    /**
     * Waits for the running search's {@code move}, {@code resign} or claim.
     *
     * @throws IllegalStateException when no search is running
     */
    public MoveReply awaitMove() {
        if (connection.failure().isPresent()) {
            return connection.failure().get();
        }
        if (search == null) {
            throw new IllegalStateException("no search is running on engine '" + spec.id() + "'");
        }
        while (true) {
            OutputLine line = connection.next(search.deadlineNanos);
            if (line == null) {
                return fail(EngineFailure.Kind.STALL, stallDetail());
            }
            if (line == OutputLine.END) {
                return disconnected("during a search");
            }
            String text = line.text();
            if (line.is("move")) {
                return moved(text.substring(4).trim(), line);
            }
            if (text.equals("resign") || text.startsWith("resign ") || resigns(text, search.side)) {
                return best("resign", line);
            }
            if (isResultClaim(text)) {
                return fail(
                        EngineFailure.Kind.PROTOCOL_ERROR,
                        "false claim '" + EngineText.shown(text) + "' instead of a move: the game was not over by"
                                + " the rules");
            }
            if (text.startsWith("Illegal move")) {
                return fail(
                        EngineFailure.Kind.PROTOCOL_ERROR,
                        "the engine refused a move the rules allow ('" + EngineText.shown(text) + "'; the game so far: "
                                + String.join(" ", search.moves) + ")");
            }
            if (text.equals(awaitedPong)) {
                pongBeforeMove = true;
            }
            // offer draw, telluser, Error, a late pong: kept in the log, not acted on
        }
    }

    /**
     * Whether {@code text} is CECP's other way to resign: a result that loses for the engine's own {@code
     * side} with "resign" in its comment ({@code 0-1 {White resigns}} from the side that moves first).
     */
    private static boolean resigns(String text, Color side) {
        return text.startsWith(side == Color.SENTE ? "0-1" : "1-0")
                && text.toLowerCase(Locale.ROOT).contains("resign");
    }

    private MoveReply moved(String xboardMove, OutputLine line) {
        Optional<String> usi = XBoardText.usi(xboardMove);
        if (usi.isEmpty()) {
            return fail(
                    EngineFailure.Kind.PROTOCOL_ERROR,
                    "'" + EngineText.shown(line.text()) + "' does not name a move of a 5x5 board");
        }
        if (board != null) {
            try {
                board = board.play(Usi.parse(board, usi.get(), Notation.LISHOGI));
            } catch (MoveException e) {
                // the referee would say the same of the USI text; said here with the engine's own
                return fail(
                        EngineFailure.Kind.PROTOCOL_ERROR,
                        "illegal move '" + EngineText.shown(line.text()) + "' (" + usi.get() + " in USI): "
                                + e.getMessage());
            }
        }
        boardMoves.add(usi.get());
        return best(usi.get(), line);
    }

    /** The position of {@code sfen} (in lishogi's letters), or null when the rules cannot read it. */
    private Position readable(String sfen) {
        try {
            return Sfen.parse(variant, sfen);
        } catch (InvalidSfenException e) {
            return null;
        }
    }

    /** {@code board} after the referee's {@code move}, or null when either is unknown. */
    private static Position played(Position board, String move) {
        if (board == null) {
            return null;
        }
        try {
            return board.play(Usi.parse(board, move, Notation.LISHOGI));
        } catch (MoveException e) {
            return null;
        }
    }

    private MoveReply best(String move, OutputLine line) {
        Search finished = search;
        search = null;
        String info = connection.lastSearchInfo();
        SearchInfo telemetry = info == null ? null : Thinking.parse(info);
        return new BestMove(
                move,
                null,
                finished.goWrittenNanos,
                line.readNanos(),
                telemetry,
                connection.infoLines(),
                finished.cpuAtGo == null
                        ? 0
                        : connection.cpuWait(
                                finished.cpuAtGo, finished.goWrittenNanos, finished.goSendWaitNanos, line));
    }

    private String stallDetail() {
        long waited = (System.nanoTime() - search.goWrittenNanos) / MILLI;
        return "no move " + waited + " ms after 'go' (" + clockSettings.replace('\n', ',') + ")"
                + allowance(search.limits, search.side);
    }

    /**
     * {@code ?}: move now, during a running search; the move must come within the stop deadline. For the
     * engine check.
     */
    public MoveReply moveNow() {
        if (search == null) {
            throw new IllegalStateException("no search is running on engine '" + spec.id() + "'");
        }
        Optional<EngineFailure> sent = send("?");
        if (sent.isPresent()) {
            return sent.get();
        }
        search.deadlineNanos = System.nanoTime() + timeouts.stopMillis() * MILLI;
        return awaitMove();
    }

    /** What {@link #pingDuringSearch} saw: the move, and where the engine's pong came. */
    public record PingDuringSearch(MoveReply reply, boolean pongBeforeMove, boolean pongAfterMove) {}

    /**
     * {@code ping} during a running search, then the move: CECP asks for the {@code pong} only after the
     * move. For the engine check.
     */
    public PingDuringSearch pingDuringSearch() {
        if (search == null) {
            throw new IllegalStateException("no search is running on engine '" + spec.id() + "'");
        }
        int n = ++pings;
        awaitedPong = "pong " + n;
        pongBeforeMove = false;
        Optional<EngineFailure> sent = send("ping " + n);
        MoveReply reply = sent.isPresent() ? sent.get() : awaitMove();
        awaitedPong = null;
        if (reply instanceof EngineFailure || pongBeforeMove) {
            return new PingDuringSearch(reply, pongBeforeMove, false);
        }
        long deadline = System.nanoTime() + timeouts.readyMillis() * MILLI;
        while (true) {
            OutputLine line = connection.next(deadline);
            if (line == null || line == OutputLine.END) {
                return new PingDuringSearch(reply, false, false);
            }
            if (line.text().equals("pong " + n)) {
                return new PingDuringSearch(reply, false, true);
            }
        }
    }

    /** {@code result} from this engine's point of view, as XBoard's colours: sente is white. */
    @Override
    public Optional<EngineFailure> gameOver(GameEnd end) {
        if (connection.failure().isPresent()) {
            return connection.failure();
        }
        String result;
        if (end == GameEnd.DRAW) {
            result = "1/2-1/2";
        } else if (playing == null) {
            result = "*";
        } else {
            boolean senteWon = (end == GameEnd.WIN) == (playing == Color.SENTE);
            result = senteWon ? "1-0" : "0-1";
        }
        return send("result " + result + " {game over}\nforce");
    }

    /** True for a line that claims a result: {@code 1-0 {...}}, {@code 0-1 {...}}, {@code 1/2-1/2 {...}}. */
    static boolean isResultClaim(String line) {
        return line.equals("1-0")
                || line.equals("0-1")
                || line.equals("1/2-1/2")
                || line.startsWith("1-0 ")
                || line.startsWith("0-1 ")
                || line.startsWith("1/2-1/2 ");
    }

    private Optional<EngineFailure> send(String lines) {
        return connection.send(lines);
    }

    private EngineFailure disconnected(String when) {
        search = null;
        return connection.disconnected(when);
    }

    private EngineFailure fail(EngineFailure.Kind kind, String detail) {
        search = null;
        return connection.fail(kind, detail);
    }

    /** Kyoto shogi in lishogi's letters, XBoard's; Minishogi reads the same in both notations. */
    @Override
    public Notation notation() {
        return Notation.LISHOGI;
    }

    @Override
    public EngineIdentity identity() {
        return identity;
    }

    /** Whether the engine announced {@code feature NAME=1}. */
    public boolean hasFeature(String name) {
        return features.flag(name, false);
    }

    /** The clock settings sent for this game's searches ({@code st}, {@code level}, {@code sd}, {@code nps}), or "". */
    public String clockSettings() {
        return clockSettings == null ? "" : clockSettings;
    }

    /** The name the engine was told the variant by. */
    public String variantName() {
        return variantName;
    }
}
