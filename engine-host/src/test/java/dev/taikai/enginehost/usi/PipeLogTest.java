package dev.taikai.enginehost.usi;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

/** A pipe log keeps lines in order between takes, up to its cap, and says how many it did not keep. */
class PipeLogTest {
    @Test
    void linesAreKeptUpToTheCapAndTheRestCounted() {
        PipeLog log = new PipeLog(20);
        log.sent("position startpos\ngo", 1);
        log.received("bestmove 1a1b", 2); // 17 + 2 + 13 > 20: not kept
        log.received("x", 3);
        List<PipeLog.Entry> taken = log.take();
        assertEquals(
                List.of(
                        new PipeLog.Entry(1, PipeLog.Direction.TO_ENGINE, "position startpos"),
                        new PipeLog.Entry(1, PipeLog.Direction.TO_ENGINE, "go"),
                        new PipeLog.Entry(3, PipeLog.Direction.FROM_ENGINE, "x")),
                taken.subList(0, 3));
        assertEquals(PipeLog.Direction.NOTE, taken.get(3).direction());
        assertEquals(
                "1 more line was not kept: the log of one game keeps 20 characters",
                taken.get(3).text());
        log.received("usiok", 4);
        assertEquals(
                List.of(new PipeLog.Entry(4, PipeLog.Direction.FROM_ENGINE, "usiok")),
                log.take(),
                "a take starts anew");
    }
}
