package dev.taikai.rules;

/**
 * How a piece moves, independent of its letter: each variant maps every piece type to one of these
 * ({@link Variant#movement}). Directions are for sente; gote's are mirrored vertically.
 */
final class Movement {
    static final int PAWN = 0; // one step forward
    static final int LANCE = 1; // any distance forward
    static final int KNIGHT = 2; // two forward and one sideways, jumping
    static final int SILVER = 3; // one step diagonally or straight forward
    static final int GOLD = 4; // one step orthogonally or diagonally forward
    static final int BISHOP = 5; // any distance diagonally
    static final int ROOK = 6; // any distance orthogonally
    static final int KING = 7; // one step in any direction
    static final int HORSE = 8; // bishop plus one step orthogonally
    static final int DRAGON = 9; // rook plus one step diagonally
    static final int COUNT = 10;

    /** Marks a piece type that does not exist in a variant. */
    static final int NONE = -1;

    private Movement() {}
}
