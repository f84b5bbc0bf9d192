package dev.taikai.rules;

import java.util.Objects;

/**
 * How a game ended: the result, the reason, and a one-line detail for the record (which move was
 * illegal, who checked perpetually, which adjudication rule fired).
 */
public record Outcome(Result result, Termination termination, String detail) {
    public Outcome {
        Objects.requireNonNull(result, "result");
        Objects.requireNonNull(termination, "termination");
        Objects.requireNonNull(detail, "detail");
    }

    /** The winner, or {@code null} for a draw. */
    public Color winner() {
        return result.winner();
    }
}
