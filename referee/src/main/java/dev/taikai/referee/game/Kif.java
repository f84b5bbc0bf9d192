package dev.taikai.referee.game;

import dev.taikai.rules.Color;
import dev.taikai.rules.InvalidSfenException;
import dev.taikai.rules.Move;
import dev.taikai.rules.MoveException;
import dev.taikai.rules.Notation;
import dev.taikai.rules.Piece;
import dev.taikai.rules.Position;
import dev.taikai.rules.Result;
import dev.taikai.rules.Sfen;
import dev.taikai.rules.Square;
import dev.taikai.rules.Usi;
import dev.taikai.rules.Variant;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A game record as KIF (UTF-8), the notation of shogi software, as lishogi writes it and reads it back:
 * the header names the variant ({@code 手合割：5五将棋} or {@code 手合割：京都将棋}); a start other than the
 * variant's shows the board. An opening's book moves are the record's first moves, each with the comment
 * {@code *book} and no time; the engines' moves are numbered on from them. Kyoto moves are written the lishogi way: the face that moves, and {@code 成}
 * on every turn-over. The time field is KIF's whole seconds (the parsers read no other); a comment after
 * each move ({@code *}) gives its time in milliseconds with the engine's evaluation and depth. The game
 * ends with KIF's word for how it ended ({@code 詰み}, {@code 投了}, {@code 千日手}, {@code 時間切れ},
 * {@code 反則負け} or {@code 反則勝ち}, {@code 持将棋} for an adjudicated draw), a comment with Taikai's
 * termination and detail, and the result.
 */
public final class Kif {
    private static final String FILES = "０１２３４５";
    private static final String RANKS = "一二三四五";
    private static final DateTimeFormatter TIME =
            DateTimeFormatter.ofPattern("yyyy/MM/dd HH:mm:ss").withZone(ZoneId.systemDefault());

    private Kif() {}

    public static String write(GameRecord record, String event) {
        GameAssignment a = record.assignment();
        Variant variant = a.variant();
        Book book = book(record);
        Position start = book.start();
        StringBuilder out = new StringBuilder();
        out.append("#KIF version=2.0 encoding=UTF-8\n");
        out.append("開始日時：")
                .append(TIME.format(Instant.ofEpochMilli(record.startedEpochMillis())))
                .append('\n');
        out.append("終了日時：")
                .append(TIME.format(Instant.ofEpochMilli(record.finishedEpochMillis())))
                .append('\n');
        out.append("棋戦：").append(event).append(' ').append(record.id()).append('\n');
        out.append("手合割：")
                .append(variant == Variant.MINISHOGI ? "5五将棋" : "京都将棋")
                .append('\n');
        out.append("先手：").append(a.sente()).append('\n');
        out.append("後手：").append(a.gote()).append('\n');
        out.append("持ち時間：")
                .append(a.senteTimeControl())
                .append(" / ")
                .append(a.goteTimeControl())
                .append('\n');
        if (!start.samePosition(Position.start(variant))) {
            board(out, start);
        }
        out.append("手数----指手---------消費時間--\n");
        Position position = start;
        int previousTo = -1;
        for (int i = 0; i < book.moves().size(); i++) {
            int move = book.moves().get(i);
            out.append(String.format("%4d %-12s( 0:00/00:00:00)%n", i + 1, moveText(position, move, previousTo)));
            out.append("*book\n");
            previousTo = Move.to(move);
            position = position.play(move);
        }
        int first = book.moves().size(); // the engines' moves are numbered on from the book's
        long[] totalMicros = new long[2]; // each side's charged time, summed before it is rounded down
        List<MoveRecord> moves = record.moves();
        for (int i = 0; i < moves.size(); i++) {
            int move;
            try {
                move = Usi.parse(position, moves.get(i).move(), Notation.FAIRY_STOCKFISH);
            } catch (MoveException e) {
                throw new IllegalArgumentException("record with an illegal move: " + e.getMessage(), e);
            }
            Color mover = position.sideToMove();
            // the time field is what the clock was charged, in whole seconds (rounded down), move and total
            long charged = micros(moves.get(i).chargedNanos());
            long seconds = charged / 1_000_000L;
            totalMicros[mover.index()] += charged;
            long total = totalMicros[mover.index()] / 1_000_000L;
            String text = moveText(position, move, previousTo);
            out.append(String.format(
                    "%4d %-12s(%2d:%02d/%02d:%02d:%02d)%n",
                    first + i + 1, text, seconds / 60, seconds % 60, total / 3600, total / 60 % 60, total % 60));
            out.append(comment(moves.get(i))).append('\n');
            previousTo = Move.to(move);
            position = position.play(move);
        }
        out.append("*Taikai: ")
                .append(record.outcome().termination().name().toLowerCase())
                .append(" — ")
                .append(record.outcome().detail())
                .append('\n');
        Optional<String> ending = ending(record.outcome(), position.sideToMove());
        ending.ifPresent(word -> out.append(String.format("%4d %s%n", first + moves.size() + 1, word)));
        Color winner = record.outcome().winner();
        out.append("まで").append(first + moves.size()).append("手で");
        out.append(record.outcome().result() == Result.DRAW ? "引き分け" : (winner == Color.SENTE ? "先手" : "後手") + "の勝ち");
        return out.append('\n').toString();
    }

