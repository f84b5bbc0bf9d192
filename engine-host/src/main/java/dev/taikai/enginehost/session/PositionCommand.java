package dev.taikai.enginehost.session;

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

    public PositionCommand {
        if (!SFEN.matcher(sfen).matches()) {
            throw new IllegalArgumentException("not a canonical SFEN: '" + sfen + "'");
        }
        for (String move : moves) {
            if (!looksLikeMove(move)) {
                throw new IllegalArgumentException("not a USI move: '" + move + "'");
            }
        }
        moves = List.copyOf(moves);
    }

    /**
     * 4 to 6 characters of {@code [+0-9A-Za-z*-]}: the shape of a USI move, so no space or line break can
     * smuggle in another command. Checked per character rather than by a regex: the referee sends the whole
     * game with every move, so this runs a few thousand times per game.
     */
    private static boolean looksLikeMove(String move) {
        int length = move.length();
        if (length < 4 || length > 6) {
            return false;
        }
        for (int i = 0; i < length; i++) {
            char c = move.charAt(i);
            boolean allowed = (c >= '0' && c <= '9')
                    || (c >= 'a' && c <= 'z')
                    || (c >= 'A' && c <= 'Z')
                    || c == '+'
                    || c == '*'
                    || c == '-';
            if (!allowed) {
                return false;
            }
        }
        return true;
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
