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

/** Specs and records for the run's tests (and the scheduler's): records that hold up when replayed. */
public final class Runs {
    static final TimeControl TC = TimeControl.parse("byoyomi 0.1");
    /** A draw after two plies: drawn records are two legal moves long. */
    static final Adjudication DRAW_AT_TWO = new Adjudication(2, 0, 0, 0, 0, 0);

    private Runs() {}

    static TournamentSpec spec(Format format, int engines, int rounds, int games, int concurrency, Sprt sprt) {
        List<Entrant> entrants = new ArrayList<>();
        for (int i = 0; i < engines; i++) {
            entrants.add(new Entrant("e" + i, "fake", TC));
        }
        return spec(format, entrants, rounds, games, concurrency, sprt);
    }

    /** An entrant {@code name} of the league's rounds {@code from} to {@code until} (0: the end). */
    static Entrant inRounds(String name, int from, int until) {
        return new Entrant(name, "fake", java.util.Map.of(), TC, null, new Entrant.Rounds(from, until));
    }

    static TournamentSpec spec(
            Format format, List<Entrant> entrants, int rounds, int games, int concurrency, Sprt sprt) {
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
     * {@code game} ending in {@code result}: a draw at its move limit (the first legal move each ply), a win for
     * sente when gote resigns after sente's first move, a win for gote when sente resigns at once.
     */
    public static GameRecord record(GameAssignment game, Result result) {
        Position position = game.opening().position();
        List<MoveRecord> moves = new ArrayList<>();
        Outcome outcome;
        if (result == Result.DRAW) {
            for (int ply = 0; ply < game.adjudication().moveLimitPlies(); ply++) {
                int move = position.legalMoves()[0];
                moves.add(new MoveRecord(
                        Usi.format(move, position.variant()),
                        1_000_000,
                        1_000_000,
                        0,
                        null,
                        -1,
                        -1,
                        1_000_000,
                        0,
                        0,
                        0));
                position = position.play(move);
            }
            outcome = new Outcome(Result.DRAW, Termination.ADJUDICATION, "move limit");
        } else if (result == Result.SENTE_WINS) { // one move, then gote resigns
            int move = position.legalMoves()[0];
            moves.add(new MoveRecord(
                    Usi.format(move, position.variant()), 1_000_000, 1_000_000, 0, null, -1, -1, 1_000_000, 0, 0, 0));
            outcome = new Outcome(result, Termination.RESIGNATION, "gote resigns");
        } else { // sente resigns at once
            outcome = new Outcome(result, Termination.RESIGNATION, "sente resigns");
        }
        return new GameRecord(game, game.opening().position().toSfen(), moves, outcome, 1, 2, 0);
    }

    /** {@code game} lost by {@code side}'s engine, which did not start (a disconnect before any move). */
    static GameRecord didNotStart(GameAssignment game, dev.taikai.rules.Color side) {
        String entrant = side == dev.taikai.rules.Color.SENTE ? game.sente() : game.gote();
        Outcome outcome = new Outcome(
                Result.lossFor(side),
                Termination.DISCONNECT,
                side.displayName() + " (" + entrant + ") before the first move: exited");
        return new GameRecord(game, game.opening().position().toSfen(), List.of(), outcome, 1, 2, 0);
    }

    /**
     * {@code game} lost by {@code side}'s engine at its first move by a failure every game of its would meet
     * (an XBoard engine without setboard, given an opening): at once as sente, after sente's move as gote.
     */
    static GameRecord cannotBeGivenTheOpening(GameAssignment game, dev.taikai.rules.Color side) {
        GameRecord played = record(game, Result.lossFor(side));
        String entrant = side == dev.taikai.rules.Color.SENTE ? game.sente() : game.gote();
        Outcome outcome = new Outcome(
                Result.lossFor(side),
                Termination.DISCONNECT,
                side.displayName() + " (" + entrant + "): variant unsupported: the engine cannot be given a position"
                        + " (it has no feature setboard=1)");
        return new GameRecord(game, played.startSfen(), played.moves(), outcome, 1, 2, 0);
    }

    /** A record in which {@code winner} wins {@code game}, whichever colour it has. */
    static GameRecord win(GameAssignment game, String winner) {
        return record(game, game.sente().equals(winner) ? Result.SENTE_WINS : Result.GOTE_WINS);
    }
}
