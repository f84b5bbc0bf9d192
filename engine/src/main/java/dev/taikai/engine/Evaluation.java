package dev.taikai.engine;

import dev.taikai.rules.Color;
import dev.taikai.rules.Piece;
import dev.taikai.rules.Position;
import dev.taikai.rules.Square;
import dev.taikai.rules.Variant;

/**
 * Material, from the side to move's point of view, in centipawns. Kyoto pieces turn over with every
 * move, so a piece is worth the mean of its two faces, leaning towards the face it shows.
 */
final class Evaluation {
    private static final int[] MINISHOGI = new int[Piece.TYPE_COUNT];
    private static final int[] KYOTO = new int[Piece.TYPE_COUNT];
    /** Pieces in hand are worth a little more than on the board: they can go anywhere. */
    private static final double HAND_BONUS = 1.15;

    static {
        MINISHOGI[Piece.PAWN] = 100;
        MINISHOGI[Piece.SILVER] = 450;
        MINISHOGI[Piece.GOLD] = 500;
        MINISHOGI[Piece.BISHOP] = 650;
        MINISHOGI[Piece.ROOK] = 750;
        MINISHOGI[Piece.PAWN | Piece.PROMOTED] = 500;
        MINISHOGI[Piece.SILVER | Piece.PROMOTED] = 500;
        MINISHOGI[Piece.BISHOP | Piece.PROMOTED] = 850;
        MINISHOGI[Piece.ROOK | Piece.PROMOTED] = 950;
        int[][] faces = {
            {Piece.LANCE, 300, 500}, // lance / tokin
            {Piece.SILVER, 450, 650}, // silver / bishop
            {Piece.KNIGHT, 300, 500}, // knight / gold
            {Piece.PAWN, 100, 750} // pawn / rook
        };
        for (int[] face : faces) {
            KYOTO[face[0]] = (2 * face[1] + face[2]) / 3;
            KYOTO[face[0] | Piece.PROMOTED] = (2 * face[2] + face[1]) / 3;
        }
    }

    private Evaluation() {}

    static int evaluate(Position position) {
        int[] values = position.variant() == Variant.MINISHOGI ? MINISHOGI : KYOTO;
        int sum = 0;
        for (int sq = 0; sq < Square.COUNT; sq++) {
            int code = position.pieceAt(sq);
            if (code != Piece.EMPTY && Piece.type(code) != Piece.KING) {
                int value = values[Piece.type(code)];
                sum += Piece.color(code) == Color.SENTE ? value : -value;
            }
        }
        for (int kind = 0; kind < Piece.KIND_COUNT; kind++) {
            int inHand = position.handCount(Color.SENTE, kind) - position.handCount(Color.GOTE, kind);
            if (inHand != 0) {
                int base = position.variant() == Variant.MINISHOGI
                        ? values[kind]
                        : (values[kind] + values[kind | Piece.PROMOTED]) / 2;
                sum += (int) (inHand * base * HAND_BONUS);
            }
        }
        return position.sideToMove() == Color.SENTE ? sum : -sum;
    }
}