    /**
     * Where the record begins and the book moves played from there before the engines' first move: the
     * opening's position and moves, or, should those not lead to the position the engines started from,
     * that position alone (the record's own account of its start wins).
     */
    private record Book(Position start, List<Integer> moves) {}

    private static Book book(GameRecord record) {
        Variant variant = record.assignment().variant();
        Opening opening = record.assignment().opening();
        Position played;
        try {
            played = Sfen.parse(variant, record.startSfen());
        } catch (InvalidSfenException e) {
            throw new IllegalArgumentException("record with an invalid start position: " + record.startSfen(), e);
        }
        try {
            Position start = Sfen.parse(variant, opening.sfen());
            Position position = start;
            List<Integer> moves = new ArrayList<>();
            for (String text : opening.moves()) {
                int move = Usi.parse(position, text);
                moves.add(move);
                position = position.play(move);
            }
            if (position.samePosition(played)) {
                return new Book(start, moves);
            }
        } catch (InvalidSfenException | MoveException e) {
            // the opening does not lead to the start: the record begins where the engines did
        }
        return new Book(played, List.of());
    }

    /**
     * A move's time in whole microseconds, as the journal keeps it: every time in a KIF comes from it, so
     * that a game's KIF written as it ends and written again from the journal (on resume) are the same.
     */
    private static long micros(long nanos) {
        return Math.round(nanos / 1e3);
    }

    /** {@code *time 52 ms, score cp 58, depth 11}: what the time field's whole seconds and the moves leave out. */
    private static String comment(MoveRecord move) {
        StringBuilder text = new StringBuilder("*time ")
                .append(Math.round(micros(move.timeNanos()) / 1e3))
                .append(" ms");
        if (move.score() != null) {
            text.append(", score ")
                    .append(move.score().mate() ? "mate " : "cp ")
                    .append(move.score().value());
        }
        if (move.depth() >= 0) {
            text.append(", depth ").append(move.depth());
        }
        return text.toString();
    }

    private static String moveText(Position position, int move, int previousTo) {
        Variant variant = position.variant();
        int to = Move.to(move);
        String where = to == previousTo ? "同　" : square(to);
        // a moving promoted silver is 成銀 in a move, as lishogi's parser wants (全 on the board)
        String piece = variant == Variant.MINISHOGI && Move.pieceType(move) == (Piece.SILVER | Piece.PROMOTED)
                ? "成銀"
                : kanji(variant, Move.pieceType(move));
        if (Move.isDrop(move)) {
            return where + piece + "打";
        }
        String promotion = "";
        if (Move.flips(move)) {
            promotion = "成";
        } else if (variant == Variant.MINISHOGI && canHavePromoted(position, move)) {
            promotion = "不成";
        }
        int from = Move.from(move);
        return where + piece + promotion + "(" + Square.file(from) + (Square.row(from) + 1) + ")";
    }

    /** True when the same move with promotion is also legal (so declining it is worth writing). */
    private static boolean canHavePromoted(Position position, int move) {
        for (int legal : position.legalMoves()) {
            if (!Move.isDrop(legal)
                    && Move.flips(legal)
                    && Move.from(legal) == Move.from(move)
                    && Move.to(legal) == Move.to(move)) {
                return true;
            }
        }
        return false;
    }

    private static String square(int sq) {
        return "" + FILES.charAt(Square.file(sq)) + RANKS.charAt(Square.row(sq));
    }

