package dev.taikai.enginehost.session;

import dev.taikai.enginehost.catalog.EngineSpec;
import dev.taikai.rules.Color;
import dev.taikai.rules.Variant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * What the USI and XBoard drivers share: an engine over an {@link EngineConnection}, its warnings and the
 * options it did not list, the deadlines of a search, and the process's life and end. A driver speaks its
 * protocol; everything about the process is here, once.
 */
public abstract class PipeEngine implements LocalEngine {
    private static final long MILLI = 1_000_000;

    protected final EngineSpec spec;
    protected final Variant variant;
    protected final Timeouts timeouts;
    protected final List<String> warnings = new ArrayList<>();
    protected final List<String> unlistedOptions = new ArrayList<>();
    /** The engine's process; a driver may replace it between games (XBoard's {@code reuse=0}). */
    protected EngineConnection connection;

    protected PipeEngine(EngineSpec spec, Variant variant, Timeouts timeouts) {
        this.spec = spec;
        this.variant = variant;
        this.timeouts = timeouts;
    }

    /** The line that ends the protocol's conversation ({@code quit} in both). */
    protected String quitCommand() {
        return "quit";
    }

    /**
     * When a search started at {@code startNanos} under {@code limits} becomes a stall: its allowed time, the
     * overrun margin and the driver's move margin; an hour's worth of {@link Timeouts#unboundedSearchMillis}
     * for limits that set no time.
     */
    protected long searchDeadline(long startNanos, SearchLimits limits, Color side) {
        long allowed = limits.allowedMillis(side);
        long millis = allowed >= 0
                ? allowed + limits.graceMillis() + timeouts.moveMarginMillis()
                : timeouts.unboundedSearchMillis();
        return startNanos + millis * MILLI;
    }

    /** " (1000 ms allowed + 100 ms overrun margin + 1000 ms stall margin)" for a stall's detail, or "" without a time. */
    protected String allowance(SearchLimits limits, Color side) {
        long allowed = limits.allowedMillis(side);
        return allowed >= 0
                ? " (" + allowed + " ms allowed + "
                        + (limits.graceMillis() > 0 ? limits.graceMillis() + " ms overrun margin + " : "")
                        + timeouts.moveMarginMillis() + " ms stall margin)"
                : "";
    }

    @Override
    public EngineSpec spec() {
        return spec;
    }

    @Override
    public Variant variant() {
        return variant;
    }

    @Override
    public List<String> unlistedOptions() {
        return List.copyOf(unlistedOptions);
    }

    @Override
    public List<String> warnings() {
        return List.copyOf(warnings);
    }

    @Override
    public Optional<EngineFailure> failure() {
        return connection.failure();
    }

    @Override
    public Optional<PipeLog> pipeLog() {
        return connection.pipeLog();
    }

    @Override
    public List<String> stderrTail() {
        return connection.stderrTail();
    }

    @Override
    public long pid() {
        return connection.pid();
    }

    @Override
    public List<Long> liveProcesses() {
        return connection.liveProcesses();
    }

    @Override
    public boolean limitsApplied() {
        return connection.limitsApplied();
    }

    @Override
    public String exitDescription() {
        return connection.exitDescription();
    }

    /** Output that was not protocol so far: unexpected lines, overlong lines cut, lines dropped in a flood. */
    public String outputOddities() {
        return connection.oddities();
    }

    /** Tells the engine to quit and waits for it to exit; {@link #close} then kills whatever is left. */
    @Override
    public QuitResult quit() {
        return connection.quit(quitCommand(), timeouts.quitMillis());
    }

    /**
     * Ends the session: the quit command (unless the engine is gone), a grace period to exit, then SIGKILL
     * to whatever is left of the engine's process tree (children it left behind included). Idempotent.
     */
    @Override
    public void close() {
        if (connection != null) {
            connection.close(quitCommand(), timeouts.quitMillis());
        }
    }
}
