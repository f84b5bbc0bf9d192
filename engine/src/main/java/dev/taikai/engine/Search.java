package dev.taikai.engine;

import dev.taikai.rules.Move;
import dev.taikai.rules.Piece;
import dev.taikai.rules.Position;
import java.util.Random;
import java.util.function.BooleanSupplier;

/**
 * Negamax alpha-beta with iterative deepening, captures searched first. It stops at its depth limit, its
 * node limit, or when {@code stopped} says so (time or the {@code stop} command), and then answers with
 * the best move of the last completed iteration. A little random noise at the lowest levels keeps weak
 * play varied.
 */
final class Search {
    static final int MATE = 100_000;
    private static final int QUIESCENCE_PLIES = 4;

    /** What an iteration found. */
    record Iteration(int depth, int score, int move, long nodes) {}

    /** Receives each completed iteration, for {@code info} lines. */
    interface Listener {
        void iteration(Iteration iteration);
    }

    private final Random random;
    private final int noise;
    private final long maxNodes;
    private final BooleanSupplier stopped;
    private long nodes;
    private boolean aborted;

    Search(Random random, int noise, long maxNodes, BooleanSupplier stopped) {
        this.random = random;
        this.noise = noise;
        this.maxNodes = maxNodes;
        this.stopped = stopped;
    }

    /** The best move found within {@code maxDepth}; 0 when there is no legal move. */
    int bestMove(Position root, int maxDepth, Listener listener) {
        int[] moves = root.legalMoves();
        if (moves.length == 0) {
            return Move.NONE;
        }
        int best = moves[random.nextInt(moves.length)];
        for (int depth = 1; depth <= maxDepth; depth++) {
            int alpha = -MATE - 1;
            int iterationBest = Move.NONE;
            order(root, moves, best);
            for (int move : moves) {
                int score = -negamax(root.play(move), depth - 1, -MATE - 1, -alpha, 1);
                if (aborted) {
                    break;
                }
                if (score > alpha) {
                    alpha = score;
                    iterationBest = move;
                }
            }
            if (aborted || iterationBest == Move.NONE) {
                break;
            }
            best = iterationBest;
            listener.iteration(new Iteration(depth, alpha, best, nodes));
            if (Math.abs(alpha) > MATE - 1000) {
                break; // a mate was found; deeper search cannot improve on it
            }
        }
        return best;
    }

    private int negamax(Position position, int depth, int alpha, int beta, int ply) {
        nodes++;
        if ((nodes & 63) == 0 && (stopped.getAsBoolean() || nodes >= maxNodes)) {
            aborted = true;
        }
        if (aborted) {
            return 0;
        }
        int[] moves = position.legalMoves();
        if (moves.length == 0) {
            return -MATE + ply; // no legal move loses, in check or not
        }
        if (depth == 0) {
            return quiesce(position, alpha, beta, QUIESCENCE_PLIES);
        }
        order(position, moves, Move.NONE);
        for (int move : moves) {
            int score = -negamax(position.play(move), depth - 1, -beta, -alpha, ply + 1);
            if (score >= beta) {
                return score;
            }
            alpha = Math.max(alpha, score);
        }
        return alpha;
    }

    /** Captures only, until the position is quiet (or a few plies deep), so a hanging piece is seen. */
    private int quiesce(Position position, int alpha, int beta, int pliesLeft) {
        nodes++;
        int standPat = Evaluation.evaluate(position) + (noise == 0 ? 0 : random.nextInt(2 * noise + 1) - noise);
        if (standPat >= beta || pliesLeft == 0) {
            return standPat;
        }
        alpha = Math.max(alpha, standPat);
        for (int move : position.legalMoves()) {
            if (Move.isDrop(move) || position.pieceAt(Move.to(move)) == Piece.EMPTY) {
                continue;
            }
            int score = -quiesce(position.play(move), -beta, -alpha, pliesLeft - 1);
            if (score >= beta) {
                return score;
            }
            alpha = Math.max(alpha, score);
        }
        return alpha;
    }

    /** The previous best move first, then captures of valuable pieces, then the rest. */
    private static void order(Position position, int[] moves, int first) {
        int[] keys = new int[moves.length];
        for (int i = 0; i < moves.length; i++) {
            int move = moves[i];
            int captured = Move.isDrop(move) ? Piece.EMPTY : position.pieceAt(Move.to(move));
            keys[i] = move == first ? 1_000_000 : captured == Piece.EMPTY ? 0 : 1000 + Piece.kind(Piece.type(captured));
        }
        for (int i = 1; i < moves.length; i++) { // insertion sort by key, descending
            int move = moves[i];
            int key = keys[i];
            int j = i - 1;
            while (j >= 0 && keys[j] < key) {
                moves[j + 1] = moves[j];
                keys[j + 1] = keys[j];
                j--;
            }
            moves[j + 1] = move;
            keys[j + 1] = key;
        }
    }

    long nodes() {
        return nodes;
    }
}