    static String kanji(Variant variant, int type) {
        if (variant == Variant.MINISHOGI) {
            return switch (type) {
                case Piece.KING -> "玉";
                case Piece.ROOK -> "飛";
                case Piece.BISHOP -> "角";
                case Piece.GOLD -> "金";
                case Piece.SILVER -> "銀";
                case Piece.PAWN -> "歩";
                case Piece.ROOK | Piece.PROMOTED -> "龍";
                case Piece.BISHOP | Piece.PROMOTED -> "馬";
                case Piece.SILVER | Piece.PROMOTED -> "全";
                case Piece.PAWN | Piece.PROMOTED -> "と";
                default -> "？";
            };
        }
        return switch (type) {
            case Piece.KING -> "玉";
            case Piece.LANCE | Piece.PROMOTED -> "と";
            case Piece.LANCE -> "香";
            case Piece.SILVER -> "銀";
            case Piece.SILVER | Piece.PROMOTED -> "角";
            case Piece.KNIGHT | Piece.PROMOTED -> "金";
            case Piece.KNIGHT -> "桂";
            case Piece.PAWN -> "歩";
            case Piece.PAWN | Piece.PROMOTED -> "飛";
            default -> "？";
        };
    }

    /**
     * KIF's word for the ending, said of the side to move: {@code 投了} and {@code 時間切れ} that it lost so,
     * {@code 反則負け} that it broke a rule (an illegal move; an engine that crashed or went silent, which
     * the comment says), {@code 反則勝ち} that its opponent did (a perpetual check); empty when no word fits
     * (an adjudicated loss of the side that has just moved: the result line alone says it).
     */
    private static Optional<String> ending(dev.taikai.rules.Outcome outcome, Color toMove) {
        boolean toMoveLost = outcome.winner() == toMove.opposite();
        return Optional.ofNullable(
                switch (outcome.termination()) {
                    case CHECKMATE, STALEMATE -> "詰み";
                    case REPETITION -> "千日手";
                    case RESIGNATION -> "投了";
                    case TIME_FORFEIT -> "時間切れ";
                    case PERPETUAL_CHECK, ILLEGAL_MOVE, STALL, DISCONNECT -> toMoveLost ? "反則負け" : "反則勝ち";
                    case ADJUDICATION -> outcome.result() == Result.DRAW ? "持将棋" : toMoveLost ? "投了" : null;
                });
    }

    private static void board(StringBuilder out, Position position) {
        out.append("後手の持駒：").append(hand(position, Color.GOTE)).append('\n');
        out.append("  ５ ４ ３ ２ １\n+---------------+\n");
        for (int row = 0; row < Square.SIZE; row++) {
            out.append('|');
            for (int column = 0; column < Square.SIZE; column++) {
                int code = position.pieceAt(Square.of(row, column));
                out.append(
                        code == Piece.EMPTY
                                ? " ・"
                                : (Piece.color(code) == Color.GOTE ? "v" : " ")
                                        + kanji(position.variant(), Piece.type(code)));
            }
            out.append('|').append(RANKS.charAt(row)).append('\n');
        }
        out.append("+---------------+\n");
        out.append("先手の持駒：").append(hand(position, Color.SENTE)).append('\n');
        if (position.sideToMove() == Color.GOTE) {
            out.append("後手番\n");
        }
    }

    /** Minishogi's hand kinds in lishogi's order: rook, bishop, gold, silver, pawn. */
    private static final int[] MINISHOGI_HAND = {Piece.ROOK, Piece.BISHOP, Piece.GOLD, Piece.SILVER, Piece.PAWN};
    /**
     * Kyoto's hand kinds in lishogi's order, each written by the face lishogi names it by in hand: the
     * lance's tokin (と) and the knight's gold (金), then silver and pawn. Lishogi reads no 香 or 桂 in a
     * Kyoto hand.
     */
    private static final int[] KYOTO_HAND = {
        Piece.LANCE | Piece.PROMOTED, Piece.KNIGHT | Piece.PROMOTED, Piece.SILVER, Piece.PAWN
    };

    private static String hand(Position position, Color color) {
        StringBuilder text = new StringBuilder();
        for (int face : position.variant() == Variant.MINISHOGI ? MINISHOGI_HAND : KYOTO_HAND) {
            int count = position.handCount(color, face & ~Piece.PROMOTED);
            if (count > 0) {
                text.append(text.isEmpty() ? "" : "　")
                        .append(kanji(position.variant(), face))
                        .append(count > 1 ? "二" : "");
            }
        }
        return text.isEmpty() ? "なし" : text.toString();
    }
}
