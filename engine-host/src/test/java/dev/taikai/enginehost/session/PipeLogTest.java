package dev.taikai.enginehost.session;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

/** A pipe log keeps lines in order between takes, up to its cap, and says how many it did not keep. */
class PipeLogTest {
    @Test
    void linesAreKeptUpToTheCapAndTheRestCounted() {
        PipeLog log = new PipeLog(20 + 3 * PipeLog.LINE_COST);
        log.sent("position startpos\ngo", 1000);
        log.received("bestmove 1a1b", 2000); // 17 + 2 + 13 > 20 (with three lines cost): not kept
        log.received("x", 3000);
        List<PipeLog.Entry> taken = log.take();
        assertEquals(
                List.of(
                        new PipeLog.Entry(PipeLog.epochMicros(1000), PipeLog.Direction.TO_ENGINE, "position startpos"),
                        new PipeLog.Entry(PipeLog.epochMicros(1000), PipeLog.Direction.TO_ENGINE, "go"),
                        new PipeLog.Entry(PipeLog.epochMicros(3000), PipeLog.Direction.FROM_ENGINE, "x")),
                taken.subList(0, 3));
        assertEquals(PipeLog.Direction.NOTE, taken.get(3).direction());
        assertEquals(
                "1 more line was not kept: the log of one game keeps " + (20 + 3 * PipeLog.LINE_COST)
                        + " characters of an engine",
                taken.get(3).text());
        log.received("usiok", 4000);
        assertEquals(
                List.of(new PipeLog.Entry(PipeLog.epochMicros(4000), PipeLog.Direction.FROM_ENGINE, "usiok")),
                log.take(),
                "a take starts anew");
    }
}
