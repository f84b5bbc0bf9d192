package dev.taikai.enginehost.check;

import dev.taikai.enginehost.check.CheckReport.Verdict;
import dev.taikai.enginehost.session.BestMove;
import dev.taikai.enginehost.session.CpuWait;
import dev.taikai.enginehost.session.DefaultMargin;
import dev.taikai.enginehost.session.SearchLimits;
import dev.taikai.rules.Color;
import java.util.Locale;
import java.util.Optional;

/**
 * The verdict on one timed move of a check, for either protocol: legal, and within its time; over it but
 * within the default overrun margin (after the CPU wait the referee excuses) a warning, beyond it a
 * failure, so that what the check passes a tournament with default settings does not forfeit.
 */
final class TimedMove {
    private static final long MILLI = 1_000_000;

    private TimedMove() {}

    /** An engine whose last report counts more than this many times the nodes asked does not keep node limits. */
    static final int NODES_TOLERANCE = 2;

    /**
     * Why a move at a node limit was searched far past it, by the engine's own last report of its nodes
     * (Sjaak II's count runs 12 to 20 times past an {@code nps} limit); empty within {@link
     * #NODES_TOLERANCE} times the limit, for other limits, and when the engine reported no nodes.
     */
    static Optional<String> nodesOverLimit(BestMove best, SearchLimits limits) {
        if (limits.form() != SearchLimits.Form.NODES
                || best.info() == null
                || best.info().nodes() <= NODES_TOLERANCE * limits.nodes()) {
            return Optional.empty();
        }
        return Optional.of(String.format(
                Locale.ROOT,
                "it reported %d nodes for a limit of %d (%.1f times): it does not keep node limits, so a"
                        + " tournament at a node limit plays it stronger than asked",
                best.info().nodes(),
                limits.nodes(),
                best.info().nodes() / (double) limits.nodes()));
    }

    /**
     * The result of check {@code name}: {@code asked} says what was sent and what came back ("'go movetime
     * 200' -> bestmove"), {@code illegal} why the move is not legal from the start, if it is not.
     */
    static CheckReport.Result judge(
            String name, String asked, BestMove best, SearchLimits limits, Optional<String> illegal) {
        long tookMillis = best.engineNanos() / MILLI;
        long allowed = limits.allowedMillis(Color.SENTE);
        String detail = String.format(Locale.ROOT, "%s %s in %d ms", asked, best.move(), tookMillis)
                + (allowed >= 0 ? " (" + allowed + " ms allowed)" : "");
        if (illegal.isPresent()) {
            return new CheckReport.Result(name, Verdict.FAIL, detail + ": " + illegal.get(), true);
        }
        if (allowed < 0 || tookMillis <= allowed) {
            return nodesOverLimit(best, limits)
                    .map(over -> new CheckReport.Result(name, Verdict.WARN, detail + ": " + over, true))
                    .orElse(new CheckReport.Result(name, Verdict.PASS, detail, true));
        }
        long margin = DefaultMargin.of(limits, Color.SENTE);
        long overrunNanos = best.engineNanos() - allowed * MILLI;
        long excused = CpuWait.excusedNanos(overrunNanos, best.cpuWaitNanos(), allowed * MILLI, margin * MILLI);
        boolean loses = overrunNanos - excused > margin * MILLI;
        String over = detail + ": over its time by " + (tookMillis - allowed) + " ms";
        if (overrunNanos - excused <= 0) { // the referee counts none of it: the machine was slow, not the engine
            return new CheckReport.Result(
                    name, Verdict.PASS, over + ", all of it waiting for a CPU, which the referee does not count", true);
        }
        return new CheckReport.Result(
                name,
                loses ? Verdict.FAIL : Verdict.WARN,
                over
                        + (excused > 0 ? " (" + excused / MILLI + " ms of it waiting for a CPU, not counted)" : "")
                        + ", "
                        + (loses
                                ? "more than the default overrun margin of " + margin
                                        + " ms: under default settings it would lose on time"
                                : "within the default overrun margin of " + margin
                                        + " ms (a margin of 0 would lose it)"),
                true);
    }
}
