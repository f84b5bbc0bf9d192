package dev.taikai.enginehost.usi;

import dev.taikai.rules.Color;
import java.util.List;
import java.util.regex.Pattern;

/**
 * {@code position sfen <sfen> [moves <m1> <m2> ...]}: always an explicit SFEN, never {@code startpos},
 * so the engine cannot disagree about the start. The referee builds it from positions and moves it
 * has already checked; the text is still validated here so nothing can inject a second command.
 */
public record PositionCommand(String sfen, List<String> moves) {
    private static final Pattern SFEN = Pattern.compile("[0-9A-Za-z+/]+ [bw] [0-9A-Za-z-]+ [0-9]+");
    private static final Pattern MOVE = Pattern.compile("[+0-9A-Za-z*-]{4,6}");

    public PositionCommand {
        if (!SFEN.matcher(sfen).matches()) {
            throw new IllegalArgumentException("not a canonical SFEN: '" + sfen + "'");
        }
        for (String move : moves) {
            if (!MOVE.matcher(move).matches()) {
                throw new IllegalArgumentException("not a USI move: '" + move + "'");
            }
        }
        moves = List.copyOf(moves);
    }

    public static PositionCommand of(String sfen, String... moves) {
        return new PositionCommand(sfen, List.of(moves));
    }

    public String text() {
        return "position sfen " + sfen + (moves.isEmpty() ? "" : " moves " + String.join(" ", moves));
    }

    /** The side to move after the moves: the SFEN's side, turned once per move. */
    public Color sideToMove() {
        Color start = sfen.split(" ")[1].equals("b") ? Color.SENTE : Color.GOTE;
        return moves.size() % 2 == 0 ? start : start.opposite();
    }
}
