package dev.taikai.enginehost.catalog;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The one check of text that reaches an engine's pipe or a record. */
class EngineTextTest {
    private static final List<String> NOT_ONE_LINE = List.of(
            "a\nsetoption name Skill Level value 0",
            "a\rb",
            "a\u0000b",
            "a\u001bb",
            "a\u007fb",
            "a\u0085b",
            "a\u2028b",
            "a\u2029b",
            "a\ud800b",
            "a\udc00",
            "a\ud800");

    @Test
    void optionValuesAreOneLineOfPrintableText() {
        for (String bad : NOT_ONE_LINE) {
            IllegalArgumentException e = assertThrows(
                    IllegalArgumentException.class,
                    () -> EngineText.options("entrants[1].options", Map.of("Debug Log File", bad)),
                    bad);
            assertTrue(e.getMessage().startsWith("entrants[1].options['Debug Log File'] holds a"), e.getMessage());
            assertTrue(e.getMessage().endsWith("it must be one line of printable text"), e.getMessage());
            assertFalse(e.getMessage().contains("\n") || e.getMessage().contains("\r"), "the message is one line");
        }
        assertEquals(
                "entrants[1].options['Debug Log File'] holds a control character (U+000A at 1): it must be one line"
                        + " of printable text",
                assertThrows(
                                IllegalArgumentException.class,
                                () -> EngineText.options("entrants[1].options", Map.of("Debug Log File", "a\nb")))
                        .getMessage());
    }

    @Test
    void optionNamesAreCheckedAsStrictlyAndCannotRewriteTheLine() {
        for (String bad : NOT_ONE_LINE) {
            assertThrows(IllegalArgumentException.class, () -> EngineText.option("o", bad, "1"), bad);
        }
        assertMessage(
                "o['Hash value 5'] name holds the word 'value', which would end the name in the setoption line",
                "Hash value 5",
                "1");
        assertMessage("o[' Hash'] name starts or ends with a space", " Hash", "1");
        assertMessage("o: an option needs a name", "", "1");
        assertMessage(
                "o['UCI_Variant']: the variant is set by Taikai from the tournament's variant", "UCI_Variant", "chess");
        assertMessage(
                "o['USI_Variant']: the variant is set by Taikai from the tournament's variant", "USI_Variant", "x");
    }

    @Test
    void lengthsAndCountsAreBounded() {
        assertMessage("o['Hash'] is 257 characters long; at most 256", "Hash", "x".repeat(257));
        EngineText.option("o", "Hash", "x".repeat(256));
        String longName = "N".repeat(101);
        assertMessage("o['" + "N".repeat(60) + "...'] name is 101 characters long; at most 100", longName, "1");
        Map<String, String> many = new LinkedHashMap<>();
        for (int i = 0; i < 65; i++) {
            many.put("Option" + i, "1");
        }
        assertEquals(
                "o has 65 options; at most 64",
                assertThrows(IllegalArgumentException.class, () -> EngineText.options("o", many))
                        .getMessage());
    }

    @Test
    void ordinaryTextPasses() {
        Map<String, String> options =
                Map.of("Skill Level", "5", "Move Overhead", "", "Name", "Ünïcödé 将棋 \ud83c\udf38");
        assertEquals(options, EngineText.options("o", options));
        assertEquals("fsf-skill_5.x", EngineText.engineId("id", "fsf-skill_5.x"));
        assertEquals("Fairy Stockfish (skill 5)", EngineText.name("name", "Fairy Stockfish (skill 5)"));
    }

    @Test
    void idsAreCatalogNamesAndNamesAreShortLines() {
        for (String bad : List.of("/bin/sh -c id", "a b", "", "-x", "x".repeat(65), "a\nb")) {
            IllegalArgumentException e = assertThrows(
                    IllegalArgumentException.class, () -> EngineText.engineId("entrants[0].engine_id", bad));
            assertTrue(e.getMessage().startsWith("entrants[0].engine_id '"), e.getMessage());
            assertFalse(e.getMessage().contains("\n"), e.getMessage());
        }
        assertThrows(IllegalArgumentException.class, () -> EngineText.name("name", "x".repeat(65)));
        assertThrows(IllegalArgumentException.class, () -> EngineText.name("name", "  "));
        assertThrows(IllegalArgumentException.class, () -> EngineText.name("name", "a\tb"));
    }

    @Test
    void fileOptionsAreKnownByTheirNames() {
        for (String name :
                List.of("Debug Log File", "EvalFile", "BookFile", "SyzygyPath", "NNUE dir", "Book Folder", "LogFile")) {
            assertTrue(EngineText.namesAFile(name), name);
        }
        for (String name : List.of("Skill Level", "Hash", "Threads", "USI_Ponder", "Move Overhead", "OwnBook")) {
            assertFalse(EngineText.namesAFile(name), name);
        }
    }

    @Test
    void anEngineSpecCannotHoldWhatAnEngineMustNotReceive() {
        EngineSpec spec = EngineSpec.of("fake", List.of("fake"));
        IllegalArgumentException e =
                assertThrows(IllegalArgumentException.class, () -> spec.withOptions(Map.of("Skill Level", "1\nquit")));
        assertTrue(
                e.getMessage().startsWith("engine 'fake' options['Skill Level'] holds a control character"),
                e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> spec.withOptionsOver(Map.of("Hash\r", "1")));
        assertThrows(IllegalArgumentException.class, () -> spec.withId("two\nlines"));
    }

    private static void assertMessage(String message, String name, String value) {
        assertEquals(
                message,
                assertThrows(IllegalArgumentException.class, () -> EngineText.option("o", name, value))
                        .getMessage());
    }
}
