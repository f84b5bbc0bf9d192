package dev.taikai.refereeservice.remote;

import dev.taikai.referee.game.Pairing;
import dev.taikai.rules.Variant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.locks.ReentrantLock;
import java.util.logging.Logger;

/**
 * Remote sessions kept between games, so that fast games do not pay for an engine start each: a session
 * whose game ended without a failure waits here for the next game of the same engine, options and
 * variant, and the same choice of engine log. Idle sessions are closed after {@code idleMillis}; their workers count their slots as free and
 * end them sooner when a new session needs the slot.
 *
 * <p>A game takes both its sessions with {@link #borrowBoth}, which cannot starve: the games of this
 * referee that take an idle session, or find the workers full, gather their sessions one at a time (a game
 * whose engines have no idle session here and find free slots gathers two new ones at once, {@link
 * #gatherNew}), and a game that has its first engine but finds no slot for
 * the second gives the first back before it waits, so that two games (of this referee or of two) never
 * hold one slot each while each waits for the other's. A game waits as long as the workers are full,
 * without giving up; the log says that it waits, and warns when the workers have fewer than two slots in
 * all, which no game can be played with.
 */
public final class SessionPool implements AutoCloseable {
    private static final Logger LOG = Logger.getLogger(SessionPool.class.getName());
    /** How often a game that waits for slots says so again. */
    private static final long WAIT_REPORT_NANOS = 30_000_000_000L;

    private record Idle(RemoteSession session, long since) {}

    /** Both sessions of one game; {@code gote} is null when sente's engine failed to start. */
    public record Both(RemoteSession.Opened sente, RemoteSession.Opened gote) {}

    private final WorkerPool workers;
    private final long idleNanos;
    private final long unreachableNanos;
    private final Map<String, Deque<Idle>> idle = new HashMap<>();
    /** Held while one game gathers its two sessions. */
    private final ReentrantLock gathering = new ReentrantLock(true);

    private volatile boolean closed;
    private volatile boolean warnedTooFewSlots;

    /**
     * @param idleMillis how long a session may wait for its next game
     * @param unreachableMillis how long to try when no worker can be reached at all (full workers are
     *     waited for without a limit)
     */
    public SessionPool(WorkerPool workers, long idleMillis, long unreachableMillis) {
        this.workers = workers;
        this.idleNanos = idleMillis * 1_000_000;
        this.unreachableNanos = unreachableMillis * 1_000_000;
    }

    /** What a game does with both its sessions while the pool is still held for it. */
    @FunctionalInterface
    public interface WithBoth<R> {
        R then(Both both);
    }

    /**
     * Takes both sessions of game {@code gameId}, idle ones where there are, waiting while the workers are
     * full, and runs {@code then} with them before another game of this referee may take sessions: a game
     * readies its engines there, so that a session it took from the pool (idle, on its worker, until its
     * new game begins) is not given away to this referee's next game.
     *
     * With {@code logPipes} both sessions keep their engines' logs.
     *
     * @throws WorkerLost when no worker can be reached for the unreachable time, or this pool closes
     */
    public <R> R borrowBoth(
            String gameId,
            Pairing.Engine sente,
            Pairing.Engine gote,
            Variant variant,
            boolean logPipes,
            WithBoth<R> then) {
        if (!hasIdle(sente, variant, logPipes) && !hasIdle(gote, variant, logPipes)) {
            Gathered<R> played = gatherNew(gameId, sente, gote, variant, logPipes, then);
            if (played != null) {
                return played.result();
            }
        }
        try {
            gathering.lockInterruptibly();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new WorkerLost("interrupted while game " + gameId + " waited for engine slots");
        }
        try {
            Waiting waiting = new Waiting(gameId);
            while (true) {
                Both both = tryBoth(sente, gote, variant, logPipes, waiting, true);
                if (both != null) {
                    return then.then(both);
                }
                waiting.pause();
            }
        } finally {
            gathering.unlock();
        }
    }

    /**
     * Gathers two new sessions for a game neither of whose engines has an idle one here, without waiting
     * for the other games of this referee: new sessions were never parked, so no other game's start can
     * take their slots, and their engines' starts are paced by the workers' own start gates. Gathered one at
     * a time behind a lock, a referee started 3.5 games a second on a busy machine, and 1,000 games at once
     * were never in play. Null, with nothing held, when the workers have no slot free now: the game then
     * gathers behind the lock, which cannot starve.
     */
    private <R> Gathered<R> gatherNew(
            String gameId,
            Pairing.Engine sente,
            Pairing.Engine gote,
            Variant variant,
            boolean logPipes,
            WithBoth<R> then) {
        Both both = tryBoth(sente, gote, variant, logPipes, new Waiting(gameId), false);
        return both == null ? null : new Gathered<>(then.then(both));
    }

    /** What {@link #gatherNew} played, or nothing gathered (null). */
    private record Gathered<R>(R result) {}

