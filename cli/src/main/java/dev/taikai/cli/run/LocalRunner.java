package dev.taikai.cli.run;

import dev.taikai.enginehost.config.ConfigException;
import dev.taikai.enginehost.usi.EngineFailure;
import dev.taikai.enginehost.usi.StartResult;
import dev.taikai.enginehost.usi.Timeouts;
import dev.taikai.enginehost.usi.UsiEngine;
import dev.taikai.referee.game.GameAssignment;
import dev.taikai.referee.game.GameHost;
import dev.taikai.referee.game.GameObserver;
import dev.taikai.referee.game.GameRecord;
import dev.taikai.referee.game.Referee;
import dev.taikai.rules.Color;
import dev.taikai.tournament.Entrant;
import dev.taikai.tournament.Schedule;
import dev.taikai.tournament.Standings;
import dev.taikai.tournament.TournamentSpec;
import dev.taikai.tournament.stats.Sprt;
import java.io.IOException;
import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Runs a tournament on this machine: the planned games not yet in the records, {@code concurrency} at a
 * time, each between two engine processes through the referee; every finished game is recorded at once
 * and counted once. Ctrl-C stops it without recording the games in progress; running the same command
 * again resumes. A two-engine match with SPRT stops when the test concludes.
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
    private final List<Seat> seats = new CopyOnWriteArrayList<>();
    /** The longest the first games wait for the other slots' engines to start. */
    private static final long START_BARRIER_SECONDS = 60;

    private final AtomicInteger done = new AtomicInteger();
    private final java.util.concurrent.atomic.AtomicLong movesThisRun = new java.util.concurrent.atomic.AtomicLong();
    private volatile boolean stopping;
    private volatile boolean interrupted;
    private volatile String abortReason;
    private volatile String sprtVerdict;

    public LocalRunner(RunPlan plan, PrintWriter out, PrintWriter progress) {
        this(plan, out, progress, Timeouts.DEFAULT);
    }

    LocalRunner(RunPlan plan, PrintWriter out, PrintWriter progress, Timeouts timeouts) {
        this.plan = plan;
        this.out = out;
        this.progress = progress;
        this.timeouts = timeouts;
    }

    public Ending run() throws IOException, ConfigException {
        TournamentSpec spec = plan.spec();
        List<GameAssignment> planned = Schedule.plan(spec);
        Standings standings =
                new Standings(spec.entrants().stream().map(Entrant::name).toList());
        try (RunRecords records = RunRecords.open(plan, planned)) {
            records.warnings().forEach(w -> say("warning: " + w));
            records.resumedGames().forEach(standings::add);
            ConcurrentLinkedQueue<GameAssignment> pending = new ConcurrentLinkedQueue<>();
            planned.stream().filter(g -> !standings.contains(g.gameId())).forEach(pending::add);
            done.set(standings.gamesPlayed());
            say(String.format(
                    Locale.ROOT,
                    "%s: %s %s, %d engines, %d games planned%s; records in %s",
                    spec.name(),
                    spec.variant().name(),
                    spec.format().id(),
                    spec.entrants().size(),
                    planned.size(),
                    done.get() > 0 ? ", " + done.get() + " already played (resuming)" : "",
                    records.directory()));
            CrowdedCores.warning(spec, Runtime.getRuntime().availableProcessors())
                    .ifPresent(w -> say("warning: " + w));
            checkSprt(standings);
            Thread hook = new Thread(() -> interrupt(records), "taikai-interrupt");
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
                pool.submit(
                        () -> slot(pending, standings, records, planned.size(), started, baseline, firstGamesReady));
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
            Report.print(out, spec, standings);
            long moves = movesThisRun.get();
            double cpuSeconds = processCpuNanos() / 1e9;
            out.printf(
                    Locale.ROOT,
                    "%nThis run: %d games in %.1f s, manager CPU %.2f s (%.1f µs per move over %d moves)%n",
                    done.get() - baseline,
                    (System.nanoTime() - started) / 1e9,
                    cpuSeconds,
                    moves == 0 ? 0 : cpuSeconds * 1e6 / moves,
                    moves);
            out.printf("%nRecords: %s (results.json, games/*.kif, taikai.log)%n", records.directory());
            out.flush();
        }
        if (abortReason != null) {
            say("stopped: " + abortReason);
            return Ending.ABORTED;
        }
        if (sprtVerdict != null) {
            say(sprtVerdict);
            return Ending.SPRT_CONCLUDED;
        }
        return Ending.FINISHED;
    }

    /**
     * One game slot: plays pending games one after another with its own engine sessions. The first games
     * of all slots begin together, once every slot has started its engines (or has none to start): an
     * engine starting up (a JVM engine warms up for a second) would otherwise take the CPU from the first
     * moves of the slots that were quicker, and they would be charged for it.
     */
    private void slot(
            ConcurrentLinkedQueue<GameAssignment> pending,
            Standings standings,
            RunRecords records,
            int planned,
            long started,
            int baseline,
            CountDownLatch firstGamesReady) {
        Seat seat = new Seat(plan.spec().variant(), timeouts, plan.restartEveryGame());
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
                GameAssignment game = pending.poll();
                if (game == null) {
                    break;
                }
                GameRecord record = play(game, seat, ready, firstGamesReady);
                ready.run();
                if (record == null || interrupted) {
                    break;
                }
                synchronized (records) {
                    if (interrupted) {
                        break;
                    }
                    if (standings.add(record)) {
                        movesThisRun.addAndGet(record.plies());
                        records.write(record, standings);
                        report(record, standings, planned, started, baseline);
                        checkSprt(standings);
                    }
                }
            }
        } catch (IOException | RuntimeException e) {
            abortReason = "cannot go on: " + e;
            stopping = true;
        } finally {
            ready.run();
            seat.close();
        }
    }

    /** Plays {@code game} with the seat's sessions; before the move it says {@code ready} and waits for the others. */
    private GameRecord play(GameAssignment game, Seat seat, Runnable ready, CountDownLatch firstGamesReady) {
        long started = System.currentTimeMillis();
        Entrant sente = plan.spec().entrant(game.sente());
        Entrant gote = plan.spec().entrant(game.gote());
        StartResult senteSession = seat.session(sente.name(), plan.engineOf(sente));
        Optional<GameRecord> failed = startFailure(game, Color.SENTE, senteSession, started);
        if (failed.isPresent() || senteSession instanceof EngineFailure) {
            return failed.orElse(null);
        }
        StartResult goteSession = seat.session(gote.name(), plan.engineOf(gote));
        failed = startFailure(game, Color.GOTE, goteSession, started);
        if (failed.isPresent() || goteSession instanceof EngineFailure) {
            return failed.orElse(null);
        }
        ready.run();
        try {
            firstGamesReady.await(START_BARRIER_SECONDS, TimeUnit.SECONDS); // a slot that hangs cannot hold the rest
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
        GameRecord record = GameHost.play(
                game, (UsiEngine) senteSession, (UsiEngine) goteSession, Referee.SAME_MACHINE, GameObserver.NONE);
        seat.dropFailed();
        return record;
    }

    /** A game lost before it began because an engine failed to start; fatal start failures stop the run (null). */
    private Optional<GameRecord> startFailure(GameAssignment game, Color side, StartResult session, long started) {
        if (!(session instanceof EngineFailure failure)) {
            return Optional.empty();
        }
        String entrant = side == Color.SENTE ? game.sente() : game.gote();
        if (Seat.fatal(failure)) {
            abortReason = "engine '" + entrant + "' cannot be used: " + failure;
            stopping = true;
            return Optional.empty();
        }
        return Optional.of(GameHost.forfeit(game, side, failure, started));
    }

    private void report(GameRecord record, Standings standings, int planned, long started, int baseline) {
        int finished = done.incrementAndGet();
        Standings.Row leader = standings.table().stream()
                .max((a, b) -> Double.compare(a.points(), b.points()))
                .orElseThrow();
        double elapsed = (System.nanoTime() - started) / 1e9;
        int playedHere = finished - baseline;
        double eta = playedHere == 0 ? 0 : elapsed / playedHere * (planned - finished);
        String result = record.winner() == null ? "draw" : record.winner() + " wins";
        say(String.format(
                Locale.ROOT,
                "[%d/%d] %s %s vs %s: %s by %s (%d plies) | leader %s %.1f/%d | %s elapsed, ETA %s",
                finished,
                planned,
                record.id(),
                record.assignment().sente(),
                record.assignment().gote(),
                result,
                record.outcome().termination().name().toLowerCase(Locale.ROOT),
                record.plies(),
                leader.engine(),
                leader.points(),
                leader.games(),
                duration(elapsed),
                plan.spec().sprt() != null ? "SPRT decides" : duration(eta)));
    }

    private void checkSprt(Standings standings) {
        Sprt sprt = plan.spec().sprt();
        if (sprt == null || stopping) {
            return;
        }
        String a = plan.spec().entrants().get(0).name();
        String b = plan.spec().entrants().get(1).name();
        double llr = sprt.llr(standings.pentanomial(a, b));
        Sprt.Status status = sprt.status(llr);
        if (status != Sprt.Status.CONTINUE) {
            sprtVerdict = String.format(
                    Locale.ROOT,
                    "SPRT concluded after %d games: %s accepted (LLR %.2f, bounds %.2f, %.2f)",
                    standings.gamesPlayed(),
                    status,
                    llr,
                    sprt.lowerBound(),
                    sprt.upperBound());
            stopping = true;
        }
    }

    /** Ctrl-C or SIGTERM: stop, kill the engines, leave the records as they are (the games in progress are not recorded). */
    private void interrupt(RunRecords records) {
        interrupted = true;
        stopping = true;
        for (Seat seat : seats) {
            seat.close();
        }
        synchronized (records) {
            say("interrupted: " + done.get() + " games recorded; run the same command again to resume");
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
