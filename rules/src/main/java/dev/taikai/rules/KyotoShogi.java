package dev.taikai.rules;

import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * Kyoto shogi (京都将棋), as RULES.md states it, in Fairy-Stockfish notation.
 *
 * <ul>
 *   <li>Start {@code p+nks+l/5/5/5/+LSK+NP b - 1}. Every piece but the king has two faces: {@code +L}
 *       tokin (moves as gold) / {@code L} lance; {@code S} silver / {@code +S} bishop; {@code +N} gold /
 *       {@code N} knight; {@code P} pawn / {@code +P} rook.
 *   <li>After every board move the moved piece (not the king) shows its other face; the move is
 *       written with {@code +} when an unpromoted face turns over and {@code -} when a promoted one
 *       does. There is no promotion zone, and a piece may stand where its face has no further move.
 *   <li>Captured pieces go to hand as {@code L S N P} and may be dropped on any empty square with
 *       either face up. Two pawns on a file and pawn-drop mate are allowed.
 *   <li>The third occurrence of a position is a draw. There is no perpetual-check rule.
 * </ul>
 */
public final class KyotoShogi extends Variant {
    private static final int[] HAND_KINDS = {Piece.SILVER, Piece.KNIGHT, Piece.LANCE, Piece.PAWN};
    private static final int[] LISHOGI_HAND_KINDS = {Piece.LANCE, Piece.KNIGHT, Piece.SILVER, Piece.PAWN};
    private static final String[] FACE_NAMES = new String[Piece.TYPE_COUNT];
    private static final String[] LISHOGI_LETTERS = new String[Piece.TYPE_COUNT];

    static {
        face(Piece.LANCE | Piece.PROMOTED, "tokin", "T");
        face(Piece.LANCE, "lance", "L");
        face(Piece.SILVER, "silver", "S");
        face(Piece.SILVER | Piece.PROMOTED, "bishop", "B");
        face(Piece.KNIGHT | Piece.PROMOTED, "gold", "G");
        face(Piece.KNIGHT, "knight", "N");
        face(Piece.PAWN, "pawn", "P");
        face(Piece.PAWN | Piece.PROMOTED, "rook", "R");
        face(Piece.KING, "king", "K");
    }

    KyotoShogi() {
        super("kyotoshogi", "p+nks+l/5/5/5/+LSK+NP b - 1", 3, movements(), HAND_KINDS);
    }

    private static void face(int type, String name, String lishogiLetter) {
        FACE_NAMES[type] = name;
        LISHOGI_LETTERS[type] = lishogiLetter;
    }

    private static byte[] movements() {
        byte[] m = new byte[Piece.TYPE_COUNT];
        Arrays.fill(m, (byte) Movement.NONE);
        m[Piece.LANCE | Piece.PROMOTED] = Movement.GOLD;
        m[Piece.LANCE] = Movement.LANCE;
        m[Piece.SILVER] = Movement.SILVER;
        m[Piece.SILVER | Piece.PROMOTED] = Movement.BISHOP;
        m[Piece.KNIGHT | Piece.PROMOTED] = Movement.GOLD;
        m[Piece.KNIGHT] = Movement.KNIGHT;
        m[Piece.PAWN] = Movement.PAWN;
        m[Piece.PAWN | Piece.PROMOTED] = Movement.ROOK;
        m[Piece.KING] = Movement.KING;
        return m;
    }

    @Override
    public String displayName() {
        return "Kyoto shogi";
    }

    @Override
    int addBoardMoves(int colorIndex, int type, int from, int targets, int[] out, int count) {
        int n = count;
        for (; targets != 0; targets &= targets - 1) {
            out[n++] = Move.board(from, Integer.numberOfTrailingZeros(targets), type, true);
        }
        return n;
    }

    @Override
    int addDrops(Position position, int targets, int[] out, int count) {
        int n = count;
        int hand = position.hand(position.sideIndex());
        for (int kind : HAND_KINDS) {
            if ((hand >>> (4 * kind) & 15) == 0) {
                continue;
            }
            for (int squares = targets; squares != 0; squares &= squares - 1) {
                int to = Integer.numberOfTrailingZeros(squares);
                out[n++] = Move.drop(to, kind);
                out[n++] = Move.drop(to, kind | Piece.PROMOTED);
            }
        }
        return n;
    }

    @Override
    Optional<String> dropRuleViolation(Position position, int type, int to) {
        return Optional.empty();
    }

    @Override
    Optional<String> suffixViolation(Position position, int from, int to, String suffix, List<Notation> notations) {
        int type = Piece.type(position.pieceAt(from));
        if (type == Piece.KING) {
            return suffix.isEmpty() ? Optional.empty() : Optional.of("a king move takes no suffix");
        }
        for (Notation notation : notations) {
            if (suffix.equals(suffix(type, notation))) {
                return Optional.empty();
            }
        }
        String expected = Square.name(from) + Square.name(to) + suffix(type, notations.get(0));
        // the suffix of a notation not read here: the engine very likely writes that notation throughout
        String other = "";
        for (Notation notation : Notation.values()) {
            if (!notations.contains(notation) && suffix.equals(suffix(type, notation))) {
                other = " (that is " + notation.id() + " notation: an engine that writes it needs notation "
                        + notation.id() + " in its entry)";
            }
        }
        return Optional.of("the " + FACE_NAMES[type] + " on " + Square.name(from) + " turns into a "
                + FACE_NAMES[type ^ Piece.PROMOTED] + "; write " + expected + other);
    }

    private static String suffix(int type, Notation notation) {
        return notation == Notation.FAIRY_STOCKFISH && Piece.isPromoted(type) ? "-" : "+";
    }

    @Override
    String boardMoveSuffix(int move, Notation notation) {
        int type = Move.pieceType(move);
        return type == Piece.KING ? "" : suffix(type, notation);
    }

    @Override
    int[] handKinds(Notation notation) {
        return notation == Notation.LISHOGI ? LISHOGI_HAND_KINDS : HAND_KINDS;
    }

    @Override
    public String typeLetters(int type, Notation notation) {
        return notation == Notation.LISHOGI ? LISHOGI_LETTERS[type] : Piece.typeName(type);
    }

    @Override
    char handLetter(int kind, Notation notation) {
        // lishogi holds the lance and the knight under the letters of their other faces (tokin T, gold G)
        boolean otherFace = notation == Notation.LISHOGI && (kind == Piece.LANCE || kind == Piece.KNIGHT);
        return typeLetters(otherFace ? kind | Piece.PROMOTED : kind, notation).charAt(0);
    }
}
