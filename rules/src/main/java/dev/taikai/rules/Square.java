package dev.taikai.rules;

/**
 * Squares as {@code int} 0..24, in SFEN reading order.
 *
 * <p>{@code index = row * 5 + column}, where row 0..4 is rank {@code a}..{@code e} (top to bottom as
 * sente sees the board) and column 0..4 is file 5..1 (left to right). So {@code 5a} is 0, {@code 1a}
 * is 4, {@code 5e} (sente's bottom-left corner) is 20 and {@code 1e} is 24. Sente moves towards lower
 * rows (index − 5), gote towards higher rows (index + 5). A bitboard is an {@code int} whose bit
 * {@code i} stands for square {@code i}.
 */
public final class Square {
    public static final int COUNT = 25;
    public static final int SIZE = 5;

    private Square() {}

    public static int row(int square) {
        return square / SIZE;
    }

    public static int column(int square) {
        return square % SIZE;
    }

    public static int of(int row, int column) {
        return row * SIZE + column;
    }

    /** USI file number 1..5. */
    public static int file(int square) {
        return SIZE - column(square);
    }

    /** USI name such as {@code 5e}. */
    public static String name(int square) {
        return "" + (char) ('0' + file(square)) + (char) ('a' + row(square));
    }

    /** Parses {@code <file 1-5><rank a-e>} at {@code text[offset]}; returns −1 when it is not a square. */
    public static int parse(CharSequence text, int offset) {
        if (offset + 2 > text.length()) {
            return -1;
        }
        int file = text.charAt(offset) - '0';
        int row = text.charAt(offset + 1) - 'a';
        if (file < 1 || file > SIZE || row < 0 || row >= SIZE) {
            return -1;
        }
        return of(row, SIZE - file);
    }

    /** The farthest row for {@code color}: row 0 (rank a) for sente, row 4 (rank e) for gote. */
    public static int lastRow(Color color) {
        return color == Color.SENTE ? 0 : SIZE - 1;
    }
}
