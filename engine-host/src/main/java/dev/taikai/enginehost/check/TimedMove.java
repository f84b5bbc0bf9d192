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
            return new CheckReport.Result(name, Verdict.PASS, detail, true);
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
