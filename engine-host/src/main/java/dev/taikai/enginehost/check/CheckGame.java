package dev.taikai.enginehost.check;

import dev.taikai.enginehost.check.CheckReport.Verdict;
import dev.taikai.enginehost.session.BestMove;
import dev.taikai.enginehost.session.EngineSession;
import dev.taikai.enginehost.session.MoveReply;
import dev.taikai.enginehost.session.PositionCommand;
import dev.taikai.enginehost.session.SearchLimits;
import dev.taikai.rules.Move;
import dev.taikai.rules.MoveException;
import dev.taikai.rules.Notation;
import dev.taikai.rules.Piece;
import dev.taikai.rules.Position;
import dev.taikai.rules.Usi;
import dev.taikai.rules.Variant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * The "moves" check of both protocols: a game as the referee plays one. The engine moves from the
 * start, the opponent's reply goes to it with the game so far, and so on for {@link #ENGINE_MOVES} of
 * the engine's moves, each checked legal where it was played. The opponent takes a piece when it can and
 * drops one when it can, so that captures and drops reach the engine in its notation; the other checks
 * ask for a move from a position without moves.
 */
final class CheckGame {
    static final String NAME = "moves";
    static final int ENGINE_MOVES = 6;

    private CheckGame() {}

    /**
     * The check's result: a pass with the game's moves, or a failure with the moves before it. {@code
     * how} says how the opponent's moves went (" with usermove").
     */
    static CheckReport.Result check(EngineSession engine, Variant variant, Notation notation, String how) {
        engine.newGame();
        Played game = play(variant, notation, position -> engine.go(position, SearchLimits.movetime(100)));
        if (game.failure() != null) {
            String where = game.moves().isEmpty() ? "from the start" : "after " + String.join(" ", game.moves());
            return new CheckReport.Result(NAME, Verdict.FAIL, where + ": " + game.failure(), true);
        }
        return new CheckReport.Result(
                NAME,
                Verdict.PASS,
                "a game of " + game.moves().size() + " plies (the opponent's moves sent" + how + "): "
                        + String.join(" ", game.moves()),
                true);
    }

    /** The game played: its moves, and why it stopped short (null when it did not). */
    private record Played(List<String> moves, String failure) {}

    /** @param go asks the engine for its move in a game: the start and the moves so far */
    private static Played play(Variant variant, Notation notation, Function<PositionCommand, MoveReply> go) {
        Position position = Position.start(variant);
        String start = position.toSfen(notation);
        List<String> moves = new ArrayList<>();
        for (int i = 0; i < ENGINE_MOVES && position.legalMoves().length > 0; i++) {
            MoveReply reply = go.apply(new PositionCommand(start, List.copyOf(moves)));
            if (!(reply instanceof BestMove best)) {
                return new Played(moves, reply.toString());
            }
            try {
                position = position.play(Usi.parse(position, best.move(), notation));
            } catch (MoveException e) {
                return new Played(moves, "move " + best.move() + ": " + e.getMessage());
            }
            moves.add(best.move());
            int[] legal = position.legalMoves();
            if (legal.length == 0) {
                break;
            }
            int answer = opponentsMove(position, legal);
            moves.add(Usi.format(answer, variant, notation));
            position = position.play(answer);
        }
        return new Played(moves, null);
    }

    /** A capture when there is one, else a drop when there is one, else the first legal move. */
    private static int opponentsMove(Position position, int[] legal) {
        for (int move : legal) {
            if (!Move.isDrop(move) && position.pieceAt(Move.to(move)) != Piece.EMPTY) {
                return move;
            }
        }
        for (int move : legal) {
            if (Move.isDrop(move)) {
                return move;
            }
        }
        return legal[0];
    }
}
