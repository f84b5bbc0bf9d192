package dev.taikai.enginehost.host;

import dev.taikai.enginehost.session.EngineFailure;
import dev.taikai.enginehost.session.GameEnd;
import dev.taikai.enginehost.session.GameLog;
import dev.taikai.enginehost.session.LocalEngine;
import dev.taikai.enginehost.session.MoveReply;
import dev.taikai.enginehost.session.PipeLog;
import dev.taikai.enginehost.session.PositionCommand;
import dev.taikai.enginehost.session.SearchLimits;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * One engine lent out by an {@link EngineHost}: the driver's session with the slot it holds. Calls are
 * made one at a time by the session's owner; {@link #close} may come from any thread, also during a
 * {@code go}, and kills the engine.
 */
public final class HostedSession implements AutoCloseable {
    private final EngineHost host;
    private final String engineId;
    private final LocalEngine engine;
    private final AtomicBoolean closed = new AtomicBoolean();

    HostedSession(EngineHost host, String engineId, LocalEngine engine) {
        this.host = host;
        this.engineId = engineId;
        this.engine = engine;
    }

    public String engineId() {
        return engineId;
    }

    public LocalEngine engine() {
        return engine;
    }

    public Optional<EngineFailure> newGame() {
        return reported(engine.newGame());
    }

    public MoveReply go(PositionCommand position, SearchLimits limits) {
        MoveReply reply = engine.go(position, limits);
        if (reply instanceof EngineFailure failure) {
            host.listener().engineFailed(engineId, failure);
        }
        return reply;
    }

    public void gameOver(GameEnd end) {
        reported(engine.gameOver(end));
    }

    /**
     * The lines to and from the engine since the last take (its start, the first time), with its standard
     * error tail as notes when it failed; empty when the session keeps no log and the engine is healthy.
     */
    public List<PipeLog.Entry> takeLog() {
        return GameLog.take(engine);
    }

    private Optional<EngineFailure> reported(Optional<EngineFailure> failure) {
        failure.ifPresent(f -> host.listener().engineFailed(engineId, f));
        return failure;
    }

    /** Kills the engine (politely first when it is idle) and frees the slot; later calls fail. */
    @Override
    public void close() {
        if (closed.compareAndSet(false, true)) {
            try {
                engine.close();
            } finally {
                host.closed(this);
            }
        }
    }
}
