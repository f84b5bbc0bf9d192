package dev.taikai.cli.run;

import dev.taikai.enginehost.config.ConfigException;
import dev.taikai.enginehost.engines.Engines;
import dev.taikai.enginehost.host.HostLimits;
import dev.taikai.enginehost.session.EngineFailure;
import dev.taikai.enginehost.session.GameLog;
import dev.taikai.enginehost.session.LocalEngine;
import dev.taikai.enginehost.session.StartResult;
import dev.taikai.enginehost.session.Timeouts;
import dev.taikai.referee.game.GameAssignment;
import dev.taikai.referee.game.GameHost;
import dev.taikai.referee.game.GameObserver;
import dev.taikai.referee.game.GameRecord;
import dev.taikai.referee.game.Referee;
import dev.taikai.rules.Color;
import dev.taikai.tournament.Entrant;
import dev.taikai.tournament.Standings;
import dev.taikai.tournament.TournamentSpec;
import dev.taikai.tournament.run.Counted;
import dev.taikai.tournament.run.Stop;
import dev.taikai.tournament.run.TournamentRun;
import dev.taikai.tournament.stats.Sprt;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Runs a tournament on this machine: the planned games not yet in the records, {@code concurrency} at a
 * time, each between two engine processes through the referee; every finished game is recorded at once
 * and counted once. Ctrl-C stops it without recording the games in progress; {@code taikai run --resume
 * DIR}, or the same command with {@code -out DIR}, resumes. A two-engine match with SPRT stops when the test concludes.
 */
public final class LocalRunner {
    /** How a run ended. */
    public enum Ending {
        FINISHED,
        SPRT_CONCLUDED,
        INTERRUPTED,
        ABORTED
    }

    private final RunPlan plan;
    private final PrintWriter out;
    private final PrintWriter progress;
    private final Timeouts timeouts;
    private final List<SlotSessions> seats = new CopyOnWriteArrayList<>();
    /** The longest the first games wait for the other slots' engines to start. */
    private static final long START_BARRIER_SECONDS = 60;

    /** Each played game's engine log (-log), compressed, until the game is recorded. */
    private final java.util.Map<String, byte[]> engineLogs = new java.util.concurrent.ConcurrentHashMap<>();

    private final AtomicInteger done = new AtomicInteger();
    /** Games begun by this run and those recorded before it: the number of the game starting next. */
    private final AtomicInteger begun = new AtomicInteger();
    /** The engines a league took out that the run has said so of (those of a resumed run's past, too). */
    private final java.util.Set<String> dropsSaid = java.util.concurrent.ConcurrentHashMap.newKeySet();
    /** The league's rounds passed without games that were said (under the run's lock). */
    private int passesSaid;

    private final java.util.concurrent.atomic.AtomicLong movesThisRun = new java.util.concurrent.atomic.AtomicLong();
    private volatile boolean stopping;
    private volatile boolean interrupted;
    /** How the run was started, kept in its folder for {@code --resume}; null when nobody asked. */
    private Invocation invocation;

    private boolean verbose;
    private boolean strict;
    /** Entrants whose start warnings have been said (once a run). */
    private final java.util.Set<String> warnedOf = java.util.concurrent.ConcurrentHashMap.newKeySet();
    /** The run being played (set once by {@link #run}). */
    private volatile TournamentRun currentRun;
    /** The records of the run in progress, for the note of an interrupt; null outside {@link #run(TournamentRun)}. */
    private volatile RunRecords currentRecords;

    public LocalRunner(RunPlan plan, PrintWriter out, PrintWriter progress) {
        this(plan, out, progress, Timeouts.DEFAULT);
    }

    LocalRunner(RunPlan plan, PrintWriter out, PrintWriter progress, Timeouts timeouts) {
        this.plan = plan;
        this.out = out;
        this.progress = progress;
        this.timeouts = timeouts;
    }

    /** With {@code on}, the report ends with the run's own figures (games per second, manager CPU per move). */
    public LocalRunner verbose(boolean on) {
        this.verbose = on;
        return this;
    }

