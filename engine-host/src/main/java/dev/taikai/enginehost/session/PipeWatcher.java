package dev.taikai.enginehost.session;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.LongSupplier;

/**
 * One daemon thread for all engine sessions. Every {@value #TICK_MILLIS} ms while any session is open it
 * drains the output and the standard error of engines nobody is waiting on, and fires the deadlines of
 * waits that have run out by killing the engine, which ends the waiting caller's blocking read; with no
 * session open it sleeps until one registers. Waiting callers pay nothing for it: arming and disarming a
 * deadline is a field write and a compare-and-set.
 *
 * <p>The tick is what a deadline may fire late by, and a stall's deadline by default lies a second (the
 * driver's move margin) past the move's overrun margin. A shorter tick bought nothing and cost a wake-up of
 * this thread every 2 ms in every worker and runner, a fifth of a busy worker's CPU.
 *
 * <p>Deadlines are looked at every tick; the pipes of a session whose last drain found nothing are looked
 * at half as often each time, down to every {@value #MAX_IDLE_TICKS} ticks (160 ms), and every tick again
 * as soon as one finds something: a drain is two system calls, and a host of 2,000 idle sessions made
 * 400,000 a second, 40 % of a core, for engines that wrote nothing. 64 KiB of pipe hold what an engine
 * writes in 160 ms unless it writes 400 KB a second, which puts it back on every tick at once; one that
 * waits for a full pipe has been heard from within 160 ms.
 */
final class PipeWatcher {
    static final long TICK_MILLIS = 10;
    /** The most ticks between two drains of a session whose drains find nothing. */
    static final int MAX_IDLE_TICKS = 16;

    static final String THREAD_NAME = "taikai-engine-housekeeping";

    /**
     * A wait with a deadline; whichever of the caller and the housekeeper moves it first decides. Each
     * arming is its own object, so a late look at an earlier wait can never fire a later one.
     */
    static final class Deadline {
        /**
         * An armed wait: due at {@code deadlineNanos}; with an {@code excuse}, when it comes due it moves to
         * {@code baseNanos} plus what the excuse says then (at most {@code maxExcuseNanos}), if that is later.
         */
        private record Armed(long deadlineNanos, long baseNanos, LongSupplier excuse, long maxExcuseNanos) {}

        private static final Object FIRED = new Object();
        private final AtomicReference<Object> state = new AtomicReference<>();

        void arm(long nanos) {
            state.set(new Armed(nanos, nanos, null, 0));
        }

        /**
         * Arms a wait due at {@code nanos} plus the nanoseconds {@code excuse} gives when it comes due, at most
         * {@code maxExcuseNanos}: asked only then, so a wait that ends in time costs nothing more.
         */
        void armExcusing(long nanos, LongSupplier excuse, long maxExcuseNanos) {
            state.set(new Armed(nanos, nanos, excuse, maxExcuseNanos));
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
            if (!(state.get() instanceof Armed armed) || now - armed.deadlineNanos() < 0) {
                return false;
            }
            if (armed.excuse() != null) {
                long excused = Math.min(
                        armed.maxExcuseNanos(), Math.max(0, armed.excuse().getAsLong()));
                long later = armed.baseNanos() + excused;
                if (later - now > 0) {
                    state.compareAndSet(
                            armed, new Armed(later, armed.baseNanos(), armed.excuse(), armed.maxExcuseNanos()));
                    return false;
                }
            }
            return state.compareAndSet(armed, FIRED);
        }
    }

    /** A deadline never armed. */
    static final Deadline NONE = new Deadline();

    /** What the housekeeper needs of a session. */
    interface Session {
        /**
         * Reads what the engine wrote while nobody waits on it (standard output and error); never blocks.
         * Whether it read anything.
         */
        boolean drainAvailable();

        Deadline deadline();

        /** The deadline of a write to the engine's input, which blocks while the engine reads none of it. */
        default Deadline writeDeadline() {
            return NONE;
        }

        /** Called once when the session's deadline fires: kill the engine. */
        void deadlineFired();
    }

    /** How often a session's pipes are drained: every {@code interval} ticks, the next in {@code wait}. */
    private static final class Pace {
        int interval = 1;
        int wait;

        /** Whether this tick drains the session. */
        boolean due() {
            return --wait <= 0;
        }

        void drained(boolean found) {
            interval = found ? 1 : Math.min(MAX_IDLE_TICKS, interval * 2);
            wait = interval;
        }
    }

    private static final Map<Session, Pace> SESSIONS = new ConcurrentHashMap<>();
    /** Notified when a session registers, for the housekeeper that sleeps while there is none. */
    private static final Object REGISTERED = new Object();

    static {
        Thread thread = new Thread(PipeWatcher::run, THREAD_NAME);
        thread.setDaemon(true);
        thread.start();
    }

    private PipeWatcher() {}

    static void register(Session session) {
        SESSIONS.put(session, new Pace());
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
            for (Map.Entry<Session, Pace> entry : SESSIONS.entrySet()) {
                Session session = entry.getKey();
                Pace pace = entry.getValue();
                try {
                    // both fired in one tick: the engine is killed once, the first firing decides
                    if (session.deadline().fireIfDue(now)
                            | session.writeDeadline().fireIfDue(now)) {
                        session.deadlineFired();
                        pace.drained(true);
                    }
                    if (pace.due()) {
                        pace.drained(session.drainAvailable());
                    }
                } catch (RuntimeException e) {
                    // one broken session must not stop the others' housekeeping
                }
            }
        }
    }
}
