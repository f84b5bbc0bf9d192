package dev.taikai.referee.game;

import dev.taikai.enginehost.session.GameEnd;
import dev.taikai.enginehost.session.MoveReply;
import dev.taikai.enginehost.session.PositionCommand;
import dev.taikai.enginehost.session.SearchLimits;
import dev.taikai.rules.Notation;

/**
 * An engine as the referee sees it during one game: usually an {@link
 * dev.taikai.enginehost.session.EngineSession} ({@link SessionPlayer}): a process on this machine or a session on
 * a remote worker.
 */
public interface Player {
    /** The entrant's name in the tournament. */
    String name();

    /** How this engine writes Kyoto shogi; positions are sent and moves read in it. */
    Notation notation();

    /** Sends the position and go; the reply carries the engine's time measured at the pipe. */
    MoveReply go(PositionCommand position, SearchLimits limits);

    /** Tells the engine how the game ended for it; failures here no longer matter. */
    void gameOver(dev.taikai.enginehost.session.GameEnd end);

    /** Convenience for {@link #gameOver}: from this player's side of a result. */
    static GameEnd endFor(boolean won, boolean drawn) {
        return drawn ? GameEnd.DRAW : won ? GameEnd.WIN : GameEnd.LOSE;
    }
}
