package dev.taikai.enginehost.session;

import dev.taikai.enginehost.catalog.EngineSpec;
import dev.taikai.rules.Variant;
import java.util.List;
import java.util.Optional;

/**
 * An engine process on this machine, ready to play, whatever protocol it speaks: what the local runner,
 * the worker's slots and the engine check need of a driver beyond the referee's {@link EngineSession}.
 */
public non-sealed interface LocalEngine extends EngineSession, StartResult {
    EngineSpec spec();

    Variant variant();

    /** What the engine said about itself as it started. */
    EngineIdentity identity();

    /**
     * The options of the catalog entry (or the entrant) that the engine does not list, each with the
     * options it has: they were not sent. A caller that wants every option set (taikai run --strict)
     * refuses such a session.
     */
    List<String> unlistedOptions();

    /** Problems that did not stop the session, such as options the engine does not list. */
    List<String> warnings();

    /** Where this session keeps every line to and from the engine, if it was started with one. */
    Optional<PipeLog> pipeLog();

    /** The last lines of the engine's standard error. */
    List<String> stderrTail();

    /** The engine's process id (its process group id too, when limits apply). */
    long pid();

    /** Processes of this engine still alive: the engine, its process group and its descendants. */
    List<Long> liveProcesses();

    /** Whether the engine runs under setsid and prlimit (false where util-linux is missing). */
    boolean limitsApplied();

    /** "exited with code 0", "killed by signal 9 (SIGKILL)", or "still running". */
    String exitDescription();

    /** Tells the engine to quit and waits for it to exit; {@link #close} then kills whatever is left. */
    QuitResult quit();

    /**
     * {@code started}, unless it is a session with {@linkplain #unlistedOptions options the engine does not
     * list}: then the session is closed and the start failed, naming the first of them.
     */
    static StartResult refusingUnlistedOptions(StartResult started) {
        if (started instanceof LocalEngine engine && !engine.unlistedOptions().isEmpty()) {
            engine.close();
            return new EngineFailure(
                    EngineFailure.Kind.START_FAILED, engine.unlistedOptions().get(0), List.of());
        }
        return started;
    }
}
