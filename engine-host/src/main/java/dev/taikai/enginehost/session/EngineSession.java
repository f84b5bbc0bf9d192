package dev.taikai.enginehost.session;

import dev.taikai.rules.Notation;
import java.util.Optional;

/**
 * An engine ready to play games, as a referee uses it: a {@link LocalEngine} on this machine, or a session
 * on a remote worker. Calls come one at a time; {@link #close} may come from any thread.
 */
public interface EngineSession extends AutoCloseable {
    /** How the engine writes Kyoto shogi; positions are sent and moves read in it. */
    Notation notation();

    /** Readies the engine for a new game (USI {@code usinewgame} and {@code isready}): call before each game. */
    Optional<EngineFailure> newGame();

    /** Sends the position and starts the search; the reply carries the engine's time measured at the pipe. */
    MoveReply go(PositionCommand position, SearchLimits limits);

    /** Tells the engine the game is over (USI {@code gameover}), from this engine's point of view. */
    Optional<EngineFailure> gameOver(GameEnd end);

    /** The failure that ended the session, if it has failed; a failed session is not used again. */
    Optional<EngineFailure> failure();

    /** Ends the session and the engine with it. Idempotent. */
    @Override
    void close();
}
