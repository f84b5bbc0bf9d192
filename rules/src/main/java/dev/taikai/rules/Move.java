package dev.taikai.rules;

/**
 * Moves as {@code int}. The code of a legal move is unique in its position, so moves compare with
 * {@code ==}; {@link #NONE} (0) is never a move.
 *
 * <pre>
 * bits  0-4   to square (see {@link Square})
 * bits  5-9   from square; 0 for a drop
 * bit   10    FLIP: the moved piece turns over (Minishogi: promotes; Kyoto: every non-king board move)
 * bit   11    DROP
 * bits 12-15  piece type (see {@link Piece}): the moving piece's type before the move, or the type
 *             (face included) a drop puts on the board
 * </pre>
 */
public final class Move {
    public static final int NONE = 0;

    static final int FLIP = 1 << 10;
    static final int DROP = 1 << 11;
    private static final int TYPE_SHIFT = 12;

    private Move() {}

    static int board(int from, int to, int type, boolean flip) {
        return to | from << 5 | (flip ? FLIP : 0) | type << TYPE_SHIFT;
    }

    static int drop(int to, int type) {
        return to | DROP | type << TYPE_SHIFT;
    }

    public static int to(int move) {
        return move & 31;
    }

    /** The square a board move starts from; meaningless for a drop. */
    public static int from(int move) {
        return (move >>> 5) & 31;
    }

    public static boolean isDrop(int move) {
        return (move & DROP) != 0;
    }

    /** True when the moved piece turns over: a promotion in Minishogi, every non-king move in Kyoto. */
    public static boolean flips(int move) {
        return (move & FLIP) != 0;
    }

    /** Type of the moving piece before the move, or of the dropped piece. */
    public static int pieceType(int move) {
        return (move >>> TYPE_SHIFT) & 15;
    }

    /** Type of the moved or dropped piece after the move. */
    public static int typeAfter(int move) {
        return pieceType(move) ^ (flips(move) ? Piece.PROMOTED : 0);
    }
}
