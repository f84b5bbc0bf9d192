package dev.taikai.rules;

import java.util.Locale;

/**
 * SFEN reading and writing: {@code <board> <side> <hands> [<move number>]}.
 *
 * <p>Written canonically: hands in the order R B G S N L P (Kyoto in lishogi notation: T G S P),
 * sente's before gote's, a count only above 1, {@code -} when both hands are empty, the move number
 * kept. Read leniently where nothing is lost: a missing move number means 1, hand pieces in any
 * order, and Kyoto in either {@link Notation} (but not both in one SFEN). Everything that does not
 * describe a valid position is rejected with the reason.
 */
public final class Sfen {
    private static final int MAX_SHOWN = 120;
    private static final int FAIRY = 1;
    private static final int LISHOGI = 2;
    /**
     * The largest move number read: far above any game's, and far enough below the largest int that the
     * positions played on from it, and so the SFENs written for them, still read.
     */
    public static final int MAX_MOVE_NUMBER = 2_000_000_000;

    private Sfen() {}

    public static Position parse(Variant variant, String text) throws InvalidSfenException {
        if (text == null || text.isBlank()) {
            throw new InvalidSfenException("empty SFEN");
        }
        return new Reader(variant, text).read();
    }

    public static String format(Position position, Notation notation) {
        Variant variant = position.variant();
        StringBuilder out = new StringBuilder(40);
        for (int row = 0; row < Square.SIZE; row++) {
            if (row > 0) {
                out.append('/');
            }
            int empty = 0;
            for (int column = 0; column < Square.SIZE; column++) {
                int code = position.pieceAt(Square.of(row, column));
                if (code == Piece.EMPTY) {
                    empty++;
                    continue;
                }
                if (empty > 0) {
                    out.append(empty);
                    empty = 0;
                }
                String letters = variant.typeLetters(Piece.type(code), notation);
                out.append(Piece.color(code) == Color.SENTE ? letters : letters.toLowerCase(Locale.ROOT));
            }
            if (empty > 0) {
                out.append(empty);
            }
        }
        out.append(' ').append(position.sideToMove().sfenLetter()).append(' ');
        int handStart = out.length();
        for (Color color : Color.values()) {
            for (int kind : variant.handKinds(notation)) {
                int count = position.handCount(color, kind);
                if (count > 1) {
                    out.append(count);
                }
                if (count > 0) {
                    char letter = variant.handLetter(kind, notation);
                    out.append(color == Color.SENTE ? letter : Character.toLowerCase(letter));
                }
            }
        }
        if (out.length() == handStart) {
            out.append('-');
        }
        return out.append(' ').append(position.moveNumber()).toString();
    }

    /** One parse: tracks which Kyoto notations the text is still consistent with. */
    private static final class Reader {
        private final Variant variant;
        private final String text;
        private final byte[] board = new byte[Square.COUNT];
        private final int[] hands = new int[2];
        private int notations = FAIRY | LISHOGI;

        Reader(Variant variant, String text) {
            this.variant = variant;
            this.text = text;
        }

        Position read() throws InvalidSfenException {
            String[] fields = text.trim().split("\\s+");
            if (fields.length < 3 || fields.length > 4) {
                throw error("needs 4 fields (board, side to move, hands, move number), found " + fields.length);
            }
            readBoard(fields[0]);
            int side = readSide(fields[1]);
            readHands(fields[2]);
            int moveNumber = fields.length == 4 ? readMoveNumber(fields[3]) : 1;
            checkMaterial();
            Position position = new Position(variant, board, hands[0], hands[1], side, moveNumber);
            checkPawns(position);
            int them = side ^ 1;
            if (position.attackersTo(position.kingSquare(them), side, position.occupied()) != 0) {
                throw error(Color.of(them).displayName() + "'s king is in check but it is "
                        + Color.of(side).displayName() + " to move");
            }
            return position;
        }

        private void readBoard(String field) throws InvalidSfenException {
            String[] ranks = field.split("/", -1);
            if (ranks.length != Square.SIZE) {
                throw error("the board has " + ranks.length + " ranks; it needs 5 separated by '/'");
            }
            for (int row = 0; row < Square.SIZE; row++) {
                readRank(row, ranks[row]);
            }
        }