    /**
     * With {@code on}, an engine that does not list an option it is given cannot be used (the run stops
     * before its first game); without, the option is not sent and the run says so once an engine.
     */
    public LocalRunner strict(boolean on) {
        this.strict = on;
        return this;
    }

    /** Keeps {@code started} in the records folder, so that {@code taikai run --resume DIR} can start it again. */
    public LocalRunner recording(Invocation started) {
        this.invocation = started;
        return this;
    }

    public Ending run() throws IOException, ConfigException {
        TournamentSpec spec = plan.spec();
        for (Entrant entrant : spec.entrants()) {
            Optional<String> why = Engines.whyNotStartable(plan.engineOf(entrant));
            if (why.isPresent()) {
                say("engine '" + entrant.name() + "' cannot be used: " + why.get() + "; no game was played");
                return Ending.ABORTED;
            }
        }
        // a folder 'cluster submit' wrote: its games were the cluster's, and this run would count them as its own
        Path clusterRecords = plan.output().resolve(RecordsFolder.TOURNAMENT_ID);
        if (Files.exists(clusterRecords)) {
            throw new ConfigException(plan.output() + " holds the records of cluster tournament "
                    + Files.readString(clusterRecords).strip() + " (" + RecordsFolder.TOURNAMENT_ID + "): write them"
                    + " again with '" + Launcher.command()
                    + " cluster fetch', or run this one in another folder (another -out or"
                    + " output:, or none for a new one)");
        }
        TournamentRun run = plan.newRun();
        currentRun = run;
        try {
            return run(run);
        } catch (RecordsNotWritten e) {
            if (!Files.isDirectory(plan.output())) { // nothing is kept, and nothing to resume
                say("stopped: the records folder " + plan.output() + " was removed while the run went on, and the"
                        + " games recorded in it with it; run the tournament again to play them");
                return Ending.ABORTED;
            }
            say("stopped: " + e.getMessage() + "; the games recorded before are kept");
            if (invocation != null) {
                say("once that is mended, resume with " + Invocation.resumeCommand(plan.output()));
            }
            return Ending.ABORTED;
        }
    }

