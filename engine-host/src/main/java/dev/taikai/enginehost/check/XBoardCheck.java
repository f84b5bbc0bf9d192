package dev.taikai.enginehost.check;

import dev.taikai.enginehost.catalog.EngineSpec;
import dev.taikai.enginehost.catalog.EngineText;
import dev.taikai.enginehost.check.CheckReport.Verdict;
import dev.taikai.enginehost.session.BestMove;
import dev.taikai.enginehost.session.EngineFailure;
import dev.taikai.enginehost.session.GameEnd;
import dev.taikai.enginehost.session.MoveReply;
import dev.taikai.enginehost.session.PositionCommand;
import dev.taikai.enginehost.session.QuitResult;
import dev.taikai.enginehost.session.SearchLimits;
import dev.taikai.enginehost.session.StartResult;
import dev.taikai.enginehost.session.Timeouts;
import dev.taikai.enginehost.xboard.XBoardEngine;
import dev.taikai.rules.MoveException;
import dev.taikai.rules.Notation;
import dev.taikai.rules.Position;
import dev.taikai.rules.Sfen;
import dev.taikai.rules.Usi;
import dev.taikai.rules.Variant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * The compliance check of an XBoard engine: feature negotiation, the variant by the engine's name for it
 * and its setup, {@code setboard} with holdings, each time control the referee sends ({@code st}, {@code
 * level} for Fischer and for byoyomi, {@code sd}, {@code nps}), {@code ?} (move now), {@code ping} during a
 * search (its {@code pong} after the move), {@code result} and a new game, and {@code quit}. A failed
 * session is restarted so the later checks still run.
 */
final class XBoardCheck {
    private static final int OVERHEAD_SAMPLES = 20;

    private static final List<String> CHECKS = List.of(
            "ping",
            "setboard",
            "moves",
            "st",
            "level (Fischer)",
            "level (byoyomi)",
            "sd",
            "nps",
            "move now (?)",
            "ping during search",
            "result, new game",
            "quit");

    /** The engine started but does not offer the variant (no later check can run, for that reason). */
    private boolean startedWithoutTheVariant;

    private final EngineSpec spec;
    private final Variant variant;
    private final Timeouts timeouts;
    private final Consumer<CheckReport.Result> progress;
    private final CheckReport report;
    private final PositionCommand startCommand;
    private XBoardEngine engine;

    private XBoardCheck(EngineSpec spec, Variant variant, Timeouts timeouts, Consumer<CheckReport.Result> progress) {
        this.spec = spec;
        this.variant = variant;
        this.timeouts = timeouts.withUnboundedSearch(Math.min(timeouts.unboundedSearchMillis(), 10_000));
        this.progress = progress;
        this.report = new CheckReport(spec.id(), variant);
        this.startCommand = PositionCommand.of(Position.start(variant).toSfen(Notation.LISHOGI));
    }

    static CheckReport run(EngineSpec spec, Variant variant, Timeouts timeouts, Consumer<CheckReport.Result> progress) {
        XBoardCheck check = new XBoardCheck(spec, variant, timeouts, progress);
        try {
            check.runAll();
        } finally {
            if (check.engine != null) {
                check.engine.close();
            }
        }
        return check.report;
    }

    private void runAll() {
        if (!startEngine(true)) {
            // an engine that started but does not play the variant did start: say why the rest is skipped
            String why = startedWithoutTheVariant
                    ? "the engine does not play " + variant.name()
                    : "the engine did not start";
            for (String name : CHECKS) {
                add(name, Verdict.SKIP, why, true);
            }
            return;
        }
        checkPing();
        checkSetboard();
        checkMoves();
        checkMove("st", SearchLimits.movetime(200));
        checkMove("level (Fischer)", SearchLimits.fischer(2000, 2000, 100, 100));
        checkMove("level (byoyomi)", SearchLimits.byoyomi(2000, 2000, 200));
        checkMove("sd", SearchLimits.depth(3));
        checkNodes();
        checkMoveNow();
        checkPingDuringSearch();
        checkResult();
        measureOverhead();
        checkQuit();
    }

