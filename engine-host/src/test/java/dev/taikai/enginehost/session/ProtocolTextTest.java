package dev.taikai.enginehost.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.taikai.rules.Color;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Parsing and writing the protocol's text: option and info lines, go and position commands. */
class ProtocolTextTest {
    @Test
    void optionNamesWithSpacesAndEmptyDefaults() {
        EngineOption skill = EngineOption.parse("option name Skill Level type spin default 20 min -20 max 20")
                .orElseThrow();
        assertEquals(new EngineOption("Skill Level", "spin", "20", "-20", "20", List.of()), skill);
        EngineOption log = EngineOption.parse("option name Debug Log File type string default ")
                .orElseThrow();
        assertEquals("Debug Log File", log.name());
        assertEquals("", log.defaultValue());
        assertEquals(
                "",
                EngineOption.parse("option name VariantPath type string default <empty>")
                        .orElseThrow()
                        .defaultValue());
        EngineOption contempt = EngineOption.parse(
                        "option name Analysis Contempt type combo default Both var Both var Off var White var Black")
                .orElseThrow();
        assertEquals(List.of("Both", "Off", "White", "Black"), contempt.vars());
        assertEquals(
                "button",
                EngineOption.parse("option name Clear Hash type button")
                        .orElseThrow()
                        .type());
        assertTrue(EngineOption.parse("option name").isEmpty());
        assertTrue(EngineOption.parse("option type spin").isEmpty());
        assertTrue(EngineOption.parse("optional name x type spin").isEmpty());
    }

    @Test
    void infoLinesBecomeTelemetry() {
        SearchInfo info = SearchInfo.parse("info depth 12 seldepth 18 multipv 1 score cp -35 lowerbound nodes 123456"
                + " nps 987654 hashfull 12 time 125 pv 5e4d 1a2b 4d3c");
        assertEquals(12, info.depth());
        assertEquals(18, info.seldepth());
        assertEquals(new Score(false, -35, Score.Bound.LOWER), info.score());
        assertEquals(123456, info.nodes());
        assertEquals(987654, info.nodesPerSecond());
        assertEquals(12, info.hashfull());
        assertEquals(125, info.timeMillis());
        assertEquals(List.of("5e4d", "1a2b", "4d3c"), info.pv());

        assertEquals(
                Score.mateIn(-3),
                SearchInfo.parse("info score mate -3 upperbound").score().withBound(Score.Bound.EXACT));
        assertEquals(
                Score.Bound.UPPER,
                SearchInfo.parse("info score mate -3 upperbound").score().bound());
        assertEquals(
                Score.mateIn(0), SearchInfo.parse("info depth 3 score mate +").score());
        assertEquals(
                "hello world  x",
                SearchInfo.parse("info depth 1 string hello world  x").string());
        // a depth beyond an int is no depth, not the number it wraps to (1215752191)
        SearchInfo huge = SearchInfo.parse("info depth 99999999999 seldepth 7 hashfull 99999999999");
        assertEquals(-1, huge.depth());
        assertEquals(7, huge.seldepth());
        SearchInfo garbage = SearchInfo.parse("info depth x nodes 99999999999999999999 score cp pv");
        assertEquals(-1, garbage.depth());
        assertEquals(-1, garbage.nodes());
        assertNull(garbage.score());
        assertTrue(garbage.pv().isEmpty());
    }

    @Test
    void goCommandsInEveryForm() {
        assertEquals(
                "go btime 1000 wtime 2000 byoyomi 300",
                SearchLimits.byoyomi(1000, 2000, 300).goCommand(false));
        assertEquals(
                "go btime 2000 wtime 1000 byoyomi 300",
                SearchLimits.byoyomi(1000, 2000, 300).goCommand(true));
        assertEquals(
                "go btime 1000 wtime 2000 binc 10 winc 20",
                SearchLimits.fischer(1000, 2000, 10, 20).goCommand(false));
        assertEquals(
                "go btime 2000 wtime 1000 binc 20 winc 10",
                SearchLimits.fischer(1000, 2000, 10, 20).goCommand(true));
        assertEquals("go movetime 250", SearchLimits.movetime(250).goCommand(true));
        assertEquals("go nodes 1", SearchLimits.nodes(1).goCommand(false));
        assertEquals("go depth 7", SearchLimits.depth(7).goCommand(false));
        assertEquals("go infinite", SearchLimits.infinite().goCommand(false));
        assertEquals(
                "go ponder btime 1 wtime 2 byoyomi 3",
                SearchLimits.byoyomi(1, 2, 3).pondering().goCommand(false));
        assertEquals(2300, SearchLimits.byoyomi(1000, 2000, 300).allowedMillis(Color.GOTE));
        // the increment comes after the move: the referee's clock allows the main time left (Clock)
        assertEquals(1000, SearchLimits.fischer(1000, 2000, 10, 20).allowedMillis(Color.SENTE));
        assertEquals(-1, SearchLimits.nodes(5).allowedMillis(Color.SENTE));
        // only a search with a time to keep reads the engine's CPU wait, which excuses overruns alone
        assertTrue(SearchLimits.byoyomi(0, 0, 100).timed());
        assertTrue(SearchLimits.fischer(1000, 1000, 10, 10).timed());
        assertTrue(SearchLimits.movetime(50).timed());
        assertFalse(SearchLimits.nodes(1).timed());
        assertFalse(SearchLimits.depth(3).timed());
        assertFalse(SearchLimits.infinite().timed());
        assertThrows(IllegalArgumentException.class, () -> SearchLimits.movetime(-1));
    }

    @Test
    void positionCommandsAreValidatedSoNothingCanBeInjected() {
        PositionCommand position = PositionCommand.of("rbsgk/4p/5/P4/KGSBR b - 1", "5d5c", "1b1c");
        assertEquals("position sfen rbsgk/4p/5/P4/KGSBR b - 1 moves 5d5c 1b1c", position.text());
        assertEquals(Color.SENTE, position.sideToMove());
        assertEquals(
                Color.GOTE,
                PositionCommand.of("rbsgk/4p/5/P4/KGSBR b - 1", "5d5c").sideToMove());
        assertEquals(
                "position sfen p+nks+l/5/5/5/+LSK+NP w - 1",
                PositionCommand.of("p+nks+l/5/5/5/+LSK+NP w - 1").text());
        assertThrows(IllegalArgumentException.class, () -> PositionCommand.of("rbsgk/4p/5/P4/KGSBR b - 1\nquit"));
        assertThrows(
                IllegalArgumentException.class, () -> PositionCommand.of("rbsgk/4p/5/P4/KGSBR b - 1", "5d5c quit"));
        assertThrows(IllegalArgumentException.class, () -> PositionCommand.of("rbsgk/4p/5/P4/KGSBR b - 1", ""));
        for (String notAMove : List.of("5d5", "5d5c+-+", "5d5c\n", "5d\t5c", "5d5\u00e9", "5d5c;")) {
            assertThrows(
                    IllegalArgumentException.class,
                    () -> PositionCommand.of("rbsgk/4p/5/P4/KGSBR b - 1", notAMove),
                    notAMove);
        }
        assertEquals(
                "position sfen rbsgk/4p/5/P4/KGSBR b - 1 moves G*3c 5d5c+ 4e3d-",
                PositionCommand.of("rbsgk/4p/5/P4/KGSBR b - 1", "G*3c", "5d5c+", "4e3d-")
                        .text());
    }
}
