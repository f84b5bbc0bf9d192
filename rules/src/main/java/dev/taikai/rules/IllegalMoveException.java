package dev.taikai.rules;

/** A well-formed USI move that the rules do not allow in the position where it was played. */
public final class IllegalMoveException extends MoveException {
    private static final long serialVersionUID = 1L;

    public IllegalMoveException(String moveText, String reason) {
        super(moveText, "illegal move " + Usi.printable(moveText) + ": " + reason);
    }
}