    private boolean startEngine(boolean first) {
        StartResult started = XBoardEngine.start(spec, variant, timeouts, null);
        if (started instanceof EngineFailure failure) {
            if (first) {
                boolean variantProblem = failure.kind() == EngineFailure.Kind.VARIANT_UNSUPPORTED;
                startedWithoutTheVariant = variantProblem;
                add(
                        "features",
                        variantProblem ? Verdict.PASS : Verdict.FAIL,
                        variantProblem ? "done=1 (the variant, below, failed)" : failure.toString(),
                        true);
                add(
                        "variant",
                        variantProblem ? Verdict.FAIL : Verdict.SKIP,
                        variantProblem ? failure.detail() : "not reached: the start failed (above)",
                        true);
            }
            engine = null;
            return false;
        }
        engine = (XBoardEngine) started;
        if (first) {
            var identity = engine.identity();
            boolean saidDone = engine.warnings().stream().noneMatch(w -> w.contains("feature done=1"));
            add(
                    "features",
                    saidDone ? Verdict.PASS : Verdict.WARN,
                    String.format(
                            Locale.ROOT,
                            "%s after %.1f ms; '%s', %d options",
                            saidDone ? "done=1" : "no done=1 (taken after 2 s)",
                            identity.handshakeNanos() / 1e6,
                            EngineText.shown(identity.name()),
                            identity.options().size()),
                    true);
            add(
                    "variant",
                    Verdict.PASS,
                    "'variant " + engine.variantName() + "'; "
                            + (engine.announcedSetup()
                                    ? "its setup is the rules' start"
                                    : "it announced no setup (it takes the variant's start as its own)"),
                    true);
            if (!engine.limitsApplied()) {
                add("limits", Verdict.WARN, "setsid/prlimit not found: the engine runs without process limits", false);
            }
            for (String warning : engine.warnings()) {
                if (!warning.contains("feature done=1")) {
                    add("options", Verdict.WARN, warning, false);
                }
            }
            report.note(String.format(Locale.ROOT, "feature negotiation: %.1f ms", identity.handshakeNanos() / 1e6));
        }
        return true;
    }

    /** The engine for the next check, restarted after a failure; null when it cannot be started again. */
    private XBoardEngine engine() {
        if (engine != null && engine.failure().isPresent()) {
            engine.close();
            engine = null;
        }
        if (engine == null && startEngine(false)) {
            engine.newGame();
        }
        return engine;
    }

    private void checkPing() {
        if (engine() == null) {
            add("ping", Verdict.SKIP, "the engine could not be restarted", true);
            return;
        }
        long asked = System.nanoTime();
        Optional<EngineFailure> ready = engine.newGame();
        if (ready.isPresent()) {
            add("ping", Verdict.FAIL, "new, variant, ping: " + ready.get(), true);
        } else if (!engine.hasFeature("ping")) {
            add(
                    "ping",
                    Verdict.WARN,
                    "the engine has no feature ping=1: Taikai cannot tell when it has taken a move",
                    true);
        } else {
            add(
                    "ping",
                    Verdict.PASS,
                    String.format(
                            Locale.ROOT, "new, variant, ping -> pong in %.1f ms", (System.nanoTime() - asked) / 1e6),
                    true);
        }
    }

