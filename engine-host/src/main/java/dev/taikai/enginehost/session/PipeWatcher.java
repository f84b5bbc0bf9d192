package dev.taikai.enginehost.session;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;

/**
 * One daemon thread for all engine sessions. Every {@value #TICK_MILLIS} ms it drains the output and
 * the standard error of engines nobody is waiting on, and fires the deadlines of waits that have run out by killing the
 * engine, which ends the waiting caller's blocking read. Waiting callers pay nothing for it: arming and
 * disarming a deadline is a field write and a compare-and-set.
 */
final class PipeWatcher {
    static final long TICK_MILLIS = 2;

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

        boolean fireIfDue(long now) {
            return state.get() instanceof Armed armed
                    && now - armed.deadlineNanos() >= 0
                    && state.compareAndSet(armed, FIRED);
        }
    }

    /** What the housekeeper needs of a session. */
    interface Session {
        /** Reads what the engine wrote while nobody waits on it (standard output and error); never blocks. */
        void drainAvailable();

        Deadline deadline();

        /** Called once when the session's deadline fires: kill the engine. */
        void deadlineFired();
    }

    private static final Map<Session, Boolean> SESSIONS = new ConcurrentHashMap<>();

    static {
        Thread thread = new Thread(PipeWatcher::run, "taikai-engine-housekeeping");
        thread.setDaemon(true);
        thread.start();
    }

    private PipeWatcher() {}

    static void register(Session session) {
        SESSIONS.put(session, Boolean.TRUE);
    }

    static void unregister(Session session) {
        SESSIONS.remove(session);
    }

    private static void run() {
        while (true) {
            try {
                Thread.sleep(TICK_MILLIS);
            } catch (InterruptedException e) {
                return;
            }
            long now = System.nanoTime();
            for (Session session : SESSIONS.keySet()) {
                try {
                    if (session.deadline().fireIfDue(now)) {
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
