package dev.taikai.enginehost.session;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;

/**
 * One daemon thread for all engine sessions. Every {@value #TICK_MILLIS} ms while any session is open it
 * drains the output and the standard error of engines nobody is waiting on, and fires the deadlines of
 * waits that have run out by killing the engine, which ends the waiting caller's blocking read; with no
 * session open it sleeps until one registers. Waiting callers pay nothing for it: arming and disarming a
 * deadline is a field write and a compare-and-set.
 *
 * <p>The tick is what a deadline may fire late by, and a stall's deadline by default lies a second (the
 * driver's move margin) past the move's overrun margin; 64 KiB of pipe hold what an idle engine writes in a
 * tick unless it writes 6 MB a second. A shorter tick bought nothing and cost a wake-up of this thread
 * every 2 ms in every worker and runner, a fifth of a busy worker's CPU.
 */
final class PipeWatcher {
    static final long TICK_MILLIS = 10;
    static final String THREAD_NAME = "taikai-engine-housekeeping";

    /**
     * A wait with a deadline; whichever of the caller and the housekeeper moves it first decides. Each
     * arming is its own object, so a late look at an earlier wait can never fire a later one.
     */
    static final class Deadline {
        private record Armed(long deadlineNanos) {}

        private static final Object FIRED = new Object();
        private final AtomicReference<Object> state = new AtomicReference<>();

        void arm(long nanos) {
            state.set(new Armed(nanos));
        }

        /** True when the wait ended before the deadline fired. */
        boolean disarm() {
            Object current = state.get();
            return current != FIRED && (current == null || state.compareAndSet(current, null));
        }

        /** Whether a wait is under way (armed and neither ended nor fired). */
        boolean armed() {
            return state.get() instanceof Armed;
        }

        boolean fireIfDue(long now) {
            return state.get() instanceof Armed armed
                    && now - armed.deadlineNanos() >= 0
                    && state.compareAndSet(armed, FIRED);
        }
    }

    /** A deadline never armed. */
    static final Deadline NONE = new Deadline();

    /** What the housekeeper needs of a session. */
    interface Session {
        /** Reads what the engine wrote while nobody waits on it (standard output and error); never blocks. */
        void drainAvailable();

        Deadline deadline();

        /** The deadline of a write to the engine's input, which blocks while the engine reads none of it. */
        default Deadline writeDeadline() {
            return NONE;
        }

        /** Called once when the session's deadline fires: kill the engine. */
        void deadlineFired();
    }

    private static final Map<Session, Boolean> SESSIONS = new ConcurrentHashMap<>();
    /** Notified when a session registers, for the housekeeper that sleeps while there is none. */
    private static final Object REGISTERED = new Object();

    static {
        Thread thread = new Thread(PipeWatcher::run, THREAD_NAME);
        thread.setDaemon(true);
        thread.start();
    }

    private PipeWatcher() {}

    static void register(Session session) {
        SESSIONS.put(session, Boolean.TRUE);
        synchronized (REGISTERED) {
            REGISTERED.notifyAll();
        }
    }

    /** How many sessions are registered now. */
    static int registered() {
        return SESSIONS.size();
    }

    static void unregister(Session session) {
        SESSIONS.remove(session);
    }

    private static void run() {
        while (true) {
            try {
                synchronized (REGISTERED) {
                    while (SESSIONS.isEmpty()) {
                        REGISTERED.wait();
                    }
                }
                Thread.sleep(TICK_MILLIS);
            } catch (InterruptedException e) {
                return;
            }
            long now = System.nanoTime();
            for (Session session : SESSIONS.keySet()) {
                try {
                    // both fired in one tick: the engine is killed once, the first firing decides
                    if (session.deadline().fireIfDue(now)
                            | session.writeDeadline().fireIfDue(now)) {
                        session.deadlineFired();
                    }
                    session.drainAvailable();
                } catch (RuntimeException e) {
                    // one broken session must not stop the others' housekeeping
                }
            }
        }
    }
}