    /** A move from a game in progress with pieces in hand, set up with {@code setboard}. */
    private void checkSetboard() {
        if (engine() == null) {
            add("setboard", Verdict.SKIP, "the engine could not be restarted", true);
            return;
        }
        String sfen = variant == Variant.MINISHOGI ? "rb1k1/1s2p/5/P4/KGS1R b Gb 5" : "pgk1t/5/3s1/5/T1KGP b s 5";
        engine.newGame();
        MoveReply reply = engine.go(new PositionCommand(sfen, List.of()), SearchLimits.movetime(200));
        if (!(reply instanceof BestMove best)) {
            boolean none = reply instanceof EngineFailure f && f.kind() == EngineFailure.Kind.VARIANT_UNSUPPORTED;
            add(
                    "setboard",
                    none ? Verdict.WARN : Verdict.FAIL,
                    reply.toString() + (none ? "; opening suites cannot be played" : ""),
                    true);
            return;
        }
        try {
            Position position = Sfen.parse(variant, sfen);
            Usi.parse(position, best.move(), Notation.LISHOGI);
            add("setboard", Verdict.PASS, "from " + sfen + " (pieces in hand) -> move " + best.move(), true);
        } catch (Exception e) {
            add("setboard", Verdict.FAIL, "from " + sfen + " -> move " + best.move() + ": " + e.getMessage(), true);
        }
    }

    /** A game as the referee plays one ({@link CheckGame}), the opponent's moves with usermove when asked for. */
    private void checkMoves() {
        if (engine() == null) {
            add(CheckGame.NAME, Verdict.SKIP, "the engine could not be restarted", true);
            return;
        }
        String how = engine.hasFeature("usermove") ? " with usermove" : "";
        CheckReport.Result game = CheckGame.check(engine, variant, Notation.LISHOGI, how);
        add(game.name(), game.verdict(), game.detail(), true);
    }

    private void checkMove(String name, SearchLimits limits) {
        if (engine() == null) {
            add(name, Verdict.SKIP, "the engine could not be restarted", true);
            return;
        }
        engine.newGame();
        MoveReply reply = engine.go(startCommand, limits);
        if (reply instanceof EngineFailure failure) {
            add(name, Verdict.FAIL, failure.toString(), true);
            return;
        }
        CheckReport.Result judged = TimedMove.judge(
                name,
                "'" + engine.clockSettings().replace('\n', ',') + "' -> move",
                (BestMove) reply,
                limits,
                illegal(((BestMove) reply).move()));
        add(name, judged.verdict(), judged.detail(), true);
    }

    private void checkNodes() {
        if (engine() == null) {
            add("nps", Verdict.SKIP, "the engine could not be restarted", true);
            return;
        }
        if (!engine.hasFeature("nps")) {
            add("nps", Verdict.WARN, "the engine has no feature nps=1: node limits cannot be played", true);
            return;
        }
        checkMove("nps", SearchLimits.nodes(1000));
    }

    private void checkMoveNow() {
        if (engine() == null) {
            add("move now (?)", Verdict.SKIP, "the engine could not be restarted", true);
            return;
        }
        engine.newGame();
        engine.startSearch(startCommand, SearchLimits.movetime(30_000));
        sleep(300);
        long asked = System.nanoTime();
        MoveReply reply = engine.moveNow();
        if (reply instanceof BestMove best
                && best.bestMoveReadNanos() < asked
                && illegal(best.move()).isEmpty()) {
            // read before '?' was sent: it moved on its own, and '?' was never put to it
            add(
                    "move now (?)",
                    Verdict.WARN,
                    "'st 30' -> move " + best.move() + " before '?' was sent: not tested (the engine did not think"
                            + " long enough)",
                    true);
        } else if (reply instanceof BestMove best) {
            Optional<String> illegal = illegal(best.move());
            add(
                    "move now (?)",
                    illegal.isEmpty() ? Verdict.PASS : Verdict.FAIL,
                    String.format(
                                    Locale.ROOT,
                                    "'st 30', '?' -> move %s %.1f ms after ?",
                                    best.move(),
                                    (best.bestMoveReadNanos() - asked) / 1e6)
                            + illegal.map(i -> ": " + i).orElse(""),
                    true);
        } else {
            add("move now (?)", Verdict.FAIL, "'st 30', '?': " + reply, true);
        }
    }

