package dev.taikai.rules;

/**
 * Legal move generation. Moves are generated legal, not filtered: the king avoids attacked squares,
 * pinned pieces stay on their pin line, and in check other pieces capture the checker or block it.
 * The variant adds its promotions and drops ({@link Variant#addBoardMoves}, {@link Variant#addDrops}).
 */
final class MoveGenerator {
    /** More than any 5×5 position has (at most about 200). */
    static final int MAX_MOVES = 512;

    private MoveGenerator() {}

    /** Writes the legal moves of {@code position} to {@code out}; returns how many. */
    static int generate(Position position, int[] out) {
        Variant variant = position.variant();
        int us = position.sideIndex();
        int them = us ^ 1;
        int own = position.occupied(us);
        int occupied = own | position.occupied(them);
        int kingSquare = position.kingSquare(us);
        int checkers = position.attackersTo(kingSquare, them, occupied);

        int n = 0;
        int withoutKing = occupied ^ (1 << kingSquare);
        for (int targets = Attacks.KING[kingSquare] & ~own; targets != 0; targets &= targets - 1) {
            int to = Integer.numberOfTrailingZeros(targets);
            if (position.attackersTo(to, them, withoutKing) == 0) {
                out[n++] = Move.board(kingSquare, to, Piece.KING, false);
            }
        }
        if ((checkers & (checkers - 1)) != 0) {
            return n; // double check: only the king may move
        }

        int targets;
        int dropTargets;
        if (checkers == 0) {
            targets = ~own & Attacks.ALL;
            dropTargets = ~occupied & Attacks.ALL;
        } else {
            dropTargets = Attacks.BETWEEN[kingSquare * Square.COUNT + Integer.numberOfTrailingZeros(checkers)];
            targets = dropTargets | checkers;
        }
        int pinned = position.pinned(kingSquare);
        for (int movement = 0; movement < Movement.COUNT; movement++) {
            if (movement == Movement.KING) {
                continue;
            }
            for (int pieces = position.piecesMoving(us, movement); pieces != 0; pieces &= pieces - 1) {
                int from = Integer.numberOfTrailingZeros(pieces);
                int reach = Attacks.of(movement, us, from, occupied) & targets;
                if ((pinned >>> from & 1) != 0) {
                    reach &= Attacks.LINE[kingSquare * Square.COUNT + from];
                }
                if (reach != 0) {
                    n = variant.addBoardMoves(us, Piece.type(position.pieceAt(from)), from, reach, out, n);
                }
            }
        }
        if (dropTargets != 0 && position.hand(us) != 0) {
            n = variant.addDrops(position, dropTargets, out, n);
        }
        return n;
    }

    static boolean hasLegalMove(Position position) {
        return generate(position, new int[MAX_MOVES]) > 0;
    }
}
