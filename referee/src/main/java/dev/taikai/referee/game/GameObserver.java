package dev.taikai.referee.game;

import java.util.List;

/**
 * Watches a game as the referee plays it, for live views and logs. Called on the game's thread; an
 * observer must be quick and must not throw.
 */
public interface GameObserver {
    GameObserver NONE = new GameObserver() {};

    /** The engines are ready and the first move is about to be asked for. */
    default void started(GameAssignment assignment, String startSfen) {}

    /**
     * A move was played.
     *
     * @param ply 1-based
     * @param pv the mover's principal variation as it reported it (its notation), possibly empty
     */
    default void moved(
            int ply, MoveRecord move, long senteRemainingMillis, long goteRemainingMillis, List<String> pv) {}

    /** The game is over; {@code record} is what will be published. */
    default void finished(GameRecord record) {}
}
