package dev.taikai.rules;

import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * USI move text: board moves {@code <from><to>[+|-]} and drops {@code [+]<letter>*<to>}.
 *
 * <p>Parsing keeps two errors apart: {@link InvalidMoveException} for text that is no move of the
 * variant in any position, and {@link IllegalMoveException} for a well-formed move the position does
 * not allow, each with the precise reason.
 */
public final class Usi {
    private static final List<Notation> EITHER = List.of(Notation.FAIRY_STOCKFISH, Notation.LISHOGI);
    private static final int MAX_SHOWN = 40;

    private Usi() {}

    /** {@code move} as USI text in {@code notation}. */
    public static String format(int move, Variant variant, Notation notation) {
        if (Move.isDrop(move)) {
            return variant.typeLetters(Move.pieceType(move), notation) + "*" + Square.name(Move.to(move));
        }
        return Square.name(Move.from(move)) + Square.name(Move.to(move)) + variant.boardMoveSuffix(move, notation);
    }

    /** In Fairy-Stockfish notation. */
    public static String format(int move, Variant variant) {
        return format(move, variant, Notation.FAIRY_STOCKFISH);
    }

    /** Parses a move written in either Kyoto notation (user input). */
    public static int parse(Position position, String text) throws MoveException {
        return parse(position, text, EITHER);
    }

    /** Parses a move written in exactly {@code notation} (an engine's output). */
    public static int parse(Position position, String text, Notation notation) throws MoveException {
        return parse(position, text, List.of(notation));
    }

    /**
     * The position a USI {@code position startpos|sfen <sfen> [moves <m1> ...]} command describes, its moves
     * read in exactly {@code notation}; what an engine does on receiving the command.
     *
     * @throws InvalidSfenException if the SFEN is malformed, or the command names neither startpos nor an SFEN
     * @throws MoveException if a move is malformed or illegal where it is played
     */
    public static Position positionCommand(Variant variant, String line, Notation notation)
            throws InvalidSfenException, MoveException {
        return positionCommand(variant, line, List.of(notation));
    }

    /** As {@link #positionCommand(Variant, String, Notation)}, with moves in either Kyoto notation. */
    public static Position positionCommand(Variant variant, String line) throws InvalidSfenException, MoveException {
        return positionCommand(variant, line, EITHER);
    }

    private static Position positionCommand(Variant variant, String line, List<Notation> notations)
            throws InvalidSfenException, MoveException {
        String rest = line.startsWith("position")
                ? line.substring("position".length()).trim()
                : line.trim();
        int movesAt = rest.indexOf(" moves ");
        if (movesAt < 0 && rest.endsWith(" moves")) {
            movesAt = rest.length() - " moves".length(); // 'moves' with no move after it: none to play
        }
        String where = movesAt < 0 ? rest : rest.substring(0, movesAt).trim();
        Position position;
        if (where.equals("startpos")) {
            position = Position.start(variant);
        } else if (where.startsWith("sfen ")) {
            position = Sfen.parse(variant, where.substring("sfen ".length()).trim());
        } else {
            throw new InvalidSfenException("expected 'startpos' or 'sfen <sfen>', got '" + where + "'");
        }
        String moves =
                movesAt < 0 ? "" : rest.substring(movesAt + " moves".length()).trim();
        if (!moves.isEmpty()) {
            for (String move : moves.split("\\s+")) {
                position = position.play(parse(position, move, notations));
            }
        }
        return position;
    }

    private static int parse(Position position, String text, List<Notation> notations) throws MoveException {
        Variant variant = position.variant();
        if (text == null || text.isEmpty()) {
            throw new InvalidMoveException(String.valueOf(text), "empty");
        }
        if (text.equals("win")) {
            throw new IllegalMoveException(
                    text, "the entering-king declaration does not exist in " + variant.displayName());
        }
        if (text.equals("resign")) {
            throw new InvalidMoveException(text, "a resignation, not a move");
        }
        int star = text.indexOf('*');
        return star >= 0 ? parseDrop(position, text, star, notations) : parseBoardMove(position, text, notations);
    }

