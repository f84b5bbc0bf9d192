package dev.taikai.referee.game;

import dev.taikai.rules.Color;
import dev.taikai.rules.Game;
import dev.taikai.rules.MoveException;
import dev.taikai.rules.Notation;
import dev.taikai.rules.Outcome;
import dev.taikai.rules.Result;
import dev.taikai.rules.Termination;
import java.util.List;
import java.util.Optional;

/**
 * A game record replayed with the rules before it is counted (ARCHITECTURE.md, decision 11): it is the
 * game that was planned, every move is legal where it was played, nothing was played after the game
 * ended, and its ending is the one the rules and the adjudication give. The referee decides some endings
 * outside the rules (a resignation, a time forfeit, an illegal move, a crash, a stall); those can only
 * be a loss for the side to move, and only in a position the rules have not already ended, but for an
 * engine that fails before the first move (either side's: it did not start).
 */
public final class RecordCheck {
    private RecordCheck() {}

    /** Why {@code record} is not the game {@code planned} played by the rules, or empty when it is. */
    public static Optional<String> problem(GameRecord record, GameAssignment planned) {
        Optional<String> different = difference(record.assignment(), planned);
        if (different.isPresent()) {
            return Optional.of("it is not the planned game " + planned.gameId() + ": " + different.get());
        }
        Game game = new Game(planned.opening().position());
        if (!record.startSfen().equals(game.start().toSfen())) {
            return Optional.of("it starts from " + record.startSfen() + ", not from the planned opening "
                    + game.start().toSfen());
        }
        Adjudicator adjudicator = new Adjudicator(planned.adjudication());
        List<MoveRecord> moves = record.moves();
        Optional<Outcome> adjudicated = Optional.empty();
        for (int i = 0; i < moves.size(); i++) {
            int ply = i + 1;
            if (game.isOver() || adjudicated.isPresent()) {
                Outcome over = game.outcome().orElse(adjudicated.orElse(null));
                return Optional.of("ply " + ply + " (" + moves.get(i).move() + ") was played after the game ended by "
                        + name(over.termination()) + " at ply " + i);
            }
            Color mover = game.position().sideToMove();
            try {
                game.play(moves.get(i).move(), Notation.FAIRY_STOCKFISH);
            } catch (MoveException e) {
                return Optional.of(
                        "ply " + ply + " (" + moves.get(i).move() + ") is not a legal move: " + e.getMessage());
            }
            if (!game.isOver()) {
                adjudicated = adjudicator.afterMove(ply, mover, moves.get(i).score());
            }
        }
        Outcome claimed = record.outcome();
        Optional<Outcome> decided = game.isOver() ? game.outcome() : adjudicated;
        if (decided.isPresent()) {
            Outcome due = decided.get();
            if (claimed.termination() != due.termination() || claimed.result() != due.result()) {
                return Optional.of("it ends by " + name(claimed.termination()) + " (" + name(claimed.result())
                        + "), but after its " + moves.size() + " plies the "
                        + (game.isOver() ? "rules" : "adjudication")
                        + " end it by " + name(due.termination()) + " (" + name(due.result()) + ")");
            }
            return Optional.empty();
        }
        if (claimed.termination().byRules() || claimed.termination() == Termination.ADJUDICATION) {
            return Optional.of("it ends by " + name(claimed.termination()) + " after " + moves.size()
                    + " plies, but the " + (claimed.termination().byRules() ? "rules" : "adjudication")
                    + " do not end the game there");
        }
        if (moves.isEmpty()
                && (claimed.termination() == Termination.DISCONNECT || claimed.termination() == Termination.STALL)
                && claimed.result() != Result.DRAW) {
            return Optional.empty(); // an engine that failed to start: either side's, before the first move
        }
        Color toMove = game.position().sideToMove();
        if (claimed.result() != Result.lossFor(toMove)) {
            return Optional.of("it ends by " + name(claimed.termination()) + " (" + name(claimed.result())
                    + "), which can only be a loss for " + toMove.displayName() + ", the side to move");
        }
        return Optional.empty();
    }

    /** The first field in which {@code played} differs from {@code planned}, or empty. */
    private static Optional<String> difference(GameAssignment played, GameAssignment planned) {
        List<Object[]> fields = List.of(
                new Object[] {"game id", played.gameId(), planned.gameId()},
                new Object[] {"round", played.round(), planned.round()},
                new Object[] {"pairing", played.pairing(), planned.pairing()},
                new Object[] {"game in pairing", played.gameInPairing(), planned.gameInPairing()},
                new Object[] {"variant", played.variant(), planned.variant()},
                new Object[] {"sente", played.sente(), planned.sente()},
                new Object[] {"gote", played.gote(), planned.gote()},
                new Object[] {
                    "opening", played.opening().toString(), planned.opening().toString()
                },
                new Object[] {"sente's time control", played.senteTimeControl(), planned.senteTimeControl()},
                new Object[] {"gote's time control", played.goteTimeControl(), planned.goteTimeControl()},
                new Object[] {"sente's overrun margin", played.senteMarginMillis(), planned.senteMarginMillis()},
                new Object[] {"gote's overrun margin", played.goteMarginMillis(), planned.goteMarginMillis()},
                new Object[] {"adjudication", played.adjudication(), planned.adjudication()});
        for (Object[] field : fields) {
            if (!field[1].equals(field[2])) {
                return Optional.of("its " + field[0] + " is " + field[1] + ", the plan's " + field[2]);
            }
        }
        return Optional.empty();
    }

    private static String name(Enum<?> value) {
        return value.name().toLowerCase(java.util.Locale.ROOT).replace('_', ' ');
    }
}
