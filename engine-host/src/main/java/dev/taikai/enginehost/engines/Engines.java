package dev.taikai.enginehost.engines;

import dev.taikai.enginehost.catalog.EngineSpec;
import dev.taikai.enginehost.session.EngineConnection;
import dev.taikai.enginehost.session.EngineFailure;
import dev.taikai.enginehost.session.PipeLog;
import dev.taikai.enginehost.session.StartResult;
import dev.taikai.enginehost.session.Timeouts;
import dev.taikai.enginehost.usi.UsiEngine;
import dev.taikai.enginehost.xboard.XBoardEngine;
import dev.taikai.rules.Variant;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/** Starts the engine of a catalog entry with the driver of the protocol it speaks. */
public final class Engines {
    private Engines() {}

    /**
     * Starts the engine, completes its protocol's handshake, selects {@code variant}, sends the entry's
     * options, and waits until it is ready; every line to and from it kept in {@code log} (null: none). The
     * start waits its turn at this host's {@link StartGate}; one that stalls while the host is busy is tried
     * once more, and a second stall is the engine's start failure, with both stalls in its detail.
     */
    public static StartResult start(EngineSpec spec, Variant variant, Timeouts timeouts, PipeLog log) {
        return start(StartGate.HOST, spec, variant, timeouts, log);
    }

    /** As {@link #start(EngineSpec, Variant, Timeouts, PipeLog)}, through {@code gate}. */
    static StartResult start(StartGate gate, EngineSpec spec, Variant variant, Timeouts timeouts, PipeLog log) {
        return gate.through(() -> {
            StartResult first = startOnce(spec, variant, timeouts, log);
            if (!(first instanceof EngineFailure failed) || failed.kind() != EngineFailure.Kind.STALL || !busy(gate)) {
                return first;
            }
            // a start that stalled on a busy host is tried once more before it is the engine's failure
            StartResult second = startOnce(spec, variant, timeouts, log);
            return second instanceof EngineFailure again
                    ? new EngineFailure(
                            again.kind(),
                            again.detail() + " (the second start; the first, on a busy host: " + failed.detail() + ")",
                            again.stderrTail())
                    : second;
        });
    }

    private static StartResult startOnce(EngineSpec spec, Variant variant, Timeouts timeouts, PipeLog log) {
        return switch (spec.protocol()) {
            case USI -> UsiEngine.start(spec, variant, timeouts, log);
            case XBOARD -> XBoardEngine.start(spec, variant, timeouts, log);
        };
    }

    /**
     * Whether this host is busy: its load (the last minute's average of processes running or waiting to)
     * is at least its cores, or other starts wait for their turn.
     */
    static boolean busy(StartGate gate) {
        if (gate.waiting() > 0) {
            return true;
        }
        try {
            String load = Files.readString(Path.of("/proc/loadavg"));
            return Double.parseDouble(load.substring(0, load.indexOf(' ')))
                    >= Runtime.getRuntime().availableProcessors();
        } catch (IOException | RuntimeException e) {
            return false;
        }
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
