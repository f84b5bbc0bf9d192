package dev.taikai.enginehost.session;

/**
 * An engine's evaluation from an {@code info} line, from the side to move's point of view.
 *
 * @param mate true for {@code score mate}, false for {@code score cp}
 * @param value centipawns, or plies to mate (negative: being mated); 0 with {@code mate} when the
 *     engine wrote {@code mate +} or {@code mate -} without a distance
 * @param bound {@code lowerbound} or {@code upperbound} when the engine marked the score so
 */
public record Score(boolean mate, int value, Bound bound) {
    public enum Bound {
        EXACT,
        LOWER,
        UPPER
    }

    public static Score centipawns(int value) {
        return new Score(false, value, Bound.EXACT);
    }

    public static Score mateIn(int plies) {
        return new Score(true, plies, Bound.EXACT);
    }

    Score withBound(Bound newBound) {
        return new Score(mate, value, newBound);
    }

    @Override
    public String toString() {
        return (mate ? "mate " : "cp ")
                + value
                + (bound == Bound.EXACT ? "" : " " + bound.name().toLowerCase() + "bound");
    }
}
