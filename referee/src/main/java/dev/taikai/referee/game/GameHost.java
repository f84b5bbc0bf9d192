package dev.taikai.referee.game;

import dev.taikai.enginehost.session.EngineFailure;
import dev.taikai.enginehost.session.EngineSession;
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
     * Plays {@code game} between two started sessions: {@link #ready}, then {@link #playReady}.
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
        Optional<GameRecord> lost = ready(game, sente, gote, System.currentTimeMillis(), observer);
        return lost.isPresent() ? lost.get() : playReady(game, sente, gote, transportAllowanceNanos, observer);
    }

    /**
     * Readies both engines for a new game, sente first. An engine that fails to get ready loses the game:
     * its record is returned (and given to {@code observer}); empty when both are ready. Nothing has been
     * played yet either way, so a caller whose transport fails here may ready other sessions instead.
     */
    public static Optional<GameRecord> ready(
            GameAssignment game,
            EngineSession sente,
            EngineSession gote,
            long startedEpochMillis,
            GameObserver observer) {
        for (Color side : Color.values()) {
            EngineSession session = side == Color.SENTE ? sente : gote;
            Optional<EngineFailure> ready = session.newGame();
            if (ready.isPresent()) {
                GameRecord record = forfeit(game, side, ready.get(), startedEpochMillis);
                observer.finished(record);
                return Optional.of(record);
            }
        }
        return Optional.empty();
    }

    /** Plays {@code game} between two sessions that are {@link #ready}. */
    public static GameRecord playReady(
            GameAssignment game,
            EngineSession sente,
            EngineSession gote,
            long transportAllowanceNanos,
            GameObserver observer) {
        return Referee.play(
                game,
                new SessionPlayer(game.sente(), sente),
                new SessionPlayer(game.gote(), gote),
                transportAllowanceNanos,
                observer);
    }

    /**
     * True when {@code record} is a game {@code side} lost because its engine did not start (the record
     * {@link #forfeit} makes): no move played, and the forfeit's line.
     */
    public static boolean didNotStart(GameRecord record, Color side) {
        String entrant = side == Color.SENTE
                ? record.assignment().sente()
                : record.assignment().gote();
        return record.moves().isEmpty()
                && record.outcome().result() == Result.lossFor(side)
                && record.outcome().detail().startsWith(forfeitPrefix(side, entrant));
    }

    /**
     * The failure by which {@code side} lost {@code record}, as the record says it, when every game of its
     * engine in this tournament would fail alike ({@link EngineFailure#failsEveryGame}: no such variant, no
     * way to give it the opening or the node limit); empty for any other game. Read from the record's line,
     * the way the referee wrote it, so that the scheduler decides from Kafka's records as a local run does.
     */
    public static Optional<String> failureOfEveryGame(GameRecord record, Color side) {
        if (record.outcome().result() != Result.lossFor(side)) {
            return Optional.empty();
        }
        String entrant = side == Color.SENTE
                ? record.assignment().sente()
                : record.assignment().gote();
        String detail = record.outcome().detail();
        for (String prefix : List.of(forfeitPrefix(side, entrant), who(side, entrant) + ": ")) {
            if (detail.startsWith(prefix) && EngineFailure.failsEveryGame(detail.substring(prefix.length()))) {
                return Optional.of(detail.substring(prefix.length()));
            }
        }
        return Optional.empty();
    }

    /** "Gote (fsf)": a side and its entrant, as a game's line names them. */
    public static String who(Color side, String entrant) {
        return side.displayName() + " (" + entrant + ")";
    }

    /** The record of a game {@code side} lost by {@code failure} before its first move. */
    public static GameRecord forfeit(GameAssignment game, Color side, EngineFailure failure, long startedEpochMillis) {
        String entrant = side == Color.SENTE ? game.sente() : game.gote();
        Outcome outcome =
                new Outcome(Result.lossFor(side), failure.termination(), forfeitPrefix(side, entrant) + failure);
        return new GameRecord(
                game,
                game.opening().position().toSfen(),
                List.of(),
                outcome,
                startedEpochMillis,
                System.currentTimeMillis(),
                0);
    }

    /** How the line of a {@link #forfeit} begins: what {@link #didNotStart} recognises. */
    private static String forfeitPrefix(Color side, String entrant) {
        return who(side, entrant) + " before the first move: ";
    }
}
