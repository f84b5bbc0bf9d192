package dev.taikai.rules;

import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * Minishogi (5五将棋), as RULES.md states it.
 *
 * <ul>
 *   <li>Start {@code rbsgk/4p/5/P4/KGSBR b - 1}. Pieces K, R, B, G, S, P move as in shogi; promoted
 *       +R dragon, +B horse, +S and +P as gold.
 *   <li>The promotion zone is the farthest rank only. A move that starts or ends there may promote
 *       (R, B, S, P); a pawn reaching the farthest rank must.
 *   <li>Drops go to any empty square, unpromoted; a pawn not on the farthest rank, not on a file with
 *       an unpromoted pawn of its owner (nifu), and not so that it checkmates at once (uchifuzume).
 *   <li>The fourth occurrence of a position ends the game: a player who gave check with every move
 *       since its first occurrence loses (perpetual check); otherwise the player who made the first
 *       move of the game loses. Never a draw.
 * </ul>
 */
public final class Minishogi extends Variant {
    private static final int[] HAND_KINDS = {Piece.ROOK, Piece.BISHOP, Piece.GOLD, Piece.SILVER, Piece.PAWN};

    Minishogi() {
        super("minishogi", "rbsgk/4p/5/P4/KGSBR b - 1", 4, movements(), HAND_KINDS);
    }

    private static byte[] movements() {
        byte[] m = new byte[Piece.TYPE_COUNT];
        Arrays.fill(m, (byte) Movement.NONE);
        m[Piece.PAWN] = Movement.PAWN;
        m[Piece.PAWN | Piece.PROMOTED] = Movement.GOLD;
        m[Piece.SILVER] = Movement.SILVER;
        m[Piece.SILVER | Piece.PROMOTED] = Movement.GOLD;
        m[Piece.GOLD] = Movement.GOLD;
        m[Piece.BISHOP] = Movement.BISHOP;
        m[Piece.BISHOP | Piece.PROMOTED] = Movement.HORSE;
        m[Piece.ROOK] = Movement.ROOK;
        m[Piece.ROOK | Piece.PROMOTED] = Movement.DRAGON;
        m[Piece.KING] = Movement.KING;
        return m;
    }

    @Override
    public String displayName() {
        return "Minishogi";
    }

    static boolean canPromote(int type) {
        return !Piece.isPromoted(type) && type != Piece.GOLD && type != Piece.KING;
    }

    @Override
    int addBoardMoves(int colorIndex, int type, int from, int targets, int[] out, int count) {
        int n = count;
        if (!canPromote(type)) {
            for (; targets != 0; targets &= targets - 1) {
                out[n++] = Move.board(from, Integer.numberOfTrailingZeros(targets), type, false);
            }
            return n;
        }
        int zone = Attacks.ROW[colorIndex == 0 ? 0 : Square.SIZE - 1];
        boolean fromZone = (zone >>> from & 1) != 0;
        for (; targets != 0; targets &= targets - 1) {
            int to = Integer.numberOfTrailingZeros(targets);
            if (fromZone || (zone >>> to & 1) != 0) {
                out[n++] = Move.board(from, to, type, true);
                if (type != Piece.PAWN) { // a pawn can only be in the zone by reaching its last rank
                    out[n++] = Move.board(from, to, type, false);
                }
            } else {
                out[n++] = Move.board(from, to, type, false);
            }
        }
        return n;
    }

    @Override
    int addDrops(Position position, int targets, int[] out, int count) {
        int n = count;
        int us = position.sideIndex();
        int hand = position.hand(us);
        for (int kind : HAND_KINDS) {
            if ((hand >>> (4 * kind) & 15) == 0) {
                continue;
            }
            int squares = kind == Piece.PAWN ? pawnDropSquares(position, us, targets) : targets;
            for (; squares != 0; squares &= squares - 1) {
                out[n++] = Move.drop(Integer.numberOfTrailingZeros(squares), kind);
            }
        }
        return n;
    }

    private static int pawnDropSquares(Position position, int us, int targets) {
        int squares = targets & ~Attacks.ROW[us == 0 ? 0 : Square.SIZE - 1];
        for (int pawns = position.piecesMoving(us, Movement.PAWN); pawns != 0; pawns &= pawns - 1) {
            squares &= ~Attacks.COLUMN[Square.column(Integer.numberOfTrailingZeros(pawns))];
        }
        int them = us ^ 1;
        int checkingSquare = Attacks.PAWN[them * Square.COUNT + position.kingSquare(them)];
        if ((squares & checkingSquare) != 0 && givesMate(position, checkingSquare)) {
            squares &= ~checkingSquare;
        }
        return squares;
    }

    private static boolean givesMate(Position position, int squareBit) {
        Position after = position.play(Move.drop(Integer.numberOfTrailingZeros(squareBit), Piece.PAWN));
        return !MoveGenerator.hasLegalMove(after);
    }

    @Override
    Optional<String> dropRuleViolation(Position position, int type, int to) {
        if (Piece.isPromoted(type)) {
            return Optional.of("pieces are always dropped unpromoted in Minishogi");
        }
        if (type != Piece.PAWN) {
            return Optional.empty();
        }
        int us = position.sideIndex();
        if (Square.row(to) == Square.lastRow(Color.of(us))) {
            return Optional.of("a pawn may not be dropped on its last rank");
        }
        int pawns = position.piecesMoving(us, Movement.PAWN);
        if ((pawns & Attacks.COLUMN[Square.column(to)]) != 0) {
            return Optional.of("nifu: " + Color.of(us).displayName() + " already has an unpromoted pawn on file "
                    + Square.file(to));
        }
        int them = us ^ 1;
        if ((Attacks.PAWN[them * Square.COUNT + position.kingSquare(them)] & (1 << to)) != 0
                && !position.leavesOwnKingInCheck(Move.drop(to, Piece.PAWN))
                && givesMate(position, 1 << to)) {
            return Optional.of("uchifuzume: a pawn drop may not give checkmate");
        }
        return Optional.empty();
    }

    @Override
    Optional<String> suffixViolation(Position position, int from, int to, String suffix, List<Notation> notations) {
        int type = Piece.type(position.pieceAt(from));
        String name = Piece.typeName(type);
        if (suffix.equals("-")) {
            return Optional.of("'-' is a Kyoto shogi suffix; Minishogi moves promote with '+' or not at all");
        }
        int lastRow = Square.lastRow(position.sideToMove());
        boolean inZone = Square.row(from) == lastRow || Square.row(to) == lastRow;
        if (suffix.equals("+")) {
            if (!canPromote(type)) {
                return Optional.of(name + (Piece.isPromoted(type) ? " is already promoted" : " never promotes"));
            }
            if (!inZone) {
                return Optional.of("neither " + Square.name(from) + " nor " + Square.name(to)
                        + " is in the promotion zone (the farthest rank)");
            }
        } else if (type == Piece.PAWN && Square.row(to) == lastRow) {
            return Optional.of("a pawn reaching the farthest rank must promote (write " + Square.name(from)
                    + Square.name(to) + "+)");
        }
        return Optional.empty();
    }

    @Override
    String boardMoveSuffix(int move, Notation notation) {
        return Move.flips(move) ? "+" : "";
    }

    @Override
    int[] handKinds(Notation notation) {
        return HAND_KINDS;
    }

    @Override
    public String typeLetters(int type, Notation notation) {
        return Piece.typeName(type);
    }

    @Override
    char handLetter(int kind, Notation notation) {
        return Piece.KIND_LETTERS.charAt(kind);
    }
}
