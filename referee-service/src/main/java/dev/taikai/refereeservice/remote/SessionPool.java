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

/**
 * Remote sessions kept between games, so that fast games do not pay for an engine start each: a session
 * whose game ended without a failure waits here for the next game of the same engine, options and
 * variant. Idle sessions are closed after {@code idleMillis}, and at once when a worker needs their slot.
 */
public final class SessionPool implements AutoCloseable {
    private record Idle(RemoteSession session, long since) {}

    private final WorkerPool workers;
    private final long idleNanos;
    private final long waitNanos;
    private final Map<String, Deque<Idle>> idle = new HashMap<>();

    /**
     * @param idleMillis how long a session may wait for its next game
     * @param waitMillis how long to wait for a free slot when every worker is full
     */
    public SessionPool(WorkerPool workers, long idleMillis, long waitMillis) {
        this.workers = workers;
        this.idleNanos = idleMillis * 1_000_000;
        this.waitNanos = waitMillis * 1_000_000;
    }

    /**
     * A session for {@code engine}: an idle one, or a new one (closing idle sessions of other engines when
     * the workers are full, and waiting for a slot up to the wait time).
     *
     * @throws WorkerLost when no worker can start it within the wait time
     */
    public RemoteSession.Opened borrow(Pairing.Engine engine, Variant variant) {
        String key = key(engine, variant);
        synchronized (this) {
            Deque<Idle> waiting = idle.get(key);
            while (waiting != null && !waiting.isEmpty()) {
                RemoteSession session = waiting.pollLast().session();
                if (session.usable()) {
                    return new RemoteSession.Opened(session, null);
                }
                session.close();
            }
        }
        long deadline = System.nanoTime() + waitNanos;
        while (true) {
            try {
                return workers.open(engine, variant);
            } catch (WorkerLost full) {
                boolean freed = closeAllIdle() > 0;
                if (System.nanoTime() > deadline) {
                    throw full;
                }
                try {
                    Thread.sleep(freed ? 20 : 100); // slots free as engines quit and games end
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw full;
                }
            }
        }
    }

    /** Gives a session back after a game: kept when it is healthy and {@code reuse}, closed otherwise. */
    public void giveBack(RemoteSession session, Pairing.Engine engine, Variant variant, boolean reuse) {
        if (!reuse || !session.usable() || idleNanos <= 0) {
            session.close();
            return;
        }
        synchronized (this) {
            idle.computeIfAbsent(key(engine, variant), k -> new ArrayDeque<>())
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
                    boolean old = now - i.since() > idleNanos;
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

    private static String key(Pairing.Engine engine, Variant variant) {
        return engine.engineId() + "|" + variant.name() + "|" + new TreeMap<>(engine.options());
    }

    @Override
    public void close() {
        closeAllIdle();
    }
}
