package dev.taikai.rules;

/**
 * Piece kinds, piece types and the piece codes stored on the board, all as small {@code int}s.
 *
 * <ul>
 *   <li>A <b>kind</b> (0..7) is the unpromoted letter: {@code P L N S G B R K}. Pieces go to hand as
 *       their kind.
 *   <li>A <b>type</b> (0..15) is a kind plus the face shown: {@code type = kind | PROMOTED} for the
 *       {@code +} face. What a type moves like depends on the variant ({@link Variant#movement}).
 *   <li>A <b>code</b> (32..63, 0 for an empty square) is a type plus its owner: {@code code = OCCUPIED |
 *       colorIndex << 4 | type}.
 * </ul>
 */
public final class Piece {
    public static final int PAWN = 0;
    public static final int LANCE = 1;
    public static final int KNIGHT = 2;
    public static final int SILVER = 3;
    public static final int GOLD = 4;
    public static final int BISHOP = 5;
    public static final int ROOK = 6;
    public static final int KING = 7;
    public static final int KIND_COUNT = 8;

    /** Added to a kind for its {@code +} face. */
    public static final int PROMOTED = 8;

    public static final int TYPE_COUNT = 16;

    public static final int EMPTY = 0;
    static final int OCCUPIED = 32;

    /** Letter of each kind, upper case, indexed by kind. */
    static final String KIND_LETTERS = "PLNSGBRK";

    private Piece() {}

    public static int code(Color color, int type) {
        return OCCUPIED | color.index() << 4 | type;
    }

    static int code(int colorIndex, int type) {
        return OCCUPIED | colorIndex << 4 | type;
    }

    public static int type(int code) {
        return code & 15;
    }

    public static Color color(int code) {
        return Color.of(colorIndex(code));
    }

    static int colorIndex(int code) {
        return (code >> 4) & 1;
    }

    public static int kind(int type) {
        return type & 7;
    }

    public static boolean isPromoted(int type) {
        return (type & PROMOTED) != 0;
    }

    /** Kind letter, upper case; {@code -1} for a character that is no kind letter. */
    static int kindOfLetter(char upper) {
        return KIND_LETTERS.indexOf(upper);
    }

    /** The Fairy-Stockfish style name of a type: {@code P}, {@code +P}, ... */
    public static String typeName(int type) {
        return (isPromoted(type) ? "+" : "") + KIND_LETTERS.charAt(kind(type));
    }
}