        private void readRank(int row, String rank) throws InvalidSfenException {
            char rankName = (char) ('a' + row);
            int column = 0;
            boolean lastWasDigit = false;
            for (int i = 0; i < rank.length(); i++) {
                char ch = rank.charAt(i);
                if (ch >= '1' && ch <= '9') {
                    if (lastWasDigit) {
                        throw error("rank " + rankName + " has two digits in a row");
                    }
                    column += ch - '0';
                    lastWasDigit = true;
                } else {
                    String token = ch == '+' && i + 1 < rank.length() ? rank.substring(i, i + 2) : String.valueOf(ch);
                    i += token.length() - 1;
                    int type = boardType(token, rankName);
                    if (column < Square.SIZE) {
                        board[Square.of(row, column)] = (byte)
                                Piece.code(Character.isUpperCase(token.charAt(token.length() - 1)) ? 0 : 1, type);
                    }
                    column++;
                    lastWasDigit = false;
                }
                if (column > Square.SIZE) {
                    break;
                }
            }
            if (column != Square.SIZE) {
                throw error("rank " + rankName + " describes " + (column > Square.SIZE ? "more than 5" : column)
                        + " squares; each rank has 5");
            }
        }

        private int boardType(String token, char rankName) throws InvalidSfenException {
            char letter = token.charAt(token.length() - 1);
            if (!Character.isLetter(letter)) {
                throw error("unexpected '" + Usi.printable(token) + "' on rank " + rankName);
            }
            String upper = token.toUpperCase(Locale.ROOT);
            int fairy = typeOf(upper, Notation.FAIRY_STOCKFISH);
            int lishogi = typeOf(upper, Notation.LISHOGI);
            if (fairy < 0 && lishogi < 0) {
                throw error("'" + token + "' on rank " + rankName + " is not a " + variant.displayName() + " piece");
            }
            narrowNotation(fairy >= 0, lishogi >= 0, token);
            return fairy >= 0 ? fairy : lishogi;
        }

        private int typeOf(String upperLetters, Notation notation) {
            for (int type = 0; type < Piece.TYPE_COUNT; type++) {
                if (variant.hasType(type) && variant.typeLetters(type, notation).equals(upperLetters)) {
                    return type;
                }
            }
            return -1;
        }

        private void narrowNotation(boolean fairy, boolean lishogi, String token) throws InvalidSfenException {
            int before = notations;
            notations &= (fairy ? FAIRY : 0) | (lishogi ? LISHOGI : 0);
            if (notations == 0) {
                throw error("'" + token + "' is " + (before == FAIRY ? "lishogi" : "Fairy-Stockfish")
                        + " notation but the rest is " + (before == FAIRY ? "Fairy-Stockfish" : "lishogi")
                        + " notation; use one notation");
            }
        }

        private int readSide(String field) throws InvalidSfenException {
            return switch (field) {
                case "b" -> 0;
                case "w" -> 1;
                default -> throw error("side to move must be 'b' or 'w', not '" + Usi.printable(field) + "'");
            };
        }

        private void readHands(String field) throws InvalidSfenException {
            if (field.equals("-")) {
                return;
            }
            int i = 0;
            while (i < field.length()) {
                int start = i;
                while (i < field.length() && field.charAt(i) >= '0' && field.charAt(i) <= '9') {
                    i++; // ASCII digits only, as in every other count of SFEN
                }
                if (i == field.length()) {
                    throw error("hands '" + Usi.printable(field) + "' end with a count and no piece");
                }
                if (i - start > 2) {
                    throw error("hand count '" + field.substring(start, i) + "' is too large");
                }
                if (i - start > 1 && field.charAt(start) == '0') {
                    throw error("hand count '" + field.substring(start, i) + "' begins with 0");
                }
                int count = i > start ? Integer.parseInt(field.substring(start, i)) : 1;
                char letter = field.charAt(i++);
                if (count == 0) {
                    throw error("hand count 0 for '" + letter + "'; leave the piece out instead");
                }
                int kind = handKind(letter);
                int colorIndex = Character.isUpperCase(letter) ? 0 : 1;
                if ((hands[colorIndex] >>> (4 * kind) & 15) != 0) {
                    throw error("hands list '" + letter + "' twice");
                }
                if (count > 2) {
                    throw error(count + " × '" + letter + "' in hand; " + variant.displayName()
                            + " has only 2 of each piece");
                }
                hands[colorIndex] |= count << (4 * kind);
            }
        }

