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

    /** A move at a node limit that the engine's own report puts far past it is a warning, with the count. */
    @Test
    void aNodeCountFarPastTheLimitIsAWarning() {
        for (long nodes : new long[] {900, 2000, 9344}) {
            var info = new dev.taikai.enginehost.session.SearchInfo(
                    5, -1, 30, nodes, -1, -1, null, java.util.List.of(), null);
            BestMove best = new BestMove("2e3d", null, 0, 30 * MS, info, 1, 0);
            CheckReport.Result result =
                    TimedMove.judge("nps", "'nps 1000,st 1' ->", best, SearchLimits.nodes(1000), Optional.empty());
            if (nodes <= 2000) {
                assertEquals(Verdict.PASS, result.verdict(), result.detail());
            } else {
                assertEquals(Verdict.WARN, result.verdict(), result.detail());
                assertTrue(
                        result.detail().contains(": it reported 9344 nodes for a limit of 1000 (9.3 times)"),
                        result.detail());
            }
        }
    }
}
