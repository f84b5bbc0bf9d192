package dev.taikai.tournament.run;

import dev.taikai.referee.game.Adjudication;
import dev.taikai.referee.game.GameAssignment;
import dev.taikai.referee.game.GameRecord;
import dev.taikai.referee.game.MoveRecord;
import dev.taikai.referee.game.OverrunMargin;
import dev.taikai.referee.game.TimeControl;
import dev.taikai.rules.Outcome;
import dev.taikai.rules.Position;
import dev.taikai.rules.Result;
import dev.taikai.rules.Termination;
import dev.taikai.rules.Usi;
import dev.taikai.rules.Variant;
import dev.taikai.tournament.Entrant;
import dev.taikai.tournament.Format;
import dev.taikai.tournament.TournamentSpec;
import dev.taikai.tournament.stats.Sprt;
import java.util.ArrayList;
import java.util.List;

/** Specs and records for the run's tests: records that hold up when the run replays them. */
final class Runs {
    static final TimeControl TC = TimeControl.parse("byoyomi 0.1");
    /** A draw after two plies: drawn records are two legal moves long. */
    static final Adjudication DRAW_AT_TWO = new Adjudication(2, 0, 0, 0, 0, 0);

    private Runs() {}

    static TournamentSpec spec(Format format, int engines, int rounds, int games, int concurrency, Sprt sprt) {
        List<Entrant> entrants = new ArrayList<>();
        for (int i = 0; i < engines; i++) {
            entrants.add(new Entrant("e" + i, "fake", TC));
        }
        return new TournamentSpec(
                "t",
                Variant.MINISHOGI,
                format,
                entrants,
                1,
                rounds,
                games,
                List.of(),
                false,
                OverrunMargin.BY_RULE,
                DRAW_AT_TWO,
                concurrency,
                1,
                sprt);
    }

    /**
     * {@code game} ending in {@code result}: a draw at the move limit after two legal plies, or a win
     * because the loser's engine did not start.
     */
    static GameRecord record(GameAssignment game, Result result) {
        Position position = game.opening().position();
        List<MoveRecord> moves = new ArrayList<>();
        Outcome outcome;
        if (result == Result.DRAW) {
            for (int ply = 0; ply < 2; ply++) {
                int move = position.legalMoves()[0];
                moves.add(new MoveRecord(
                        Usi.format(move, position.variant()), 1_000_000, 1_000_000, 0, null, -1, -1, 1_000_000, 0, 0));
                position = position.play(move);
            }
            outcome = new Outcome(Result.DRAW, Termination.ADJUDICATION, "move limit");
        } else {
            outcome = new Outcome(result, Termination.DISCONNECT, "the loser's engine did not start");
        }
        return new GameRecord(game, game.opening().position().toSfen(), moves, outcome, 1, 2, 0);
    }

    /** A record in which {@code winner} wins {@code game}, whichever colour it has. */
    static GameRecord win(GameAssignment game, String winner) {
        return record(game, game.sente().equals(winner) ? Result.SENTE_WINS : Result.GOTE_WINS);
    }
}
