package dev.taikai.referee.game;

import dev.taikai.rules.MoveException;
import dev.taikai.rules.Position;
import dev.taikai.rules.Usi;
import java.util.ArrayList;
import java.util.List;

/**
 * Where a game starts: an SFEN (canonical, Fairy-Stockfish notation) and book moves played from it.
 * {@link #position()} is the position after the book moves, from which the engines play.
 */
public record Opening(String sfen, List<String> moves, Position position) {
    public Opening {
        moves = List.copyOf(moves);
    }

    /** The position and moves checked against the rules; the message names the first bad move. */
    public static Opening of(Position start, List<String> moves) throws MoveException {
        List<String> canonical = new ArrayList<>();
        Position position = start;
        for (String move : moves) {
            int parsed = Usi.parse(position, move);
            canonical.add(Usi.format(parsed, start.variant()));
            position = position.play(parsed);
        }
        return new Opening(start.toSfen(), canonical, position);
    }

    public static Opening start(Position start) {
        return new Opening(start.toSfen(), List.of(), start);
    }

    @Override
    public String toString() {
        return sfen + (moves.isEmpty() ? "" : " moves " + String.join(" ", moves));
    }
}
