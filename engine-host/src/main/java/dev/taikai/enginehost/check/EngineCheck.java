package dev.taikai.enginehost.check;

import dev.taikai.enginehost.catalog.EngineSpec;
import dev.taikai.enginehost.catalog.EngineText;
import dev.taikai.enginehost.catalog.Protocol;
import dev.taikai.enginehost.catalog.Quirk;
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
import dev.taikai.enginehost.usi.UsiEngine;
import dev.taikai.rules.MoveException;
import dev.taikai.rules.Position;
import dev.taikai.rules.Usi;
import dev.taikai.rules.Variant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * A compliance check for one engine and variant, like fastchess's {@code --compliance} for UCI; an XBoard
 * engine gets {@link XBoardCheck}. For a USI engine:
 * handshake and variant selection, every {@code go} form the referee uses, {@code stop} and {@code
 * isready} during a search, pondering if offered, {@code gameover}, {@code quit}; it tells swapped clocks
 * by timing and measures the handshake and the per-move overhead. A failed session is restarted so later
 * checks still run.
 */
public final class EngineCheck {
    private static final long MILLI = 1_000_000;
    private static final int OVERHEAD_SAMPLES = 20;
    /** The swapped-clocks check's large clock: the engine's own, then its opponent's. */
    private static final long LARGE_CLOCK_MILLIS = 10_000;
    /** The swapped-clocks check's tiny clock: the opponent's, then the engine's own. */
    private static final long TINY_CLOCK_MILLIS = 100;

    /** The engine started but does not offer the variant (no later check can run, for that reason). */
    private boolean startedWithoutTheVariant;

    private final EngineSpec spec;
    private final Variant variant;
    private final Timeouts timeouts;
    private final Consumer<CheckReport.Result> progress;
    private final CheckReport report;
    private final Position start;
    private final PositionCommand startCommand;
    private UsiEngine engine;
    private boolean anyMoveAnswered;

    private EngineCheck(EngineSpec spec, Variant variant, Timeouts timeouts, Consumer<CheckReport.Result> progress) {
        this.spec = spec;
        this.variant = variant;
        // go nodes 1000 and go depth 3 take any engine a moment; do not wait a minute for them
        this.timeouts = timeouts.withUnboundedSearch(Math.min(timeouts.unboundedSearchMillis(), 10_000));
        this.progress = progress;
        this.report = new CheckReport(spec.id(), variant);
        this.start = Position.start(variant);
        this.startCommand = PositionCommand.of(start.toSfen(spec.notation()));
    }