        private int handKind(char letter) throws InvalidSfenException {
            char upper = Character.toUpperCase(letter);
            int fairy = -1;
            int lishogi = -1;
            for (int kind : variant.handKinds()) {
                if (variant.handLetter(kind, Notation.FAIRY_STOCKFISH) == upper) {
                    fairy = kind;
                }
                if (variant.handLetter(kind, Notation.LISHOGI) == upper) {
                    lishogi = kind;
                }
            }
            if (fairy < 0 && lishogi < 0) {
                throw error("'" + Usi.printable(String.valueOf(letter)) + "' cannot be in hand in "
                        + variant.displayName());
            }
            narrowNotation(fairy >= 0, lishogi >= 0, String.valueOf(letter));
            return fairy >= 0 ? fairy : lishogi;
        }

        private int readMoveNumber(String field) throws InvalidSfenException {
            long number = field.matches("[0-9]{1,10}") ? Long.parseLong(field) : 0;
            if (number < 1 || number > MAX_MOVE_NUMBER) {
                throw error("move number must be a whole number from 1 to " + MAX_MOVE_NUMBER + ", not '"
                        + Usi.printable(field) + "'");
            }
            return (int) number;
        }

        private void checkMaterial() throws InvalidSfenException {
            int[] kings = new int[2];
            int[] perKind = new int[Piece.KIND_COUNT];
            for (int code : board) {
                if (code != Piece.EMPTY) {
                    int kind = Piece.kind(Piece.type(code));
                    perKind[kind]++;
                    if (kind == Piece.KING) {
                        kings[Piece.colorIndex(code)]++;
                    }
                }
            }
            for (int c = 0; c < 2; c++) {
                if (kings[c] != 1) {
                    throw error(
                            Color.of(c).displayName() + " has " + (kings[c] == 0 ? "no king" : kings[c] + " kings"));
                }
                for (int kind = 0; kind < Piece.KIND_COUNT; kind++) {
                    perKind[kind] += hands[c] >>> (4 * kind) & 15;
                }
            }
            for (int kind = 0; kind < Piece.KIND_COUNT; kind++) {
                if (perKind[kind] > 2) {
                    throw error("too many pieces of kind '" + variant.handLetter(kind, Notation.FAIRY_STOCKFISH)
                            + "': " + perKind[kind] + " on the board and in hands; " + variant.displayName()
                            + " has 2");
                }
            }
        }

        /** Minishogi only: no unpromoted pawn on its last rank, no two unpromoted pawns of one player on a file. */
        private void checkPawns(Position position) throws InvalidSfenException {
            if (variant != Variant.MINISHOGI) {
                return;
            }
            for (int c = 0; c < 2; c++) {
                int pawns = position.piecesMoving(c, Movement.PAWN);
                if ((pawns & Attacks.ROW[Square.lastRow(Color.of(c))]) != 0) {
                    int sq = Integer.numberOfTrailingZeros(pawns & Attacks.ROW[Square.lastRow(Color.of(c))]);
                    throw error(Color.of(c).displayName() + "'s unpromoted pawn on " + Square.name(sq)
                            + " stands on its last rank, where it could never move");
                }
                for (int column = 0; column < Square.SIZE; column++) {
                    if (Integer.bitCount(pawns & Attacks.COLUMN[column]) > 1) {
                        throw error(Color.of(c).displayName() + " has two unpromoted pawns on file "
                                + (Square.SIZE - column) + " (nifu)");
                    }
                }
            }
        }

        private InvalidSfenException error(String reason) {
            return new InvalidSfenException(
                    "invalid " + variant.displayName() + " SFEN '" + Usi.printable(text, MAX_SHOWN) + "': " + reason);
        }
    }
}
