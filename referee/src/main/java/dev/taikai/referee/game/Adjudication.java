package dev.taikai.referee.game;

/**
 * When the referee ends a game before the rules do. Scores are centipawns from the mover's view; a
 * mate score counts as beyond any threshold. Mate and repetition are never adjudicated: the rules
 * decide them.
 *
 * @param moveLimitPlies a draw after this many plies; 0 for no limit
 * @param resignScore adjudicate a loss when the side to lose scores at most −this and its opponent at
 *     least this, each for {@code resignMoves} consecutive moves; 0 to disable
 * @param drawScore adjudicate a draw when both engines' scores stay within ±this for {@code drawMoves}
 *     consecutive moves each, from ply {@code drawAfterPlies} on; 0 to disable
 */
public record Adjudication(
        int moveLimitPlies, int resignScore, int resignMoves, int drawScore, int drawMoves, int drawAfterPlies) {
    /** A draw at 300 plies; no score adjudication. */
    public static final Adjudication DEFAULT = new Adjudication(300, 0, 0, 0, 0, 0);

    public Adjudication {
        if (moveLimitPlies < 0
                || resignScore < 0
                || resignMoves < 0
                || drawScore < 0
                || drawMoves < 0
                || drawAfterPlies < 0) {
            throw new IllegalArgumentException("adjudication settings cannot be negative");
        }
        if ((resignScore > 0) != (resignMoves > 0)) {
            throw new IllegalArgumentException("resign adjudication needs both a score and a number of moves");
        }
        if ((drawScore > 0) != (drawMoves > 0)) {
            throw new IllegalArgumentException("draw adjudication needs both a score and a number of moves");
        }
    }

    public Adjudication withMoveLimit(int plies) {
        return new Adjudication(plies, resignScore, resignMoves, drawScore, drawMoves, drawAfterPlies);
    }

    public Adjudication withResign(int score, int moves) {
        return new Adjudication(moveLimitPlies, score, moves, drawScore, drawMoves, drawAfterPlies);
    }

    public Adjudication withDraw(int score, int moves, int afterPlies) {
        return new Adjudication(moveLimitPlies, resignScore, resignMoves, score, moves, afterPlies);
    }
}
