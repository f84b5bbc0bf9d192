package dev.taikai.enginehost.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.taikai.enginehost.catalog.EngineSpec;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The refusal of an option the engine did not declare lists the options it has: the engine's own names,
 * which reached the console and taikai.log raw (escape sequences cleared the screen) and whole (an engine
 * declaring 5,000 options gave a 44 KB line).
 */
class OptionGateTest {
    private static final EngineSpec SPEC = EngineSpec.of("bad", List.of("/bin/true"));

    private static EngineOption option(String name) {
        return new EngineOption(name, "string", "x", null, null, List.of());
    }

    @Test
    void theEnginesOwnNamesAreShownWithoutControlCharactersAndNotAllOfAFlood() {
        EngineIdentity escaping =
                new EngineIdentity("bad", "", List.of(option("Hash"), option("\u001b[2J\u001b]0;pwn\u0007")), null, 0);
        String refusal = OptionGate.undeclared(SPEC, escaping, "Nope").orElseThrow();
        assertFalse(refusal.chars().anyMatch(Character::isISOControl), refusal);
        assertTrue(refusal.endsWith("(it has: Hash, \\u001b[2J\\u001b]0;pwn\\u0007)"), refusal);

        List<EngineOption> many = new ArrayList<>();
        for (int i = 0; i < 5000; i++) {
            many.add(option("Option " + i));
        }
        String flood = OptionGate.undeclared(SPEC, new EngineIdentity("bad", "", many, null, 0), "Nope")
                .orElseThrow();
        assertTrue(flood.endsWith(", Option " + (OptionGate.NAMES_SHOWN - 1) + " and 4960 more)"), flood);
        assertTrue(flood.length() < 1000, flood.length() + " characters");
        assertEquals(
                "option 'Nope' is not an option of engine 'bad' (it lists none)",
                OptionGate.undeclared(SPEC, new EngineIdentity("bad", "", List.of(), null, 0), "Nope")
                        .orElseThrow());
    }

    /** A whole number is written plainly: ' 5', '+5' and '012' passed the check as 5 and were sent as written. */
    @Test
    void aSpinValueIsAWholeNumberWrittenPlainly() {
        EngineIdentity identity = new EngineIdentity(
                "e", "", List.of(new EngineOption("Skill Level", "spin", "20", "-20", "20", List.of())), null, 0);
        for (String plain : List.of("5", "0", "-5", "20", "-20")) {
            assertTrue(
                    OptionGate.refusal(SPEC, identity, null, "Skill Level", plain)
                            .isEmpty(),
                    plain);
        }
        for (String loose : List.of(" 5", "+5", "012", "5 ", "-0x5", "21", "")) {
            String refusal = OptionGate.refusal(SPEC, identity, null, "Skill Level", loose)
                    .orElseThrow();
            assertTrue(refusal.contains("is not a whole number from -20 to 20"), loose + ": " + refusal);
        }
    }
}
