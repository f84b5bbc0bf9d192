package dev.taikai.referee.game;

import dev.taikai.enginehost.session.EngineSession;
import dev.taikai.enginehost.session.GameEnd;
import dev.taikai.enginehost.session.MoveReply;
import dev.taikai.enginehost.session.PositionCommand;
import dev.taikai.enginehost.session.SearchLimits;
import dev.taikai.rules.Notation;

/** An entrant playing through an engine session, on this machine or on a worker. */
public record SessionPlayer(String name, EngineSession session) implements Player {
    @Override
    public Notation notation() {
        return session.notation();
    }

    @Override
    public MoveReply go(PositionCommand position, SearchLimits limits) {
        return session.go(position, limits);
    }

    @Override
    public void gameOver(GameEnd end) {
        session.gameOver(end);
    }
}
