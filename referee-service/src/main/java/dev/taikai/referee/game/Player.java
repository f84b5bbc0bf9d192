package dev.taikai.referee.game;

import dev.taikai.engineworker.usi.GameEnd;
import dev.taikai.engineworker.usi.MoveReply;
import dev.taikai.engineworker.usi.PositionCommand;
import dev.taikai.engineworker.usi.SearchLimits;
import dev.taikai.rules.Notation;

/**
 * An engine as the referee sees it during one game. On one machine it is a {@link
 * dev.taikai.engineworker.usi.UsiEngine} session ({@link LocalPlayer}); in distributed mode a session on
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
    void gameOver(dev.taikai.engineworker.usi.GameEnd end);

    /** Convenience for {@link #gameOver}: from this player's side of a result. */
    static GameEnd endFor(boolean won, boolean drawn) {
        return drawn ? GameEnd.DRAW : won ? GameEnd.WIN : GameEnd.LOSE;
    }
}
