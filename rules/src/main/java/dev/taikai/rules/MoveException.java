package dev.taikai.rules;

/** A move that was rejected: either not a USI move at all, or a USI move that is illegal where it was played. */
public abstract sealed class MoveException extends Exception permits InvalidMoveException, IllegalMoveException {
    private static final long serialVersionUID = 1L;

    private final String moveText;

    MoveException(String moveText, String message) {
        super(message);
        this.moveText = moveText;
    }

    /** The text as it was given. */
    public String moveText() {
        return moveText;
    }
}
