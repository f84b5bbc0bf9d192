package dev.taikai.rules;

import java.util.ArrayList;
import java.util.List;

/**
 * Perft: the number of legal move sequences of a given length. Repetition and game end are not
 * applied inside perft. The last ply is counted from the move list without playing it (bulk counting).
 */
public final class Perft {
    /** One root move and the number of sequences that start with it. */
    public record Divided(int move, long nodes) {}

    private final int[][] buffers;

    private Perft(int depth) {
        buffers = new int[Math.max(depth, 1)][MoveGenerator.MAX_MOVES];
    }

    public static long count(Position position, int depth) {
        requireDepth(depth);
        return new Perft(depth).nodes(position, depth);
    }

    /** Per root move, in generation order. */
    public static List<Divided> divide(Position position, int depth) {
        requireDepth(depth);
        if (depth == 0) {
            return List.of();
        }
        Perft perft = new Perft(depth);
        int[] moves = position.legalMoves();
        List<Divided> result = new ArrayList<>(moves.length);
        for (int move : moves) {
            result.add(new Divided(move, perft.nodes(position.play(move), depth - 1)));
        }
        return result;
    }

    private long nodes(Position position, int depth) {
        if (depth == 0) {
            return 1;
        }
        int[] moves = buffers[depth - 1];
        int count = MoveGenerator.generate(position, moves);
        if (depth == 1) {
            return count;
        }
        long nodes = 0;
        for (int i = 0; i < count; i++) {
            nodes += nodes(position.play(moves[i]), depth - 1);
        }
        return nodes;
    }

    private static void requireDepth(int depth) {
        if (depth < 0) {
            throw new IllegalArgumentException("perft depth must be 0 or more, not " + depth);
        }
    }
}
