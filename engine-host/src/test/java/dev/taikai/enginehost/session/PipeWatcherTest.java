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

        @Override
        public void drainAvailable() {
            drained.incrementAndGet();
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
