package dev.taikai.enginehost.session;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The housekeeper's rounds: they reach every registered session, also one that registers after none was left. */
class PipeWatcherTest {
    /** A session whose deadline is already due; counts the housekeeper's rounds over it. */
    private static final class DueSession implements PipeWatcher.Session {
        final PipeWatcher.Deadline deadline = new PipeWatcher.Deadline();
        final CountDownLatch fired = new CountDownLatch(1);
        final AtomicInteger drained = new AtomicInteger();

        DueSession() {
            deadline.arm(System.nanoTime() - 1);
        }

        DueSession(boolean due) {
            if (due) {
                deadline.arm(System.nanoTime() - 1);
            }
        }

        /** What each drain says it found. */
        volatile boolean finds = true;

        @Override
        public boolean drainAvailable() {
            drained.incrementAndGet();
            return finds;
        }

        @Override
        public PipeWatcher.Deadline deadline() {
            return deadline;
        }

        @Override
        public void deadlineFired() {
            fired.countDown();
        }
    }

    @Test
    void aSessionRegisteredAfterTheLastOneLeftIsStillWatched() throws InterruptedException {
        for (int i = 0; i < 3; i++) { // the second and third register while the housekeeper may wait for one
            DueSession session = new DueSession();
            PipeWatcher.register(session);
            try {
                assertTrue(session.fired.await(10, TimeUnit.SECONDS), "round " + i + ": the due deadline fired");
                long drainedBy = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
                while (session.drained.get() < 2 && System.nanoTime() < drainedBy) {
                    Thread.sleep(1);
                }
                assertTrue(session.drained.get() >= 2, "round " + i + ": drained on every round");
            } finally {
                PipeWatcher.unregister(session);
            }
            assertFalse(session.deadline.disarm(), "the caller learns that its deadline fired");
            awaitHousekeeperIdle(); // with no session left it waits: the next registration must wake it
        }
    }

    /**
     * A session whose drains find nothing is drained less and less often, down to one tick in {@value
     * PipeWatcher#MAX_IDLE_TICKS}, while one that finds output is drained every tick: two system calls a
     * drain, for every idle session of a host, every 10 ms, were 40 % of a core at 2,000 sessions.
     */
    @Test
    void aSessionWhoseDrainsFindNothingIsDrainedLessOften() throws InterruptedException {
        DueSession busy = new DueSession(false);
        DueSession idle = new DueSession(false);
        idle.finds = false;
        PipeWatcher.register(busy);
        PipeWatcher.register(idle);
        try {
            long by = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (busy.drained.get() < 320 && System.nanoTime() < by) {
                Thread.sleep(5);
            }
            int ticks = busy.drained.get(); // the busy one is drained on every tick
            assertTrue(ticks >= 320, "only " + ticks + " ticks in 60 s");
            int drains = idle.drained.get();
            assertTrue(drains >= 2, "the idle session is still drained: " + drains);
            assertTrue(
                    drains <= ticks / PipeWatcher.MAX_IDLE_TICKS + 8,
                    drains + " drains of an idle session in " + ticks + " ticks");
            idle.finds = true; // it writes again: drained every tick once a drain finds it
            int before = busy.drained.get();
            int idleBefore = idle.drained.get();
            while (busy.drained.get() < before + 100 && System.nanoTime() < by) {
                Thread.sleep(5);
            }
            assertTrue(
                    idle.drained.get() - idleBefore >= 100 - PipeWatcher.MAX_IDLE_TICKS - 2,
                    "drained again every tick");
        } finally {
            PipeWatcher.unregister(busy);
            PipeWatcher.unregister(idle);
        }
        awaitHousekeeperIdle();
    }

    /** Waits until the housekeeping thread waits for a registration (the other tests of this JVM left none). */
    private static void awaitHousekeeperIdle() throws InterruptedException {
        Thread housekeeper = Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.getName().equals(PipeWatcher.THREAD_NAME))
                .findFirst()
                .orElseThrow();
        long by = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (housekeeper.getState() != Thread.State.WAITING && System.nanoTime() < by) {
            Thread.sleep(1);
        }
        assertTrue(
                housekeeper.getState() == Thread.State.WAITING,
                "the housekeeper waits while no session is open; sessions open: " + PipeWatcher.registered()
                        + " (one left by an earlier test is a leaked engine)");
    }
}
