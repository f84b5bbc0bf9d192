package dev.taikai.rules;

/** Text that is not a USI move of the variant (a syntax error), whatever the position. */
public final class InvalidMoveException extends MoveException {
    private static final long serialVersionUID = 1L;

    public InvalidMoveException(String moveText, String reason) {
        super(moveText, "not a USI move: '" + Usi.printable(moveText) + "': " + reason);
    }
}