    /** Runs every check; {@code progress} sees each result as it is known. */
    public static CheckReport run(
            EngineSpec spec, Variant variant, Timeouts timeouts, Consumer<CheckReport.Result> progress) {
        if (spec.protocol() == Protocol.XBOARD) {
            return XBoardCheck.run(spec, variant, timeouts, progress);
        }
        EngineCheck check = new EngineCheck(spec, variant, timeouts, progress);
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
            for (String name : List.of(
                    "isready",
                    "go byoyomi",
                    "go fischer",
                    "go movetime",
                    "go nodes",
                    "go depth",
                    "moves",
                    "clocks",
                    "stop during search",
                    "isready during search",
                    "ponder",
                    "gameover",
                    "quit")) {
                add(name, Verdict.SKIP, why, true);
            }
            return;
        }
        Optional<EngineFailure> ready = engine.isReady();
        add(
                "isready",
                ready.isEmpty() ? Verdict.PASS : Verdict.FAIL,
                ready.map(Object::toString).orElse("readyok"),
                true);
        engine.newGame();
        checkGo("go byoyomi", SearchLimits.byoyomi(2000, 2000, 200));
        checkGo("go fischer", SearchLimits.fischer(2000, 2000, 100, 100));
        checkGo("go movetime", SearchLimits.movetime(200));
        checkGo("go nodes", SearchLimits.nodes(1000));
        checkGo("go depth", SearchLimits.depth(3));
        checkMoves();
        checkClocks();
        checkStop();
        checkIsReadyDuringSearch();
        checkPonder();
        measureOverhead();
        checkGameOver();
        checkStrayAnswers();
        checkQuit();
    }

    /**
     * A warning for answers nobody asked for (a {@code bestmove} outside a search): the driver drops them,
     * so games go on, but an engine that sends them is out of step with the protocol (cutechess-cli logs
     * them too). No line when there were none.
     */
    private void checkStrayAnswers() {
        if (engine() == null) {
            return;
        }
        String oddities = engine.outputOddities();
        if (oddities.contains("nobody asked for")) {
            add("stray answers", Verdict.WARN, oddities + "; the referee drops them", false);
        }
    }

    /** Starts (or restarts) the engine; the first time, reports the handshake and the variant. */
    private boolean startEngine(boolean first) {
        StartResult started = UsiEngine.start(spec, variant, timeouts);
        if (started instanceof EngineFailure failure) {
            boolean variantProblem = failure.kind() == EngineFailure.Kind.VARIANT_UNSUPPORTED;
            if (first) {
                startedWithoutTheVariant = variantProblem;
                add(
                        "handshake",
                        variantProblem ? Verdict.PASS : Verdict.FAIL,
                        variantProblem ? "usiok" : failure.toString(),
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
        engine = (UsiEngine) started;
        if (first) {
            var identity = engine.identity();
            add(
                    "handshake",
                    Verdict.PASS,
                    String.format(
                            Locale.ROOT,
                            "usiok after %.1f ms; '%s' by '%s', %d options",
                            identity.handshakeNanos() / 1e6,
                            EngineText.shown(identity.name()),
                            EngineText.shown(identity.author()),
                            identity.options().size()),
                    true);
            add("variant", Verdict.PASS, "selected with " + identity.variantOption() + " " + variant.name(), true);
            if (!engine.limitsApplied()) {
                add("limits", Verdict.WARN, "setsid/prlimit not found: the engine runs without process limits", false);
            }
            for (String warning : engine.warnings()) {
                add("options", Verdict.WARN, warning, false);
            }
            report.note(String.format(Locale.ROOT, "handshake time: %.1f ms", identity.handshakeNanos() / 1e6));
        }
        return true;
    }

    /** The engine for the next check, restarted after a failure; null when it cannot be started again. */
    private UsiEngine engine() {
        if (engine != null && engine.failure().isPresent()) {
            engine.close();
            engine = null;
        }
        if (engine == null && startEngine(false)) {
            engine.newGame();
        }
        return engine;
    }

    private void checkGo(String name, SearchLimits limits) {
        if (engine() == null) {
            add(name, Verdict.SKIP, "the engine could not be restarted", true);
            return;
        }
        MoveReply reply = engine.go(startCommand, limits);
        String command = limits.goCommand(spec.has(Quirk.SWAPPED_CLOCKS));
        if (reply instanceof EngineFailure failure) {
            add(name, Verdict.FAIL, "'" + command + "': " + failure, true);
            return;
        }
        BestMove best = (BestMove) reply;
        CheckReport.Result judged =
                TimedMove.judge(name, "'" + command + "' -> bestmove", best, limits, illegal(best.move()));
        add(name, judged.verdict(), judged.detail(), true);
        anyMoveAnswered = true;
    }

    /** A game as the referee plays one ({@link CheckGame}): 'position startpos moves ...' before each go. */
    private void checkMoves() {
        if (engine() == null) {
            add(CheckGame.NAME, Verdict.SKIP, "the engine could not be restarted", true);
            return;
        }
        CheckReport.Result game = CheckGame.check(engine, variant, spec.notation(), " in 'position'");
        add(game.name(), game.verdict(), game.detail(), true);
    }

    /** Why a bestmove is no legal move from the start position, or empty. */
    private Optional<String> illegal(String move) {
        if (move.equals("resign")) {
            return Optional.of("resigned from the start position");
        }
        try {
            Usi.parse(start, move, spec.notation());
            return Optional.empty();
        } catch (MoveException e) {
            return Optional.of(e.getMessage());
        }
    }

    /**
     * Swapped clocks, by timing: sente to move, once with 10 s against the opponent's 100 ms and once the
     * other way round. An engine reading its own clock thinks longer in the first search. The large clock
     * is large enough that an engine which stops early on an easy opening position still spends clearly
     * more than on the tiny one (Fairy-Stockfish in Kyoto shogi: about 50 ms at 3 s, 200 ms at 10 s, 13 ms
     * at 100 ms).
     */
    private void checkClocks() {
        if (!anyMoveAnswered) {
            add("clocks", Verdict.SKIP, "the engine answered no go, so its clocks cannot be timed", true);
            return;
        }
        long generous = timeouts.moveMarginMillis() + 5_000; // a swapped engine overruns the tiny clock
        Timeouts lenient = timeouts.withMoveMargin(generous);
        UsiEngine clockEngine = engine();
        if (clockEngine == null) {
            add("clocks", Verdict.SKIP, "the engine could not be restarted", true);
            return;
        }
        clockEngine.close();
        engine = null;
        StartResult started = UsiEngine.start(spec, variant, lenient);
        if (!(started instanceof UsiEngine lenientEngine)) {
            add("clocks", Verdict.FAIL, "restart failed: " + started, true);
            return;
        }
        engine = lenientEngine;
        // one tiny search first, so that a freshly started engine's warm-up is not taken for its time use
        engine.go(startCommand, SearchLimits.nodes(1));
        long ownLarge = timedMillis(SearchLimits.byoyomi(LARGE_CLOCK_MILLIS, TINY_CLOCK_MILLIS, 0));
        long ownTiny = timedMillis(SearchLimits.byoyomi(TINY_CLOCK_MILLIS, LARGE_CLOCK_MILLIS, 0));
        engine.close();
        engine = null;
        if (ownLarge < 0 || ownTiny < 0) {
            add("clocks", Verdict.FAIL, "the engine failed while its clocks were timed", true);
            return;
        }
        String timing = "own clock " + LARGE_CLOCK_MILLIS / 1000 + " s: " + ownLarge + " ms; own clock "
                + TINY_CLOCK_MILLIS + " ms: " + ownTiny + " ms";
        boolean quirk = spec.has(Quirk.SWAPPED_CLOCKS);
        if (ownLarge > 2 * ownTiny + 20) {
            add(
                    "clocks",
                    Verdict.PASS,
                    "reads its own clock" + (quirk ? " (with the swapped-clocks quirk)" : "") + "; " + timing,
                    true);
        } else if (ownTiny > 2 * ownLarge + 20) {
            add(
                    "clocks",
                    Verdict.FAIL,
                    "reads btime/wtime the wrong way round; " + timing + "; "
                            + (quirk
                                    ? "remove the swapped-clocks quirk from its entry"
                                    : "give it the swapped-clocks quirk (engine-check --quirk swapped-clocks,"
                                            + " -engine ... quirk=swapped-clocks, quirks: [swapped-clocks] in a"
                                            + " catalog or tournament file)"),
                    true);
        } else {
            add(
                    "clocks",
                    Verdict.WARN,
                    "its time use does not depend on its clock, so swapped clocks cannot be told; " + timing,
                    true);
        }
    }

    private long timedMillis(SearchLimits limits) {
        MoveReply reply = engine.go(startCommand, limits);
        return reply instanceof BestMove best ? best.engineNanos() / MILLI : -1;
    }

    private void checkStop() {
        if (engine() == null) {
            add("stop during search", Verdict.SKIP, "the engine could not be restarted", true);
            return;
        }
        engine.startSearch(startCommand, SearchLimits.infinite());
        sleep(200);
        long stopped = System.nanoTime();
        MoveReply reply = engine.stop();
        if (reply instanceof BestMove best) {
            Optional<String> illegal = illegal(best.move());
            double afterStop = (best.bestMoveReadNanos() - stopped) / 1e6;
            // a bestmove read before the stop was written came unasked: 'go infinite' ends only at stop
            Verdict verdict = illegal.isPresent() || afterStop < 0 ? Verdict.FAIL : Verdict.PASS;
            add(
                    "stop during search",
                    verdict,
                    afterStop < 0
                            ? String.format(
                                    Locale.ROOT,
                                    "'go infinite' -> bestmove %s %.1f ms before 'stop' was sent: a search with no"
                                            + " limit must wait for stop (USI)",
                                    best.move(),
                                    -afterStop)
                            : String.format(
                                    Locale.ROOT,
                                    "'go infinite', 'stop' -> bestmove %s %.1f ms after stop%s",
                                    best.move(),
                                    afterStop,
                                    illegal.map(i -> ": " + i).orElse("")),
                    true);
        } else {
            add("stop during search", Verdict.FAIL, "'go infinite', 'stop': " + reply, true);
        }
    }

    private void checkIsReadyDuringSearch() {
        if (engine() == null) {
            add("isready during search", Verdict.SKIP, "the engine could not be restarted", true);
            return;
        }
        engine.startSearch(startCommand, SearchLimits.infinite());
        sleep(100);
        long asked = System.nanoTime();
        Optional<EngineFailure> ready = engine.isReady();
        long answered = System.nanoTime();
        if (ready.isPresent()) {
            add("isready during search", Verdict.FAIL, ready.get().toString(), true);
            return;
        }
        MoveReply stopped = engine.stop();
        add(
                "isready during search",
                stopped instanceof BestMove ? Verdict.PASS : Verdict.FAIL,
                String.format(
                        Locale.ROOT,
                        "readyok %.1f ms after isready%s",
                        (answered - asked) / 1e6,
                        stopped instanceof BestMove ? "" : "; then stop: " + stopped),
                true);
    }

    private void checkPonder() {
        if (engine() == null) {
            add("ponder", Verdict.SKIP, "the engine could not be restarted", true);
            return;
        }
        Optional<String> option = Arrays.asList("USI_Ponder", "Ponder").stream()
                .filter(name -> engine.identity().option(name).isPresent())
                .findFirst();
        if (option.isEmpty()) {
            add("ponder", Verdict.SKIP, "the engine offers no USI_Ponder option", false);
            return;
        }
        engine.setOption(option.get(), "true");
        SearchLimits limits = SearchLimits.byoyomi(2000, 2000, 100).pondering();
        engine.startSearch(startCommand, limits);
        sleep(100);
        engine.ponderHit();
        MoveReply hit = engine.awaitBestMove();
        engine.startSearch(startCommand, limits);
        sleep(100);
        MoveReply miss = engine.stop();
        boolean ok = hit instanceof BestMove h && illegal(h.move()).isEmpty() && miss instanceof BestMove;
        add(
                "ponder",
                ok ? Verdict.PASS : Verdict.FAIL,
                "with " + option.get() + ": 'go ponder', 'ponderhit' -> " + describe(hit) + "; 'go ponder', 'stop' -> "
                        + describe(miss),
                true);
        engine.setOption(option.get(), "false");
    }

    private static String describe(MoveReply reply) {
        return reply instanceof BestMove best ? "bestmove " + best.move() : reply.toString();
    }

    /** Round trip of quick searches, and that minus the time the engine itself reports. */
    private void measureOverhead() {
        if (engine() == null) {
            return;
        }
        List<Long> roundTrips = new ArrayList<>();
        List<Long> reported = new ArrayList<>();
        for (int i = 0; i < OVERHEAD_SAMPLES; i++) {
            MoveReply reply = engine.go(startCommand, SearchLimits.nodes(1));
            if (reply instanceof BestMove best) {
                roundTrips.add(best.engineNanos());
                if (best.info() != null && best.info().timeMillis() >= 0) {
                    reported.add(best.info().timeMillis() * MILLI);
                }
            }
        }
        if (roundTrips.isEmpty()) {
            return;
        }
        long roundTrip = median(roundTrips);
        long engineMedian = reported.isEmpty() ? -1 : median(reported);
        String engineTime;
        if (engineMedian < 0) {
            engineTime = "the engine reports no 'info time'";
        } else if (engineMedian > roundTrip) {
            engineTime = "the engine's own 'info time' (median " + engineMedian / MILLI
                    + " ms) is coarser than the round trip, so the overhead is below its resolution";
        } else {
            engineTime = String.format(
                    Locale.ROOT,
                    "engine-reported 'info time' median %d ms, so overhead about %.2f ms",
                    engineMedian / MILLI,
                    (roundTrip - engineMedian) / 1e6);
        }
        report.note(String.format(
                Locale.ROOT,
                "per-move round trip ('go nodes 1', %d moves): median %.2f ms, max %.2f ms; %s",
                roundTrips.size(),
                roundTrip / 1e6,
                roundTrips.stream().mapToLong(Long::longValue).max().orElse(0) / 1e6,
                engineTime));
    }

    private static long median(List<Long> values) {
        List<Long> sorted = new ArrayList<>(values);
        sorted.sort(null);
        return sorted.get(sorted.size() / 2);
    }

    private void checkGameOver() {
        if (engine() == null) {
            add("gameover", Verdict.SKIP, "the engine could not be restarted", true);
            return;
        }
        String before = engine.outputOddities();
        engine.gameOver(GameEnd.WIN);
        Optional<EngineFailure> ready = engine.isReady();
        String after = engine.outputOddities();
        if (ready.isPresent()) {
            add("gameover", Verdict.FAIL, "after 'gameover win': " + ready.get(), true);
        } else if (!after.equals(before)) {
            add(
                    "gameover",
                    Verdict.WARN,
                    "the engine answered 'gameover win' with unexpected output (" + after
                            + "); it still answers isready",
                    false);
        } else {
            add("gameover", Verdict.PASS, "'gameover win', then readyok", true);
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
            add("quit", Verdict.FAIL, "did not exit within " + timings() + " of quit; killed", true);
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

    private String timings() {
        return timeouts.quitMillis() + " ms";
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
