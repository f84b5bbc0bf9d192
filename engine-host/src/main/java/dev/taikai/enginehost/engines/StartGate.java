package dev.taikai.enginehost.engines;

import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

/**
 * Engine starts on one host, paced: at most {@link #permits} starts in their first {@link #holdMillis} at
 * once, the others wait their turn before their process is started, so that their deadlines run only once
 * they run. A storm of starts (a tournament's first round, a worker given 500 games at once) then neither
 * makes honest engines miss their handshake deadline for want of a CPU (100 Fairy-Stockfish started at
 * once took 24 s to say usiok, past the 10 s allowed) nor takes the cores from games in play. A start that
 * is still busy after {@link #holdMillis} gives its turn up, so an engine that never answers (it waits out
 * its whole deadline) holds up the others for no longer than that. A start that waited {@link
 * #maxWaitMillis} for its turn goes ahead without one: a caller may have a deadline of its own (the
 * referee's for a worker's start).
 */
public final class StartGate {
    /** This host's gate: half the cores at once (one on two cores), a turn of 2 s, a wait of at most 20 s. */
    public static final StartGate HOST =
            new StartGate(Math.max(1, Runtime.getRuntime().availableProcessors() / 2), 2_000, 20_000);

    private static final ScheduledExecutorService RELEASES = Executors.newSingleThreadScheduledExecutor(runnable -> {
        Thread thread = new Thread(runnable, "taikai-engine-start-turns");
        thread.setDaemon(true);
        return thread;
    });

    private final int permits;
    private final long holdMillis;
    private final long maxWaitMillis;
    private final Semaphore turns;
    private final AtomicInteger waiting = new AtomicInteger();
    private final AtomicInteger holding = new AtomicInteger();

    StartGate(int permits, long holdMillis, long maxWaitMillis) {
        if (permits < 1 || holdMillis < 1 || maxWaitMillis < 0) {
            throw new IllegalArgumentException("a start gate needs a turn, a hold and a wait");
        }
        this.permits = permits;
        this.holdMillis = holdMillis;
        this.maxWaitMillis = maxWaitMillis;
        this.turns = new Semaphore(permits, true);
    }

    /** Runs {@code start} in its turn: at once when one is free, else once one is (at most {@link #maxWaitMillis}). */
    public <T> T through(Supplier<T> start) {
        waiting.incrementAndGet();
        boolean got;
        try {
            got = turns.tryAcquire(maxWaitMillis, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            got = false;
        } finally {
            waiting.decrementAndGet();
        }
        if (!got) {
            return start.get();
        }
        holding.incrementAndGet();
        AtomicBoolean released = new AtomicBoolean();
        Runnable release = () -> {
            if (released.compareAndSet(false, true)) {
                holding.decrementAndGet();
                turns.release();
            }
        };
        var held = RELEASES.schedule(release, holdMillis, TimeUnit.MILLISECONDS);
        try {
            return start.get();
        } finally {
            held.cancel(false);
            release.run();
        }
    }

    /** How many starts may be in their first {@link #holdMillis} at once. */
    public int permits() {
        return permits;
    }

    public long holdMillis() {
        return holdMillis;
    }

    public long maxWaitMillis() {
        return maxWaitMillis;
    }

    /** Starts waiting for their turn now. */
    public int waiting() {
        return waiting.get();
    }

    /** Starts holding a turn now. */
    public int holding() {
        return holding.get();
    }
}
