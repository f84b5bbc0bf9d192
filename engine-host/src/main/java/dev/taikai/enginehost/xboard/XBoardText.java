package dev.taikai.enginehost.xboard;

import java.util.Optional;

/**
 * Moves and positions as XBoard writes them on a 5×5 shogi board, translated to and from USI. The two
 * differ only in how they name squares: XBoard's files {@code a}–{@code e} run from sente's left, its ranks
 * {@code 1}–{@code 5} from sente's side (XBoard's white, the first to move), so USI {@code 5e} is {@code
 * a1} and {@code 1a} is {@code e5}; a drop is {@code P@c3} for {@code P*3c}. Piece letters, the {@code +}
 * of a promotion (Minishogi) or turn-over (Kyoto, lishogi's letters: a {@code +} on every turning move)
 * and the board part of a position are the same in both, ranks from the far one down, files from sente's
 * left, so no move needs a position to be translated. A FEN's side is XBoard's colour: {@code w} for
 * sente, {@code b} for gote; its holdings are a letter per piece in brackets.
 */
public final class XBoardText {
    private XBoardText() {}

    /** USI {@code 3e} as XBoard {@code c1}. */
    static String square(char usiFile, char usiRank) {
        return "" + (char) ('a' + ('5' - usiFile)) + (char) ('1' + ('e' - usiRank));
    }

    /**
     * A USI move (board move {@code 3e2d+}, drop {@code S*3c}) as XBoard writes it ({@code c1d2+}, {@code
     * S@c3}); the move is taken as checked (the referee's, from a {@link
     * dev.taikai.enginehost.session.PositionCommand}).
     */
    public static String move(String usi) {
        int star = usi.indexOf('*');
        if (star >= 0) {
            return usi.substring(0, star) + "@" + square(usi.charAt(star + 1), usi.charAt(star + 2));
        }
        return square(usi.charAt(0), usi.charAt(1)) + square(usi.charAt(2), usi.charAt(3)) + usi.substring(4);
    }

    /**
     * An XBoard move as USI text, or empty when it is no coordinate move of a 5×5 board: {@code c1d2} and
     * {@code c1d2+} (a {@code =} suffix, no promotion, is dropped), {@code S@c3} (a drop's letter as the
     * engine wrote it: uppercase for either side).
     */
    public static Optional<String> usi(String xboard) {
        int at = xboard.indexOf('@');
        if (at >= 0) {
            if (at < 1 || at > 2 || xboard.length() != at + 3 || !isSquare(xboard, at + 1)) {
                return Optional.empty();
            }
            String letters = xboard.substring(0, at);
            char letter = letters.charAt(letters.length() - 1);
            if (letter < 'A' || letter > 'Z' || (letters.length() == 2 && letters.charAt(0) != '+')) {
                return Optional.empty();
            }
            return Optional.of(letters + "*" + usiSquare(xboard, at + 1));
        }
        if (xboard.length() < 4 || xboard.length() > 5 || !isSquare(xboard, 0) || !isSquare(xboard, 2)) {
            return Optional.empty();
        }
        String suffix = xboard.substring(4);
        if (!suffix.isEmpty() && !suffix.equals("+") && !suffix.equals("=")) {
            return Optional.empty();
        }
        return Optional.of(usiSquare(xboard, 0) + usiSquare(xboard, 2) + (suffix.equals("+") ? "+" : ""));
    }

    private static boolean isSquare(String text, int at) {
        char file = text.charAt(at);
        char rank = text.charAt(at + 1);
        return file >= 'a' && file <= 'e' && rank >= '1' && rank <= '5';
    }

    /** XBoard's square at {@code at} as USI: {@code c1} is {@code 3e}. */
    private static String usiSquare(String text, int at) {
        return "" + (char) ('5' - (text.charAt(at) - 'a')) + (char) ('e' - (text.charAt(at + 1) - '1'));
    }

    /**
     * The {@code setboard} FEN of an SFEN ({@code rb1k1/1s2p/5/P4/KGS1R b Gb 5} is {@code
     * rb1k1/1s2p/5/P4/KGS1R[Gb] w 0 1}): the same board, the hands as holdings, XBoard's colour to move.
     */
    public static String fen(String sfen) {
        String[] fields = sfen.split(" ");
        StringBuilder holdings = new StringBuilder();
        String hands = fields[2];
        int count = 0;
        for (int i = 0; !hands.equals("-") && i < hands.length(); i++) {
            char c = hands.charAt(i);
            if (Character.isDigit(c)) {
                count = count * 10 + (c - '0');
            } else {
                holdings.append(String.valueOf(c).repeat(Math.max(1, count)));
                count = 0;
            }
        }
        return fields[0] + "[" + (holdings.isEmpty() ? "-" : holdings) + "] " + (fields[1].equals("b") ? "w" : "b")
                + " 0 1";
    }

    /**
     * The SFEN of an engine's FEN (its {@code setup} announcement: {@code rbsgk/4p/5/P4/KGSBR w 0 1}, with
     * holdings {@code [...]} or {@code [-]} attached or apart), or empty when it cannot be read as one.
     * Hands come out in the order of the holdings, a count before a letter held more than once.
     */
    public static Optional<String> sfen(String fen) {
        String[] fields = fen.trim().split("\\s+");
        if (fields.length < 2) {
            return Optional.empty();
        }
        String board = fields[0];
        String holdings = "";
        int next = 1;
        int open = board.indexOf('[');
        if (open >= 0) {
            if (!board.endsWith("]")) {
                return Optional.empty();
            }
            holdings = board.substring(open + 1, board.length() - 1);
            board = board.substring(0, open);
        } else if (fields[1].startsWith("[") && fields[1].endsWith("]")) {
            holdings = fields[1].substring(1, fields[1].length() - 1);
            next = 2;
        }
        if (next >= fields.length || !(fields[next].equals("w") || fields[next].equals("b"))) {
            return Optional.empty();
        }
        if (!board.matches("[0-9A-Za-z+/]+") || !holdings.matches("-?|[A-Za-z]*")) {
            return Optional.empty();
        }
        StringBuilder hands = new StringBuilder();
        for (int i = 0; i < holdings.length() && !holdings.equals("-"); ) {
            char c = holdings.charAt(i);
            int run = 1;
            while (i + run < holdings.length() && holdings.charAt(i + run) == c) {
                run++;
            }
            hands.append(run > 1 ? String.valueOf(run) : "").append(c);
            i += run;
        }
        return Optional.of(
                board + " " + (fields[next].equals("w") ? "b" : "w") + " " + (hands.isEmpty() ? "-" : hands) + " 1");
    }
}
