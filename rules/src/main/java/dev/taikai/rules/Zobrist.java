package dev.taikai.rules;

import java.util.SplittableRandom;

/**
 * Random keys for position hashing. A position's key is the XOR of the keys of its pieces on their
 * squares, of each hand count, and of {@link #GOTE_TO_MOVE} when gote is to move; the move number is
 * not part of it. Keys come from a fixed seed, so they are the same in every run.
 */
final class Zobrist {
    private static final int MAX_HAND_COUNT = 15; // 4 bits per kind in a packed hand

    private static final long[] PIECE = new long[64 * Square.COUNT];
    private static final long[] HAND = new long[2 * Piece.KIND_COUNT * (MAX_HAND_COUNT + 1)];
    static final long GOTE_TO_MOVE;

    static {
        SplittableRandom random = new SplittableRandom(0x7A1CA1L);
        for (int i = 0; i < PIECE.length; i++) {
            PIECE[i] = random.nextLong();
        }
        for (int i = 0; i < HAND.length; i++) {
            HAND[i] = i % (MAX_HAND_COUNT + 1) == 0 ? 0 : random.nextLong(); // an empty hand adds nothing
        }
        GOTE_TO_MOVE = random.nextLong();
    }

    private Zobrist() {}

    static long piece(int code, int square) {
        return PIECE[code * Square.COUNT + square];
    }

    static long hand(int colorIndex, int kind, int count) {
        return HAND[(colorIndex * Piece.KIND_COUNT + kind) * (MAX_HAND_COUNT + 1) + count];
    }
}
