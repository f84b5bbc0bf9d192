package dev.taikai.referee.game;

import dev.taikai.engineworker.usi.GameEnd;
import dev.taikai.engineworker.usi.MoveReply;
import dev.taikai.engineworker.usi.PositionCommand;
import dev.taikai.engineworker.usi.SearchLimits;
import dev.taikai.engineworker.usi.UsiEngine;
import dev.taikai.rules.Notation;

/** A player backed by an engine process on this machine. */
public record LocalPlayer(String name, UsiEngine engine) implements Player {
    @Override
    public Notation notation() {
        return engine.spec().notation();
    }

    @Override
    public MoveReply go(PositionCommand position, SearchLimits limits) {
        return engine.go(position, limits);
    }

    @Override
    public void gameOver(GameEnd end) {
        engine.gameOver(end);
    }
}