    private static int parseBoardMove(Position position, String text, List<Notation> notations) throws MoveException {
        if (text.length() < 4 || text.length() > 5) {
            throw new InvalidMoveException(text, "a board move is <from><to> with an optional '+' or '-', like 5e4d");
        }
        int from = square(text, 0);
        int to = square(text, 2);
        String suffix = text.substring(4);
        if (!suffix.isEmpty() && !suffix.equals("+") && !suffix.equals("-")) {
            throw new InvalidMoveException(text, "the only suffixes are '+' and '-'");
        }
        if (suffix.equals("-") && position.variant() == Variant.MINISHOGI) {
            throw new InvalidMoveException(text, "'-' is a Kyoto shogi suffix; Minishogi promotes with '+'");
        }
        for (int move : position.legalMoves()) {
            if (!Move.isDrop(move) && Move.from(move) == from && Move.to(move) == to) {
                for (Notation notation : notations) {
                    if (position.variant().boardMoveSuffix(move, notation).equals(suffix)) {
                        return move;
                    }
                }
            }
        }
        throw new IllegalMoveException(text, whyIllegal(position, from, to, suffix, notations));
    }

    private static String whyIllegal(Position position, int from, int to, String suffix, List<Notation> notations) {
        String mover = position.sideToMove().displayName();
        int code = position.pieceAt(from);
        if (from == to) {
            return "it starts and ends on " + Square.name(from);
        }
        if (code == Piece.EMPTY) {
            return "there is no piece on " + Square.name(from);
        }
        if (Piece.color(code) != position.sideToMove()) {
            return "the piece on " + Square.name(from) + " is not " + mover + "'s";
        }
        int target = position.pieceAt(to);
        if (target != Piece.EMPTY && Piece.color(target) == position.sideToMove()) {
            return Square.name(to) + " holds " + mover + "'s own piece";
        }
        int type = Piece.type(code);
        int reach = Attacks.of(position.variant().movement(type), position.sideIndex(), from, position.occupied());
        String piece = position.variant().typeLetters(type, notations.get(0));
        if ((reach >>> to & 1) == 0) {
            return "a " + piece + " on " + Square.name(from) + " cannot reach " + Square.name(to);
        }
        Optional<String> suffixProblem = position.variant().suffixViolation(position, from, to, suffix, notations);
        return suffixProblem.orElse("it leaves " + mover + "'s king in check");
    }

    private static int parseDrop(Position position, String text, int star, List<Notation> notations)
            throws MoveException {
        Variant variant = position.variant();
        if (star < 1 || star > 2 || text.length() != star + 3) {
            throw new InvalidMoveException(text, "a drop is <piece>*<square>, like P*3c");
        }
        String letters = text.substring(0, star);
        int to = square(text, star + 1);
        int type = -1;
        for (Notation notation : notations) {
            for (int t = 0; t < Piece.TYPE_COUNT && type < 0; t++) {
                if (variant.hasType(t)
                        && t != Piece.KING
                        && variant.typeLetters(t, notation).equals(letters)) {
                    type = t;
                }
            }
        }
        if (type < 0) {
            throw new InvalidMoveException(
                    text,
                    "'" + printable(letters) + "' is not a " + variant.displayName()
                            + " piece that can be dropped"
                            + (notations.size() == 1 ? " in " + notations.get(0).id() + " notation" : ""));
        }
        int move = Move.drop(to, type);
        for (int legal : position.legalMoves()) {
            if (legal == move) {
                return move;
            }
        }
        throw new IllegalMoveException(text, whyIllegalDrop(position, type, to));
    }

    private static String whyIllegalDrop(Position position, int type, int to) {
        Color mover = position.sideToMove();
        if (position.handCount(mover, Piece.kind(type)) == 0) {
            return mover.displayName() + " has no "
                    + position.variant().typeLetters(Piece.kind(type), Notation.FAIRY_STOCKFISH) + " in hand";
        }
        if (position.pieceAt(to) != Piece.EMPTY) {
            return Square.name(to) + " is occupied";
        }
        return position.variant()
                .dropRuleViolation(position, type, to)
                .orElse("it leaves " + mover.displayName() + "'s king in check");
    }

    private static int square(String text, int offset) throws InvalidMoveException {
        int square = Square.parse(text, offset);
        if (square < 0) {
            throw new InvalidMoveException(
                    text,
                    "'" + printable(text.substring(offset, offset + 2)) + "' is not a square (files 1-5, ranks a-e)");
        }
        return square;
    }

    /** Text made safe for a one-line message: control characters escaped, long text cut. */
    static String printable(String text) {
        return printable(text, MAX_SHOWN);
    }

    static String printable(String text, int maxShown) {
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < text.length() && i < maxShown; i++) {
            char ch = text.charAt(i);
            if (ch < 0x20 || ch == 0x7f) {
                out.append(String.format(Locale.ROOT, "\\x%02x", (int) ch));
            } else {
                out.append(ch);
            }
        }
        if (text.length() > maxShown) {
            out.append("...(").append(text.length()).append(" chars)");
        }
        return out.toString();
    }
}
