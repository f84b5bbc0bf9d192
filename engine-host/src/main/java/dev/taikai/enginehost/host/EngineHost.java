package dev.taikai.enginehost.host;

import dev.taikai.enginehost.catalog.Catalog;
import dev.taikai.enginehost.catalog.EngineSpec;
import dev.taikai.enginehost.catalog.EngineText;
import dev.taikai.enginehost.engines.Engines;
import dev.taikai.enginehost.session.EngineFailure;
import dev.taikai.enginehost.session.LocalEngine;
import dev.taikai.enginehost.session.PipeLog;
import dev.taikai.enginehost.session.StartResult;
import dev.taikai.enginehost.session.Timeouts;
import dev.taikai.rules.Variant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * The engines one worker lends out: engines from its own catalog only (ARCHITECTURE.md, decision 5), at
 * most {@code slots} processes at once. Each {@link HostedSession} holds one slot from its start until it
 * is closed. A session parked between games ({@link #park}) counts as free: when a new session finds
 * every slot taken, the session parked longest gives its slot up (its owner ends it) and the new one takes
 * it, so that sessions kept for a next game that may never come cannot starve other games. Thread-safe.
 */
public final class EngineHost implements AutoCloseable {
    /** Why a session could not be opened; the engine was never started. */
    public static final class Refused extends Exception {
        public enum Reason {
            NO_SUCH_ENGINE,
            NO_CAPACITY,
            DRAINING
        }

        private final Reason reason;

        Refused(Reason reason, String message) {
            super(message);
            this.reason = reason;
        }

        public Reason reason() {
            return reason;
        }
    }

    /** A started session, or the engine's failure to start (its slot is free again): exactly one is set. */
    public record Started(HostedSession session, EngineFailure failure) {}

    /** How long a new session waits for the slot of a parked session it has told to end. */
    static final long SLOT_GIVEN_UP_MILLIS = 5_000;

    private final String workerId;
    private final Catalog catalog;
    private final int slots;
    private final Semaphore free;
    private final Timeouts timeouts;
    private final HostListener listener;
    private final Set<HostedSession> sessions = ConcurrentHashMap.newKeySet();
    private final Set<Runnable> drainActions = ConcurrentHashMap.newKeySet();
    /** Parked sessions, longest parked first, with what ends each. */
    private final Map<HostedSession, Runnable> parked = new LinkedHashMap<>();

    private volatile boolean draining;

    public EngineHost(String workerId, Catalog catalog, int slots, Timeouts timeouts, HostListener listener) {
        if (slots < 1) {
            throw new IllegalArgumentException("a worker needs at least one engine slot, not " + slots);
        }
        this.workerId = workerId;
        this.catalog = catalog;
        this.slots = slots;
        this.free = new Semaphore(slots);
        this.timeouts = timeouts;
        this.listener = listener;
    }

    /**
     * Starts {@code engineId} with {@code options} set over the catalog's, for {@code variant}, in a free
     * slot. The engine runs until the session is closed.
     *
     * @throws Refused when the id is not in the catalog, every slot is taken, or the host is draining
     * @throws IllegalArgumentException naming the option when an option cannot be sent ({@link EngineText})
     */
    public Started start(String engineId, Map<String, String> options, Variant variant) throws Refused {
        return start(engineId, options, variant, false);
    }

    /**
     * As {@link #start(String, Map, Variant)}; with {@code logPipes} the session keeps every line to and
     * from its engine ({@link HostedSession#takeLog}), at most {@link PipeLog#WORKER_CAP_CHARS} a game.
     */
    public Started start(String engineId, Map<String, String> options, Variant variant, boolean logPipes)
            throws Refused {
        EngineText.options("options", options);
        EngineSpec base = catalog.engine(engineId)
                .orElseThrow(() -> new Refused(
                        Refused.Reason.NO_SUCH_ENGINE,
                        "no engine '" + engineId + "' in the catalog of worker " + workerId + " (it has "
                                + String.join(
                                        ", ",
                                        catalog.engines().stream()
                                                .map(EngineSpec::id)
                                                .toList()) + ")"));
        EngineSpec spec = base.withOptionsOver(options);
        if (draining) {
            throw new Refused(Refused.Reason.DRAINING, "worker " + workerId + " is shutting down");
        }
        if (!free.tryAcquire() && !(endLongestParked() && awaitSlot())) {
            throw new Refused(
                    Refused.Reason.NO_CAPACITY, "all " + slots + " engine slots of worker " + workerId + " are in use");
        }
        StartResult started;
        try {
            // a cluster's session has no one to warn at its start: an option the engine does not list is refused
            started = LocalEngine.refusingUnlistedOptions(
                    Engines.start(spec, variant, timeouts, logPipes ? new PipeLog(PipeLog.WORKER_CAP_CHARS) : null));
        } catch (RuntimeException e) {
            free.release();
            throw e;
        }
        if (started instanceof EngineFailure failure) {
            free.release();
            listener.engineFailed(engineId, failure);
            return new Started(null, failure);
        }
        HostedSession session = new HostedSession(this, engineId, (LocalEngine) started);
        sessions.add(session);
        listener.sessionOpened(engineId);
        return new Started(session, null);
    }

    /**
     * Parks {@code session} between games: its slot counts as free, and {@code end} (which must end the
     * session soon, from any thread) is run when a new session needs the slot.
     */
    public synchronized void park(HostedSession session, Runnable end) {
        if (sessions.contains(session)) {
            parked.put(session, end);
        }
    }

    /**
     * Takes {@code session} out of the parked ones as its next game begins; false when it was not parked or
     * has already been told to give its slot up (it ends, and must not begin the game).
     */
    public synchronized boolean unpark(HostedSession session) {
        return parked.remove(session) != null;
    }

    /** Tells the session parked longest to end; false when none is parked. */
    private boolean endLongestParked() {
        Runnable end;
        synchronized (this) {
            var longest = parked.entrySet().iterator();
            if (!longest.hasNext()) {
                return false;
            }
            end = longest.next().getValue();
            longest.remove();
        }
        end.run();
        return true;
    }

    /** Waits for the slot of a session that was told to end (its engine is told to quit first). */
    private boolean awaitSlot() {
        try {
            return free.tryAcquire(SLOT_GIVEN_UP_MILLIS, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** Called once by a session as it closes. */
    void closed(HostedSession session) {
        synchronized (this) {
            parked.remove(session);
        }
        if (sessions.remove(session)) {
            free.release();
            listener.sessionClosed(session.engineId());
        }
    }

    HostListener listener() {
        return listener;
    }

    public String workerId() {
        return workerId;
    }

    public Catalog catalog() {
        return catalog;
    }

    public int slots() {
        return slots;
    }

    /** Slots free now, counting those of parked sessions. */
    public synchronized int freeSlots() {
        return free.availablePermits() + parked.size();
    }

    /** Sessions parked between games. */
    public synchronized int parkedSessions() {
        return parked.size();
    }

    public int activeSessions() {
        return sessions.size();
    }

    public boolean draining() {
        return draining;
    }

    /**
     * Takes no new sessions from now on and tells the callers registered with {@link #onDrain}; the running
     * sessions go on until their callers end them.
     */
    public void drain() {
        draining = true;
        drainActions.forEach(Runnable::run);
    }

    /**
     * Runs {@code action} when the host starts to drain (at once if it already does), so that a caller
     * between games can end its session early; the returned handle unregisters it.
     */
    public Runnable onDrain(Runnable action) {
        drainActions.add(action);
        if (draining) {
            action.run();
        }
        return () -> drainActions.remove(action);
    }

    /** Drains and kills every engine. */
    @Override
    public void close() {
        drain();
        for (HostedSession session : sessions) {
            session.close();
        }
    }
}
