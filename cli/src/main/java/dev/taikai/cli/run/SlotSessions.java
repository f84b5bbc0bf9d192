package dev.taikai.cli.run;

import dev.taikai.enginehost.catalog.EngineSpec;
import dev.taikai.enginehost.engines.Engines;
import dev.taikai.enginehost.session.EngineFailure;
import dev.taikai.enginehost.session.LocalEngine;
import dev.taikai.enginehost.session.PipeLog;
import dev.taikai.enginehost.session.StartResult;
import dev.taikai.enginehost.session.Timeouts;
import dev.taikai.rules.Variant;
import java.util.HashMap;
import java.util.Map;

/**
 * The engine sessions of one game slot: an engine started for a game is kept for the slot's next game
 * unless it failed (or the run restarts engines every game), so fast games do not pay for a start each.
 */
final class SlotSessions implements AutoCloseable {
    private final Map<String, LocalEngine> sessions = new HashMap<>();
    private final Variant variant;
    private final Timeouts timeouts;
    private final boolean restartEveryGame;
    private final boolean strictOptions;
    private final boolean logPipes;
    private boolean closed;

    /**
     * With {@code strictOptions}, an engine that does not list an option it is given fails to start; with
     * {@code logPipes}, each session keeps every line to and from its engine ({@link LocalEngine#pipeLog}).
     */
    SlotSessions(
            Variant variant, Timeouts timeouts, boolean restartEveryGame, boolean strictOptions, boolean logPipes) {
        this.variant = variant;
        this.timeouts = timeouts;
        this.restartEveryGame = restartEveryGame;
        this.strictOptions = strictOptions;
        this.logPipes = logPipes;
    }

    /**
     * A ready session for the entrant's engine, or why it could not be had. An engine is started outside
     * this object's lock, so that {@link #close} (Ctrl-C) never waits for a handshake; one whose start ends
     * after the close is closed at once (the caller, stopping, does not play with it).
     */
    StartResult session(String entrant, EngineSpec spec) {
        synchronized (this) {
            LocalEngine existing = sessions.remove(entrant);
            if (existing != null && existing.failure().isEmpty() && !restartEveryGame) {
                sessions.put(entrant, existing);
                return existing;
            }
            if (existing != null) {
                existing.close();
            }
        }
        StartResult started =
                Engines.start(spec, variant, timeouts, logPipes ? new PipeLog(PipeLog.DEFAULT_CAP_CHARS) : null);
        if (strictOptions) {
            started = LocalEngine.refusingUnlistedOptions(started);
        }
        if (started instanceof LocalEngine engine) {
            synchronized (this) {
                if (closed) {
                    engine.close();
                } else {
                    sessions.put(entrant, engine);
                }
            }
        }
        return started;
    }

    /** Closes the sessions that failed, so they are not reused. */
    synchronized void dropFailed() {
        sessions.values().removeIf(engine -> {
            boolean failed = engine.failure().isPresent();
            if (failed) {
                engine.close();
            }
            return failed;
        });
    }

    @Override
    public synchronized void close() {
        closed = true;
        for (LocalEngine engine : sessions.values()) {
            engine.close();
        }
        sessions.clear();
    }

    static boolean fatal(EngineFailure failure) {
        return failure.kind() == EngineFailure.Kind.START_FAILED || failure.failsEveryGame();
    }
}
