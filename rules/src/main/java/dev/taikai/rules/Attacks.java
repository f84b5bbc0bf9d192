package dev.taikai.rules;

import java.util.SplittableRandom;

/**
 * Attack tables on the 5×5 board (bitboards as in {@link Square}). Step pieces use precomputed
 * tables per colour; sliders use magic multiplication: {@code ((occupied & mask) * magic) >>> 58}
 * indexes a 64-entry table per square, as Stockfish does for chess.
 */
final class Attacks {
    /** Every square of the board. */
    static final int ALL = (1 << Square.COUNT) - 1;

    private static final int MAGIC_BITS = 6; // no slider mask on a 5×5 board has more than 6 bits
    private static final int[][] KING_STEPS = {{-1, -1}, {-1, 0}, {-1, 1}, {0, -1}, {0, 1}, {1, -1}, {1, 0}, {1, 1}};
    private static final int[][] GOLD_STEPS = {{-1, -1}, {-1, 0}, {-1, 1}, {0, -1}, {0, 1}, {1, 0}};
    private static final int[][] SILVER_STEPS = {{-1, -1}, {-1, 0}, {-1, 1}, {1, -1}, {1, 1}};
    private static final int[][] PAWN_STEPS = {{-1, 0}};
    private static final int[][] KNIGHT_STEPS = {{-2, -1}, {-2, 1}};
    private static final int[][] ROOK_DIRECTIONS = {{-1, 0}, {1, 0}, {0, -1}, {0, 1}};
    private static final int[][] BISHOP_DIRECTIONS = {{-1, -1}, {-1, 1}, {1, -1}, {1, 1}};

    static final int[] KING = new int[Square.COUNT];
    /** Step attacks indexed {@code [colorIndex * 25 + square]}. */
    static final int[] GOLD = new int[2 * Square.COUNT];

    static final int[] SILVER = new int[2 * Square.COUNT];
    static final int[] PAWN = new int[2 * Square.COUNT];
    static final int[] KNIGHT = new int[2 * Square.COUNT];
    /** Squares strictly ahead of a square on its file, for each colour: the lance's empty-board ray. */
    static final int[] FORWARD = new int[2 * Square.COUNT];

    /** Squares strictly between two aligned squares, else 0; indexed {@code [a * 25 + b]}. */
    static final int[] BETWEEN = new int[Square.COUNT * Square.COUNT];
    /** The whole line through two aligned squares, else 0; indexed {@code [a * 25 + b]}. */
    static final int[] LINE = new int[Square.COUNT * Square.COUNT];
    /** All squares of each column. */
    static final int[] COLUMN = new int[Square.SIZE];
    /** All squares of each row. */
    static final int[] ROW = new int[Square.SIZE];

    static final int[] ROOK_EMPTY = new int[Square.COUNT];
    static final int[] BISHOP_EMPTY = new int[Square.COUNT];

    private static final int[] ROOK_MASK = new int[Square.COUNT];
    private static final long[] ROOK_MAGIC = new long[Square.COUNT];
    private static final int[] ROOK_TABLE = new int[Square.COUNT << MAGIC_BITS];
    private static final int[] BISHOP_MASK = new int[Square.COUNT];
    private static final long[] BISHOP_MAGIC = new long[Square.COUNT];
    private static final int[] BISHOP_TABLE = new int[Square.COUNT << MAGIC_BITS];

    private Attacks() {}

    static {
        for (int i = 0; i < Square.SIZE; i++) {
            for (int j = 0; j < Square.SIZE; j++) {
                COLUMN[i] |= 1 << Square.of(j, i);
                ROW[i] |= 1 << Square.of(i, j);
            }
        }
        for (int sq = 0; sq < Square.COUNT; sq++) {
            KING[sq] = steps(sq, KING_STEPS, 1);
            for (int c = 0; c < 2; c++) {
                int sign = c == 0 ? 1 : -1;
                int i = c * Square.COUNT + sq;
                GOLD[i] = steps(sq, GOLD_STEPS, sign);
                SILVER[i] = steps(sq, SILVER_STEPS, sign);
                PAWN[i] = steps(sq, PAWN_STEPS, sign);
                KNIGHT[i] = steps(sq, KNIGHT_STEPS, sign);
                FORWARD[i] = slide(sq, 0, new int[][] {{-sign, 0}});
            }
            ROOK_EMPTY[sq] = slide(sq, 0, ROOK_DIRECTIONS);
            BISHOP_EMPTY[sq] = slide(sq, 0, BISHOP_DIRECTIONS);
        }
        initLines();
        SplittableRandom random = new SplittableRandom(0x5EEDL);
        initMagics(ROOK_DIRECTIONS, ROOK_MASK, ROOK_MAGIC, ROOK_TABLE, random);
        initMagics(BISHOP_DIRECTIONS, BISHOP_MASK, BISHOP_MAGIC, BISHOP_TABLE, random);
    }

    static int rook(int sq, int occupied) {
        return ROOK_TABLE[
                sq << MAGIC_BITS | (int) (((occupied & ROOK_MASK[sq]) * ROOK_MAGIC[sq]) >>> (64 - MAGIC_BITS))];
    }

