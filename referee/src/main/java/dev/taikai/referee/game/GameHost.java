package dev.taikai.referee.game;

import dev.taikai.enginehost.usi.EngineFailure;
import dev.taikai.enginehost.usi.EngineSession;
import dev.taikai.rules.Color;
import dev.taikai.rules.Outcome;
import dev.taikai.rules.Result;
import java.util.List;
import java.util.Optional;

/**
 * A game from two engine sessions to its record, the same on one machine and on a cluster: both
 * engines are readied ({@code isready}, {@code usinewgame}), then the {@link Referee} plays. An engine that
 * fails before the first move loses the game by that failure.
 */
public final class GameHost {
    private GameHost() {}

    /**
     * Plays {@code game} between two started sessions.
     *
     * @param transportAllowanceNanos as for {@link Referee#play(GameAssignment, Player, Player, long,
     *     GameObserver)}
     */
    public static GameRecord play(
            GameAssignment game,
            EngineSession sente,
            EngineSession gote,
            long transportAllowanceNanos,
            GameObserver observer) {
        long started = System.currentTimeMillis();
        for (Color side : Color.values()) {
            EngineSession session = side == Color.SENTE ? sente : gote;
            Optional<EngineFailure> ready = session.newGame();
            if (ready.isPresent()) {
                GameRecord record = forfeit(game, side, ready.get(), started);
                observer.finished(record);
                return record;
            }
        }
        return Referee.play(
                game,
                new SessionPlayer(game.sente(), sente),
                new SessionPlayer(game.gote(), gote),
                transportAllowanceNanos,
                observer);
    }

    /** The record of a game {@code side} lost by {@code failure} before its first move. */
    public static GameRecord forfeit(GameAssignment game, Color side, EngineFailure failure, long startedEpochMillis) {
        String entrant = side == Color.SENTE ? game.sente() : game.gote();
        Outcome outcome = new Outcome(
                Result.lossFor(side),
                failure.termination(),
                side.displayName() + " (" + entrant + ") before the first move: " + failure);
        return new GameRecord(
                game,
                game.opening().position().toSfen(),
                List.of(),
                outcome,
                startedEpochMillis,
                System.currentTimeMillis());
    }
}