    /**
     * One attempt at both sessions of a game: sente's (waiting for a slot, and taking an idle session, if
     * {@code behindLock}) then gote's. Null when gote's finds no slot, after sente's is given back (a new
     * session was never parked on its worker, so it could not give its slot up) or when sente's finds none
     * outside the lock; gote is null in what is returned when sente's engine failed to start.
     */
    private Both tryBoth(
            Pairing.Engine sente,
            Pairing.Engine gote,
            Variant variant,
            boolean logPipes,
            Waiting waiting,
            boolean behindLock) {
        RemoteSession.Opened first = borrow(sente, variant, logPipes, waiting, behindLock, behindLock);
        if (first == null) {
            return null;
        }
        if (first.failure() != null) {
            return new Both(first, null);
        }
        RemoteSession.Opened second = borrow(gote, variant, logPipes, waiting, false, behindLock);
        if (second == null) {
            giveBack(first.session(), sente, variant, first.session().playedBefore());
            return null;
        }
        return new Both(first, second);
    }

    private synchronized boolean hasIdle(Pairing.Engine engine, Variant variant, boolean logPipes) {
        Deque<Idle> parked = idle.get(key(engine, variant, logPipes));
        return parked != null && !parked.isEmpty();
    }

    /**
     * A session for {@code engine}: an idle one (if {@code takeIdle}), or a new one. When the workers are
     * full it waits for a slot if {@code waitWhenFull}, and returns null otherwise.
     */
    private RemoteSession.Opened borrow(
            Pairing.Engine engine,
            Variant variant,
            boolean logPipes,
            Waiting waiting,
            boolean waitWhenFull,
            boolean takeIdle) {
        String key = key(engine, variant, logPipes);
        synchronized (this) {
            Deque<Idle> parked = takeIdle ? idle.get(key) : null;
            while (parked != null && !parked.isEmpty()) {
                RemoteSession session = parked.pollLast().session();
                if (session.usable()) {
                    return new RemoteSession.Opened(session, null);
                }
                session.close();
            }
        }
        long unreachableSince = System.nanoTime();
        while (true) {
            if (closed) {
                throw new WorkerLost("the referee is shutting down");
            }
            try {
                return workers.open(engine, variant, logPipes);
            } catch (WorkerPool.Full full) {
                waiting.full(full);
                if (!waitWhenFull) {
                    return null;
                }
                unreachableSince = System.nanoTime();
            } catch (WorkerLost lost) {
                if (System.nanoTime() - unreachableSince > unreachableNanos) {
                    throw lost;
                }
            }
            waiting.pause();
        }
    }

    /** What one game's wait for slots has said, and its pauses. */
    private final class Waiting {
        private final String gameId;
        private final long since = System.nanoTime();
        private long reportedAt;

        Waiting(String gameId) {
            this.gameId = gameId;
        }

        void full(WorkerPool.Full full) {
            if (full.slots() < 2) {
                if (!warnedTooFewSlots) {
                    warnedTooFewSlots = true;
                    LOG.warning("the engine workers have " + full.slots() + " engine slot(s) in all and a game needs"
                            + " two: no game can start until more workers (or slots) are added");
                }
            } else {
                warnedTooFewSlots = false;
            }
            long now = System.nanoTime();
            if (reportedAt == 0 || now - reportedAt > WAIT_REPORT_NANOS) {
                LOG.info("game " + gameId + " waits for two free engine slots (waiting " + (now - since) / 1_000_000_000
                        + " s): " + full.getMessage());
                reportedAt = now;
            }
        }

        /** A short pause, randomised so that referees that collided do not collide again. */
        void pause() {
            try {
                Thread.sleep(50 + ThreadLocalRandom.current().nextLong(200));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new WorkerLost("interrupted while game " + gameId + " waited for engine slots");
            }
        }
    }

    /** Gives a session back after a game: kept when it is healthy and {@code reuse}, closed otherwise. */
    public void giveBack(RemoteSession session, Pairing.Engine engine, Variant variant, boolean reuse) {
        if (!reuse || !session.usable() || idleNanos <= 0 || closed) {
            session.close();
            return;
        }
        synchronized (this) {
            idle.computeIfAbsent(key(engine, variant, session.logsPipes()), k -> new ArrayDeque<>())
                    .addLast(new Idle(session, System.nanoTime()));
        }
    }

    /** Closes sessions idle for longer than the idle time; call now and then. */
    public void closeStale() {
        long now = System.nanoTime();
        List<RemoteSession> stale = new ArrayList<>();
        synchronized (this) {
            for (Deque<Idle> waiting : idle.values()) {
                waiting.removeIf(i -> {
                    boolean old = now - i.since() > idleNanos || !i.session().usable();
                    if (old) {
                        stale.add(i.session());
                    }
                    return old;
                });
            }
        }
        stale.forEach(RemoteSession::close);
    }

    /** Closes every idle session; returns how many there were. */
    public int closeAllIdle() {
        List<RemoteSession> all = new ArrayList<>();
        synchronized (this) {
            idle.values().forEach(waiting -> waiting.forEach(i -> all.add(i.session())));
            idle.clear();
        }
        all.forEach(RemoteSession::close);
        return all.size();
    }

    public synchronized int idleCount() {
        return idle.values().stream().mapToInt(Deque::size).sum();
    }

    private static String key(Pairing.Engine engine, Variant variant, boolean logPipes) {
        return engine.engineId() + "|" + variant.name() + "|" + logPipes + "|" + new TreeMap<>(engine.options());
    }

    /** Closes the idle sessions; games waiting for slots give up. */
    @Override
    public void close() {
        closed = true;
        closeAllIdle();
    }
}
