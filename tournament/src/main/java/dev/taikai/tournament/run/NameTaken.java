package dev.taikai.tournament.run;

/** A league join under a name that is in the pool, or that stands for another engine. */
public final class NameTaken extends IllegalArgumentException {
    NameTaken(String message) {
        super(message);
    }
}
