package dev.taikai.enginehost.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.Test;

/** A game's log merges both engines by pipe time and keeps within its compressed cap, saying what it cut. */
class GameLogTest {
    @Test
    void bothEnginesAreMergedInPipeOrderOneLineEach() throws IOException {
        List<String> lines = lines(GameLog.gzipped(List.of(
                new GameLog.Side(
                        "a",
                        List.of(
                                new PipeLog.Entry(1_000_000, PipeLog.Direction.TO_ENGINE, "go btime 0"),
                                new PipeLog.Entry(3_000_000, PipeLog.Direction.FROM_ENGINE, "bestmove 1a1b"))),
                new GameLog.Side("b", List.of(new PipeLog.Entry(2_000_000, PipeLog.Direction.NOTE, "stderr: x"))))));
        assertEquals(
                List.of(
                        "1970-01-01T00:00:01.000000Z a > go btime 0",
                        "1970-01-01T00:00:02.000000Z b ! stderr: x",
                        "1970-01-01T00:00:03.000000Z a < bestmove 1a1b"),
                lines);
    }

    @Test
    void aLogPastItsCapKeepsItsFirstLinesAndCountsTheRest() throws IOException {
        Random random = new Random(7);
        List<PipeLog.Entry> flood = new ArrayList<>();
        for (int i = 0; i < 200_000; i++) { // random text: it hardly compresses
            flood.add(new PipeLog.Entry(
                    i, PipeLog.Direction.FROM_ENGINE, "info string " + Long.toHexString(random.nextLong())));
        }
        long cap = 256 * 1024;
        byte[] gzip = GameLog.gzipped(List.of(new GameLog.Side("a", flood)), cap);
        assertTrue(gzip.length <= cap, gzip.length + " bytes");
        List<String> lines = lines(gzip);
        assertTrue(lines.get(0).endsWith(" a < " + flood.get(0).text()), lines.get(0));
        String last = lines.get(lines.size() - 1);
        assertEquals(
                "... " + (flood.size() - (lines.size() - 1)) + " more lines not kept: a game's log keeps about 256 KiB"
                        + " compressed",
                last);
        assertThrows(IllegalArgumentException.class, () -> GameLog.gzipped(List.of(), 1000));
    }

    private static List<String> lines(byte[] gzip) throws IOException {
        try (var in = new GZIPInputStream(new ByteArrayInputStream(gzip))) {
            return List.of(new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n"));
        }
    }
}
