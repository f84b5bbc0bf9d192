package dev.taikai.enginehost.check;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.taikai.enginehost.check.CheckReport.Verdict;
import dev.taikai.enginehost.session.BestMove;
import dev.taikai.enginehost.session.SearchLimits;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * A timed move's verdict: a move over its time only by the CPU wait the referee excuses was a warning,
 * "over its time by 3 ms (3 ms of it waiting for a CPU, not counted) ... (a margin of 0 would lose it)",
 * for Debian's Fairy-Stockfish on almost every check; no margin is needed for it, so it passes.
 */
class TimedMoveTest {
    private static final long MS = 1_000_000;

    private static CheckReport.Result movetime200(long tookMillis, long cpuWaitMillis) {
        BestMove best = new BestMove("2e3d", null, 0, tookMillis * MS, null, 0, cpuWaitMillis * MS);
        return TimedMove.judge(
                "go movetime", "'go movetime 200' ->", best, SearchLimits.movetime(200), Optional.empty());
    }

    @Test
    void anOverrunThatIsAllCpuWaitPasses() {
        CheckReport.Result excused = movetime200(203, 3);
        assertEquals(Verdict.PASS, excused.verdict(), excused.detail());
        assertTrue(
                excused.detail()
                        .endsWith("over its time by 3 ms, all of it waiting for a CPU, which the referee"
                                + " does not count"),
                excused.detail());
    }

    @Test
    void anOverrunBeyondTheWaitIsAWarningWithinTheMarginAndAFailureBeyondIt() {
        CheckReport.Result late = movetime200(211, 3);
        assertEquals(Verdict.WARN, late.verdict(), late.detail());
        assertTrue(late.detail().contains("(3 ms of it waiting for a CPU, not counted)"), late.detail());
        assertTrue(late.detail().endsWith("(a margin of 0 would lose it)"), late.detail());
        assertEquals(Verdict.FAIL, movetime200(400, 0).verdict());
        assertEquals(Verdict.PASS, movetime200(199, 0).verdict());
    }
}
