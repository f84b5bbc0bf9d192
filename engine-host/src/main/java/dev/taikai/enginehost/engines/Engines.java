package dev.taikai.enginehost.engines;

import dev.taikai.enginehost.catalog.EngineSpec;
import dev.taikai.enginehost.session.EngineConnection;
import dev.taikai.enginehost.session.PipeLog;
import dev.taikai.enginehost.session.StartResult;
import dev.taikai.enginehost.session.Timeouts;
import dev.taikai.enginehost.usi.UsiEngine;
import dev.taikai.enginehost.xboard.XBoardEngine;
import dev.taikai.rules.Variant;
import java.util.Optional;

/** Starts the engine of a catalog entry with the driver of the protocol it speaks. */
public final class Engines {
    private Engines() {}

    /**
     * Starts the engine, completes its protocol's handshake, selects {@code variant}, sends the entry's
     * options, and waits until it is ready; every line to and from it kept in {@code log} (null: none).
     */
    public static StartResult start(EngineSpec spec, Variant variant, Timeouts timeouts, PipeLog log) {
        return switch (spec.protocol()) {
            case USI -> UsiEngine.start(spec, variant, timeouts, log);
            case XBOARD -> XBoardEngine.start(spec, variant, timeouts, log);
        };
    }

    /** As {@link #start(EngineSpec, Variant, Timeouts, PipeLog)}, keeping no log. */
    public static StartResult start(EngineSpec spec, Variant variant, Timeouts timeouts) {
        return start(spec, variant, timeouts, null);
    }

    /**
     * Why the program of {@code spec} cannot be started (it does not exist, is not an executable file, or
     * is not on PATH), or empty when it can.
     */
    public static Optional<String> whyNotStartable(EngineSpec spec) {
        return EngineConnection.whyNotStartable(spec);
    }
}