    private void checkPingDuringSearch() {
        if (engine() == null) {
            add("ping during search", Verdict.SKIP, "the engine could not be restarted", true);
            return;
        }
        if (!engine.hasFeature("ping")) {
            add("ping during search", Verdict.SKIP, "the engine has no feature ping=1", false);
            return;
        }
        engine.newGame();
        engine.startSearch(startCommand, SearchLimits.movetime(500));
        sleep(100);
        XBoardEngine.PingDuringSearch seen = engine.pingDuringSearch();
        if (seen.reply() instanceof EngineFailure failure) {
            add("ping during search", Verdict.FAIL, failure.toString(), true);
        } else if (seen.pongBeforeMove()) {
            add("ping during search", Verdict.WARN, "pong before the move (CECP asks for it after the move)", true);
        } else if (!seen.pongAfterMove()) {
            add(
                    "ping during search",
                    Verdict.FAIL,
                    "no pong within " + timeouts.readyMillis() + " ms of the move",
                    true);
        } else {
            add("ping during search", Verdict.PASS, "move, then pong", true);
        }
    }

    private void checkResult() {
        if (engine() == null) {
            add("result, new game", Verdict.SKIP, "the engine could not be restarted", true);
            return;
        }
        engine.newGame();
        MoveReply first = engine.go(startCommand, SearchLimits.movetime(100));
        engine.gameOver(GameEnd.WIN);
        long pid = engine.pid();
        Optional<EngineFailure> again = engine.newGame();
        MoveReply second = again.isPresent() ? again.get() : engine.go(startCommand, SearchLimits.movetime(100));
        boolean ok = first instanceof BestMove
                && second instanceof BestMove b
                && illegal(b.move()).isEmpty();
        add(
                "result, new game",
                ok ? Verdict.PASS : Verdict.FAIL,
                "'result 1-0', a new game" + (engine.pid() != pid ? " (in a new process: reuse=0)" : "") + ", then "
                        + (second instanceof BestMove b ? "move " + b.move() : second.toString()),
                true);
    }

    /** Round trip of quick searches ({@code sd 1}). */
    private void measureOverhead() {
        if (engine() == null) {
            return;
        }
        engine.newGame();
        List<Long> roundTrips = new ArrayList<>();
        for (int i = 0; i < OVERHEAD_SAMPLES; i++) {
            MoveReply reply = engine.go(startCommand, SearchLimits.depth(1));
            if (reply instanceof BestMove best) {
                roundTrips.add(best.engineNanos());
            }
        }
        if (!roundTrips.isEmpty()) {
            roundTrips.sort(null);
            report.note(String.format(
                    Locale.ROOT,
                    "per-move round trip ('sd 1', time/otim/go to move, %d moves): median %.2f ms, max %.2f ms",
                    roundTrips.size(),
                    roundTrips.get(roundTrips.size() / 2) / 1e6,
                    roundTrips.get(roundTrips.size() - 1) / 1e6));
        }
    }

    private void checkQuit() {
        if (engine() == null) {
            add("quit", Verdict.SKIP, "the engine could not be restarted", true);
            return;
        }
        QuitResult quit = engine.quit();
        String timing = String.format(Locale.ROOT, "%.1f ms", quit.exitNanos() / 1e6);
        if (!quit.exited()) {
            add("quit", Verdict.FAIL, "did not exit within " + timeouts.quitMillis() + " ms of quit; killed", true);
        } else if (!quit.leftBehind().isEmpty()) {
            add(
                    "quit",
                    Verdict.WARN,
                    "exited after " + timing + " but left " + quit.leftBehind().size() + " process(es) behind, killed: "
                            + quit.leftBehind(),
                    true);
        } else {
            add("quit", Verdict.PASS, engine.exitDescription() + " " + timing + " after quit", true);
        }
    }

    private Optional<String> illegal(String move) {
        if (move.equals("resign")) {
            return Optional.of("resigned from the start position");
        }
        try {
            Usi.parse(Position.start(variant), move, Notation.LISHOGI);
            return Optional.empty();
        } catch (MoveException e) {
            return Optional.of(e.getMessage());
        }
    }

    private void add(String name, Verdict verdict, String detail, boolean required) {
        progress.accept(report.add(name, verdict, detail, required));
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
