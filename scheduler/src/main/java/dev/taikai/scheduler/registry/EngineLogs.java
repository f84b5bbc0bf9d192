package dev.taikai.scheduler.registry;

import java.util.Optional;

/** The games' engine logs as the scheduler serves them (the Kafka side keeps them). */
public interface EngineLogs {
    /** Nothing to serve yet (the scheduler is starting), or Kafka did not answer in time. */
    final class Unavailable extends Exception {
        public Unavailable(String message) {
            super(message);
        }
    }

    /**
     * The gzip-compressed engine log of game {@code localId} of tournament {@code tournamentId}, or empty
     * when none was published (or it has expired). A log published before the call is found.
     */
    Optional<byte[]> log(String tournamentId, String localId) throws Unavailable, InterruptedException;
}
