package dev.taikai.cli.run;

import dev.taikai.enginehost.catalog.EngineSpec;
import dev.taikai.enginehost.usi.EngineFailure;
import dev.taikai.enginehost.usi.PipeLog;
import dev.taikai.enginehost.usi.StartResult;
import dev.taikai.enginehost.usi.Timeouts;
import dev.taikai.enginehost.usi.UsiEngine;
import dev.taikai.rules.Variant;
import java.util.HashMap;
import java.util.Map;

/**
 * The engine sessions of one game slot: an engine started for a game is kept for the slot's next game
 * unless it failed (or the run restarts engines every game), so fast games do not pay for a start each.
 */
final class SlotSessions implements AutoCloseable {
    private final Map<String, UsiEngine> sessions = new HashMap<>();
    private final Variant variant;
    private final Timeouts timeouts;
    private final boolean restartEveryGame;
    private final boolean strictOptions;
    private final boolean logPipes;

    /**
     * With {@code strictOptions}, an engine that does not list an option it is given fails to start; with
     * {@code logPipes}, each session keeps every line to and from its engine ({@link UsiEngine#pipeLog}).
     */
    SlotSessions(
            Variant variant, Timeouts timeouts, boolean restartEveryGame, boolean strictOptions, boolean logPipes) {
        this.variant = variant;
        this.timeouts = timeouts;
        this.restartEveryGame = restartEveryGame;
        this.strictOptions = strictOptions;
        this.logPipes = logPipes;
    }

    /** A ready session for the entrant's engine, or why it could not be had. */
    synchronized StartResult session(String entrant, EngineSpec spec) {
        UsiEngine existing = sessions.remove(entrant);
        if (existing != null && existing.failure().isEmpty() && !restartEveryGame) {
            sessions.put(entrant, existing);
            return existing;
        }
        if (existing != null) {
            existing.close();
        }
        StartResult started =
                UsiEngine.start(spec, variant, timeouts, logPipes ? new PipeLog(PipeLog.DEFAULT_CAP_CHARS) : null);
        if (strictOptions) {
            started = UsiEngine.refusingUnlistedOptions(started);
        }
        if (started instanceof UsiEngine engine) {
            sessions.put(entrant, engine);
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
        for (UsiEngine engine : sessions.values()) {
            engine.close();
        }
        sessions.clear();
    }

    static boolean fatal(EngineFailure failure) {
        return failure.kind() == EngineFailure.Kind.START_FAILED
                || failure.kind() == EngineFailure.Kind.VARIANT_UNSUPPORTED;
    }
}
