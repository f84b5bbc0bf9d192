package dev.taikai.rules;

/** Who won a finished game. */
public enum Result {
    SENTE_WINS,
    GOTE_WINS,
    DRAW;

    public static Result winFor(Color winner) {
        return winner == Color.SENTE ? SENTE_WINS : GOTE_WINS;
    }

    public static Result lossFor(Color loser) {
        return winFor(loser.opposite());
    }

    /** The winner, or {@code null} for a draw. */
    public Color winner() {
        return switch (this) {
            case SENTE_WINS -> Color.SENTE;
            case GOTE_WINS -> Color.GOTE;
            case DRAW -> null;
        };
    }
}
