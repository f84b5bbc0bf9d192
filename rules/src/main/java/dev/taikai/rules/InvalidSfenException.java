package dev.taikai.rules;

/** An SFEN that does not describe a valid position of the variant; the message says what is wrong. */
public final class InvalidSfenException extends Exception {
    private static final long serialVersionUID = 1L;

    public InvalidSfenException(String message) {
        super(message);
    }
}
