package dev.taikai.enginehost.session;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The race between a waiting caller and the housekeeper: exactly one of them decides each wait. */
class DeadlineTest {
    @Test
    void aDueDeadlineFiresOnceAndTheCallerLearnsIt() {
        PipeWatcher.Deadline deadline = new PipeWatcher.Deadline();
        long now = System.nanoTime();
        deadline.arm(now - 1);
        assertTrue(deadline.fireIfDue(now));
        assertFalse(deadline.fireIfDue(now), "fires once");
        assertFalse(deadline.disarm(), "the caller sees that the deadline fired");
    }

    @Test
    void aWaitThatEndedInTimeCannotFireLater() {
        PipeWatcher.Deadline deadline = new PipeWatcher.Deadline();
        long now = System.nanoTime();
        deadline.arm(now + 1_000_000_000L);
        assertFalse(deadline.fireIfDue(now), "not due yet");
        assertTrue(deadline.disarm());
        assertFalse(deadline.fireIfDue(now + 2_000_000_000L), "disarmed waits never fire");
    }

    @Test
    void anEarlierWaitsDeadlineNeverFiresALaterWait() {
        PipeWatcher.Deadline deadline = new PipeWatcher.Deadline();
        long now = System.nanoTime();
        deadline.arm(now - 1); // an earlier, already overdue wait...
        assertTrue(deadline.disarm()); // ...that ended before the housekeeper looked
        deadline.arm(now + 1_000_000_000L); // the next wait
        assertFalse(deadline.fireIfDue(now));
        assertTrue(deadline.disarm());
    }
}
