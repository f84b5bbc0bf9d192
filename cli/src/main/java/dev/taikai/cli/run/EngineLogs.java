package dev.taikai.cli.run;

import dev.taikai.enginehost.session.EngineFailure;
import dev.taikai.enginehost.session.GameLog;
import dev.taikai.enginehost.session.LocalEngine;
import dev.taikai.enginehost.session.PipeLog;

/**
 * A game's engine log ({@code taikai run -log}, written as {@link GameLog} writes it): the lines to and
 * from both engines, taken from their {@link PipeLog}s when the game ends. The lines of an engine's start
 * are in the log of its first game; those between games in the next game's. Without {@code -log}, a
 * game in which an engine failed still gets a log: that engine's standard error tail.
 */
final class EngineLogs {
    private EngineLogs() {}

    /**
     * Takes the game's lines from the engine's log, if it keeps one; a failed engine's standard error tail
     * is added as notes, log or no log.
     */
    static GameLog.Side side(String entrant, LocalEngine engine) {
        return new GameLog.Side(entrant, GameLog.take(engine));
    }

    /** An engine that failed to start: its standard error tail. */
    static GameLog.Side failedStart(String entrant, EngineFailure failure) {
        return new GameLog.Side(entrant, GameLog.stderrNotes(failure.stderrTail()));
    }
}