    private Ending run(TournamentRun run) throws IOException, ConfigException {
        TournamentSpec spec = plan.spec();
        try (RunRecords records = RunRecords.open(plan, run, invocation)) {
            currentRecords = records;
            if (invocation != null) {
                Path command = records.directory().resolve(Invocation.FILE);
                RunRecords.writing(command, () -> invocation.writeTo(records.directory()));
            }
            records.warnings().forEach(w -> say("warning: " + w));
            run.retryStarts()
                    .ifPresent(why -> say("this run stopped before: " + why
                            + "; it goes on and starts that engine again (the games it forfeited stay counted)"));
            Standings standings = run.standings();
            dropsSaid.addAll(run.dropped().keySet()); // said by the run that took them out
            if (standings.gamesPlayed() > 0) {
                passesSaid = run.leagueRoundsPassed().size(); // so are the rounds that passed before
            }
            done.set(standings.gamesPlayed());
            begun.set(standings.gamesPlayed());
            say(String.format(
                    Locale.ROOT,
                    "%s: %s %s, %d engines, %s; records in %s",
                    spec.name(),
                    spec.variant().name(),
                    spec.format().id(),
                    spec.entrants().size(),
                    planText(run, done.get()),
                    records.directory()));
            records.note("run " + (done.get() > 0 ? "resumed" : "begins") + ": " + planText(run, done.get()));
            sayLeagueChanges(run, records);
            if (done.get() > 0 && run.stop().isPresent()) { // a rerun never silently does nothing
                say(
                        run.gamesLeftToHandOut()
                                ? "this run's SPRT concluded before ("
                                        + run.stop().get().detail()
                                        + "); the games in play then, not recorded, are played now"
                                : "nothing is left to play: this run ended before ("
                                        + run.stop().get().detail()
                                        + "); a new run needs another folder (another -out or output:, or none for a new one)");
            }
            CrowdedCores.warning(spec, Runtime.getRuntime().availableProcessors())
                    .ifPresent(w -> say("warning: " + w));
            // two engines a game slot, a thread each slot
            HostLimits.ofThisProcess()
                    .shortfalls(2 * spec.concurrency(), spec.concurrency())
                    .forEach(w -> say("warning: " + w));
            Thread hook = new Thread(() -> interrupt(run), "taikai-interrupt");
            Runtime.getRuntime().addShutdownHook(hook);
            long started = System.nanoTime();
            int baseline = done.get();
            ExecutorService pool = Executors.newFixedThreadPool(spec.concurrency(), runnable -> {
                Thread thread = new Thread(runnable, "game-slot");
                thread.setDaemon(true);
                return thread;
            });
            CountDownLatch firstGamesReady = new CountDownLatch(spec.concurrency());
            for (int i = 0; i < spec.concurrency(); i++) {
                pool.submit(() -> slot(run, records, started, baseline, firstGamesReady));
            }
            pool.shutdown();
            awaitQuietly(pool);
            if (interrupted) {
                return Ending.INTERRUPTED;
            }
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException e) {
                // the JVM is already shutting down
            }
            records.finish(standings);
            records.note(run.stop()
                    .map(stop -> switch (stop.kind()) {
                        case FINISHED -> "finished: " + stop.detail();
                        case SPRT_CONCLUDED -> stop.detail();
                        case ABORTED, CANCELLED -> "stopped: " + stop.detail();
                    })
                    .orElse("finished"));
            Report.print(out, spec, standings);
            run.league().ifPresent(league -> LeagueReport.print(out, league, run.dropped()));
            if (!run.summary().isEmpty()) {
                out.println();
                run.summary().forEach(out::println);
            }
            long moves = movesThisRun.get();
            double cpuSeconds = processCpuNanos() / 1e9;
            if (verbose) {
                out.printf(
                        Locale.ROOT,
                        "%nThis run: %d games in %.1f s, manager CPU %.2f s (%.1f µs per move over %d moves)%n",
                        done.get() - baseline,
                        (System.nanoTime() - started) / 1e9,
                        cpuSeconds,
                        moves == 0 ? 0 : cpuSeconds * 1e6 / moves,
                        moves);
            }
            out.printf(
                    "%nRecords: %s (results.json, games/*.kif, all-games.kif, all-games.sfen, taikai.log, report.html)%n",
                    records.directory());
            out.flush();
        }
        Stop stop = run.stop().orElse(null);
        if (stop == null) {
            return Ending.FINISHED;
        }
        return switch (stop.kind()) {
            case FINISHED -> {
                if (run.endedBeforeItsPlan()) { // the plan said more: say why it ended
                    say(stop.detail());
                }
                yield Ending.FINISHED;
            }
            case SPRT_CONCLUDED -> {
                say(stop.detail());
                yield Ending.SPRT_CONCLUDED;
            }
            case ABORTED, CANCELLED -> {
                say("stopped: " + stop.detail());
                if (run.forfeitsAreFinal()) {
                    say("every game was played, so a resume has none left to play: the games that engine forfeited"
                            + " are this run's result; to play them with the engine mended, start a new run in"
                            + " another folder (another -out or output:, or none for a new one)");
                } else if (invocation != null) { // a demo keeps no command to resume
                    say("once that is mended, resume with " + Invocation.resumeCommand(plan.output()));
                }
                yield Ending.ABORTED;
            }
        };
    }

    /** "12 games planned", "12 games planned, 4 already played (resuming)", or a league's rounds. */
    private static String planText(TournamentRun run, int played) {
        return PlanText.of(run.spec(), run.paired()) + (played > 0 ? ", " + played + " already played (resuming)" : "");
    }

    /**
     * Games the run will have played when it ends, as far as it can be known ({@link
     * TournamentRun#gamesExpected}: a knockout's tiebreaks raise it as they are paired), never fewer than
     * the games begun, so the ETA never runs below zero. 0 for a league without an end.
     */
    private int expectedGames(TournamentRun run) {
        int expected = run.gamesExpected();
        return expected == 0 ? 0 : Math.max(expected, begun.get());
    }

    /**
     * The next game for a slot: waits while the next round waits for games in play; null when the run has
     * nothing more to hand out (or is stopping). A slot that has to wait says {@code ready} first: it has
     * no engines to start for the first games, which must not wait for it.
     */
    private GameAssignment nextGame(TournamentRun run, Runnable ready) throws InterruptedException {
        synchronized (run) {
            while (!stopping) {
                List<GameAssignment> next = run.handOut(1);
                if (!next.isEmpty()) {
                    return next.get(0);
                }
                if (!run.running() || run.inPlay() == 0) {
                    return null;
                }
                ready.run();
                run.wait();
            }
            return null;
        }
    }

    /**
     * One game slot: plays the games the run hands out one after another with its own engine sessions.
     * The first games of all slots begin together, once every slot has started its engines (or has none to
     * start): an engine starting up (a JVM engine warms up for a second) would otherwise take the CPU from
     * the first moves of the slots that were quicker, and they would be charged for it.
     */
    private void slot(
            TournamentRun run, RunRecords records, long started, int baseline, CountDownLatch firstGamesReady) {
        SlotSessions seat =
                new SlotSessions(plan.spec().variant(), timeouts, plan.restartEveryGame(), strict, plan.engineLogs());
        seats.add(seat);
        Runnable ready = new Runnable() {
            private boolean arrived;

            @Override
            public void run() {
                if (!arrived) {
                    arrived = true;
                    firstGamesReady.countDown();
                }
            }
        };
        try {
            while (!stopping) {
                GameAssignment game = nextGame(run, ready);
                if (game == null) {
                    break;
                }
                GameRecord record = play(game, seat, ready, firstGamesReady);
                ready.run();
                if (record == null || interrupted) {
                    break;
                }
                synchronized (run) {
                    if (interrupted) {
                        break;
                    }
                    byte[] log = engineLogs.remove(record.id());
                    if (run.count(record) == Counted.COUNTED) {
                        movesThisRun.addAndGet(record.plies());
                        records.write(record, run.standings());
                        if (log != null) {
                            records.writeEngineLog(record.id(), log);
                        }
                        report(record, run.standings(), expectedGames(run), started, baseline);
                        sayLeagueChanges(run, records);
                    }
                    run.notifyAll();
                }
            }
        } catch (RecordsNotWritten e) {
            abort(run, e.getMessage()); // run() says it: the records' failure, not the run's
        } catch (IOException | RuntimeException e) {
            abort(run, "cannot go on: " + e);
        } catch (OutOfMemoryError e) { // the journal keeps every game recorded: a resume with more heap goes on
            abort(run, OutOfMemory.message());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            ready.run();
            seat.close();
        }
    }

    private int started() {
        return begun.incrementAndGet();
    }

    /**
     * Says each engine a league took out of its pool since the last call (it did not start in its last
     * games, or cannot be used), and each round that passed without games, on the console and in
     * taikai.log: the final table alone said the first, nothing the second, and a league without an end
     * has no final table until it is stopped. Call under the run's lock.
     */
    private void sayLeagueChanges(TournamentRun run, RunRecords records) {
        run.dropped().forEach((engine, why) -> {
            if (dropsSaid.add(engine)) {
                String line = "league: engine '" + engine + "' is taken out of the pool: " + why;
                say(line);
                records.note(line);
            }
        });
        List<String> passed = run.leagueRoundsPassed();
        for (; passesSaid < passed.size(); passesSaid++) {
            String line = "league: " + passed.get(passesSaid);
            say(line);
            records.note(line);
        }
    }

    /** Stops the run for good with {@code reason}; the slots end after their games in play. */
    private void abort(TournamentRun run, String reason) {
        synchronized (run) {
            run.abort(reason);
            stopping = true;
            run.notifyAll();
        }
    }

    /** Plays {@code game} with the seat's sessions; before the move it says {@code ready} and waits for the others. */
    private GameRecord play(GameAssignment game, SlotSessions seat, Runnable ready, CountDownLatch firstGamesReady) {
        long started = System.currentTimeMillis();
        Entrant sente = plan.spec().entrant(game.sente());
        Entrant gote = plan.spec().entrant(game.gote());
        StartResult senteSession = seat.session(sente.name(), plan.engineOf(sente));
        Optional<GameRecord> failed = startFailure(game, Color.SENTE, senteSession, started);
        if (failed.isPresent() || senteSession instanceof EngineFailure) {
            return failed.orElse(null);
        }
        if (stopping) {
            return null; // Ctrl-C while sente's engine started: start no more
        }
        StartResult goteSession = seat.session(gote.name(), plan.engineOf(gote));
        failed = startFailure(game, Color.GOTE, goteSession, started);
        if (failed.isPresent() || goteSession instanceof EngineFailure) {
            return failed.orElse(null);
        }
        warnOfStartProblems(sente.name(), (LocalEngine) senteSession);
        warnOfStartProblems(gote.name(), (LocalEngine) goteSession);
        ready.run();
        try {
            firstGamesReady.await(START_BARRIER_SECONDS, TimeUnit.SECONDS); // a slot that hangs cannot hold the rest
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
        if (stopping) {
            return null;
        }
        synchronized (begun) { // numbered and said at once: two slots said "game 13", then "game 12"
            say(String.format(
                    Locale.ROOT,
                    "Started game %d%s (%s: %s vs %s)",
                    started(),
                    ofTotal(" of ", expectedGames(currentRun)),
                    game.gameId(),
                    game.sente(),
                    game.gote()));
        }
        GameRecord record = GameHost.play(
                game, (LocalEngine) senteSession, (LocalEngine) goteSession, Referee.SAME_MACHINE, GameObserver.NONE);
        keepLog(
                record.id(),
                List.of(
                        EngineLogs.side(sente.name(), (LocalEngine) senteSession),
                        EngineLogs.side(gote.name(), (LocalEngine) goteSession)));
        // a failure that every game would meet again (an XBoard engine without setboard, given an opening)
        // stops the run when the game is counted (TournamentRun), as in a cluster
        seat.dropFailed();
        return record;
    }

    /**
     * Says once an entrant's start warnings: options it does not list, and what else its driver noted (an
     * XBoard engine that never said feature done=1, an option line it could not read).
     */
    private void warnOfStartProblems(String entrant, LocalEngine engine) {
        if (engine.warnings().isEmpty() || !warnedOf.add(entrant)) {
            return;
        }
        List<String> unlisted = engine.unlistedOptions();
        for (String option : unlisted) {
            say("warning: engine '" + entrant + "': " + option + "; not sent (--strict: stop instead)");
        }
        for (String warning : engine.warnings()) {
            if (unlisted.stream().noneMatch(option -> warning.equals(option + "; not sent"))) {
                say("warning: engine '" + entrant + "': " + warning);
            }
        }
    }

    /** A game lost before it began because an engine failed to start; fatal start failures stop the run (null). */
    private Optional<GameRecord> startFailure(GameAssignment game, Color side, StartResult session, long started) {
        if (!(session instanceof EngineFailure failure)) {
            return Optional.empty();
        }
        String entrant = side == Color.SENTE ? game.sente() : game.gote();
        if (SlotSessions.fatal(failure)) {
            // every game would meet it again: the run stops for good
            abort(currentRun, "engine '" + entrant + "' cannot be used: " + failure);
            return Optional.empty();
        }
        keepLog(game.gameId(), List.of(EngineLogs.failedStart(entrant, failure)));
        started(); // a game, though forfeited: "Started game N" numbers the games as their results do
        return Optional.of(GameHost.forfeit(game, side, failure, started));
    }

    /** Keeps a game's engine log until the game is recorded, when there is one (-log, or a failed engine). */
    private void keepLog(String gameId, List<GameLog.Side> sides) {
        if (GameLog.any(sides)) {
            engineLogs.put(gameId, GameLog.gzipped(sides));
        }
    }

    private void report(GameRecord record, Standings standings, int planned, long started, int baseline) {
        int finished = done.incrementAndGet();
        Standings.Row leader = standings.table().stream()
                .max((a, b) -> Double.compare(a.points(), b.points()))
                .orElseThrow();
        double elapsed = (System.nanoTime() - started) / 1e9;
        int playedHere = finished - baseline;
        double eta = playedHere == 0 ? 0 : elapsed / playedHere * Math.max(0, planned - finished);
        String result = record.winner() == null ? "draw" : record.winner() + " wins";
        say(String.format(
                Locale.ROOT,
                "[%d%s] %s %s vs %s: %s by %s (%s) | leader %s %.1f/%d | %s elapsed, %s",
                finished,
                ofTotal("/", planned),
                record.id(),
                record.assignment().sente(),
                record.assignment().gote(),
                result,
                record.outcome().termination().name().toLowerCase(Locale.ROOT),
                Plural.plies(record.plies()),
                leader.engine(),
                leader.points(),
                leader.games(),
                duration(elapsed),
                plan.spec().sprt() != null ? sprtText(standings) : planned > 0 ? "ETA " + duration(eta) : "no end"));
        // not after the last game: the report that ends the run begins with the same table
        if (plan.ratingInterval() > 0
                && finished % plan.ratingInterval() == 0
                && (planned == 0 || finished < planned)) {
            StringWriter table = new StringWriter();
            Report.standings(new PrintWriter(table), plan.spec(), standings);
            progress.print(table);
            progress.flush();
        }
    }

    /** {@code " of 12"} or {@code "/12"}; nothing for a run without an end ({@code total} 0). */
    private static String ofTotal(String separator, int total) {
        return total > 0 ? separator + total : "";
    }

    /** The SPRT's LLR and its bounds now: {@code LLR 0.52 (-2.94, 2.94)}. */
    private String sprtText(Standings standings) {
        Sprt sprt = plan.spec().sprt();
        String a = plan.spec().entrants().get(0).name();
        String b = plan.spec().entrants().get(1).name();
        return String.format(
                Locale.ROOT,
                "LLR %s (%.2f, %.2f)",
                Sprt.format(sprt.llr(standings.pentanomial(a, b))),
                sprt.lowerBound(),
                sprt.upperBound());
    }

    /** Ctrl-C or SIGTERM: stop, kill the engines, leave the records as they are (the games in progress are not recorded). */
    private void interrupt(TournamentRun run) {
        interrupted = true;
        stopping = true;
        synchronized (run) { // a game being recorded is recorded whole first
            run.notifyAll();
        }
        for (SlotSessions seat : seats) {
            seat.close();
        }
        RunRecords records = currentRecords;
        if (records != null) {
            records.note("interrupted: " + Plural.games(done.get()) + " recorded; the games in play were not");
            records.interrupted(run.standings());
        }
        synchronized (run) {
            say("interrupted: " + Plural.games(done.get()) + " recorded"
                    + (invocation == null ? "" : "; resume with " + Invocation.resumeCommand(plan.output())));
        }
    }

    private void say(String line) {
        progress.println(line);
        progress.flush();
    }

    /** CPU time of this JVM alone (engines are other processes), or 0 where the JVM does not say. */
    private static long processCpuNanos() {
        var os = java.lang.management.ManagementFactory.getOperatingSystemMXBean();
        return os instanceof com.sun.management.OperatingSystemMXBean sun ? sun.getProcessCpuTime() : 0;
    }

    private static String duration(double seconds) {
        long s = Math.round(seconds);
        return s >= 3600 ? String.format("%dh%02dm", s / 3600, s / 60 % 60) : String.format("%dm%02ds", s / 60, s % 60);
    }

    private static void awaitQuietly(ExecutorService pool) {
        try {
            while (!pool.awaitTermination(1, TimeUnit.SECONDS)) {
                // the slots end when the queue is empty or the run stops
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