    static int bishop(int sq, int occupied) {
        return BISHOP_TABLE[
                sq << MAGIC_BITS | (int) (((occupied & BISHOP_MASK[sq]) * BISHOP_MAGIC[sq]) >>> (64 - MAGIC_BITS))];
    }

    static int lance(int colorIndex, int sq, int occupied) {
        return rook(sq, occupied) & FORWARD[colorIndex * Square.COUNT + sq];
    }

    /** Squares attacked by a piece with {@code movement} of the given colour on {@code sq}. */
    static int of(int movement, int colorIndex, int sq, int occupied) {
        return switch (movement) {
            case Movement.PAWN -> PAWN[colorIndex * Square.COUNT + sq];
            case Movement.LANCE -> lance(colorIndex, sq, occupied);
            case Movement.KNIGHT -> KNIGHT[colorIndex * Square.COUNT + sq];
            case Movement.SILVER -> SILVER[colorIndex * Square.COUNT + sq];
            case Movement.GOLD -> GOLD[colorIndex * Square.COUNT + sq];
            case Movement.BISHOP -> bishop(sq, occupied);
            case Movement.ROOK -> rook(sq, occupied);
            case Movement.KING -> KING[sq];
            case Movement.HORSE -> bishop(sq, occupied) | KING[sq];
            case Movement.DRAGON -> rook(sq, occupied) | KING[sq];
            default -> throw new IllegalArgumentException("movement " + movement);
        };
    }

    private static int steps(int sq, int[][] steps, int sign) {
        int bits = 0;
        for (int[] step : steps) {
            int r = Square.row(sq) + sign * step[0];
            int c = Square.column(sq) + step[1];
            if (onBoard(r, c)) {
                bits |= 1 << Square.of(r, c);
            }
        }
        return bits;
    }

    /** Slow ray walk, used only to build the tables. */
    private static int slide(int sq, int occupied, int[][] directions) {
        int bits = 0;
        for (int[] d : directions) {
            int r = Square.row(sq) + d[0];
            int c = Square.column(sq) + d[1];
            while (onBoard(r, c)) {
                int to = Square.of(r, c);
                bits |= 1 << to;
                if ((occupied & (1 << to)) != 0) {
                    break;
                }
                r += d[0];
                c += d[1];
            }
        }
        return bits;
    }

    private static boolean onBoard(int row, int column) {
        return row >= 0 && row < Square.SIZE && column >= 0 && column < Square.SIZE;
    }

    private static void initLines() {
        for (int a = 0; a < Square.COUNT; a++) {
            for (int[] d : concat(ROOK_DIRECTIONS, BISHOP_DIRECTIONS)) {
                int line = (1 << a) | slide(a, 0, new int[][] {d}) | slide(a, 0, new int[][] {{-d[0], -d[1]}});
                int between = 0;
                int r = Square.row(a) + d[0];
                int c = Square.column(a) + d[1];
                while (onBoard(r, c)) {
                    int b = Square.of(r, c);
                    BETWEEN[a * Square.COUNT + b] = between;
                    LINE[a * Square.COUNT + b] = line;
                    between |= 1 << b;
                    r += d[0];
                    c += d[1];
                }
            }
        }
    }

    private static int[][] concat(int[][] a, int[][] b) {
        int[][] all = new int[a.length + b.length][];
        System.arraycopy(a, 0, all, 0, a.length);
        System.arraycopy(b, 0, all, a.length, b.length);
        return all;
    }

    private static void initMagics(
            int[][] directions, int[] masks, long[] magics, int[] table, SplittableRandom random) {
        for (int sq = 0; sq < Square.COUNT; sq++) {
            int mask = 0;
            for (int[] d : directions) {
                int ray = slide(sq, 0, new int[][] {d});
                int farthest = d[0] * Square.SIZE + d[1] > 0 ? Integer.highestOneBit(ray) : Integer.lowestOneBit(ray);
                mask |= ray & ~farthest; // the edge square never blocks anything behind it
            }
            masks[sq] = mask;
            int subsets = 1 << Integer.bitCount(mask);
            int[] occupancies = new int[subsets];
            int[] attacks = new int[subsets];
            int subset = 0;
            for (int i = 0; i < subsets; i++) {
                occupancies[i] = subset;
                attacks[i] = slide(sq, subset, directions);
                subset = (subset - mask) & mask; // Carry-Rippler enumeration of the subsets of mask
            }
            magics[sq] = findMagic(occupancies, attacks, table, sq << MAGIC_BITS, random);
        }
    }

    private static long findMagic(int[] occupancies, int[] attacks, int[] table, int base, SplittableRandom random) {
        int size = 1 << MAGIC_BITS;
        int[] epoch = new int[size];
        for (int attempt = 1; ; attempt++) {
            long magic = random.nextLong() & random.nextLong() & random.nextLong();
            boolean ok = true;
            for (int i = 0; i < occupancies.length && ok; i++) {
                int index = (int) ((occupancies[i] * magic) >>> (64 - MAGIC_BITS));
                if (epoch[index] < attempt) {
                    epoch[index] = attempt;
                    table[base + index] = attacks[i];
                } else if (table[base + index] != attacks[i]) {
                    ok = false;
                }
            }
            if (ok) {
                return magic;
            }
        }
    }
}
