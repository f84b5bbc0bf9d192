package dev.taikai.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** make-openings refuses numbers out of range before it starts an engine (--count -3 was a Java exception). */
class MakeOpeningsCommandTest {
    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "--count -3 | --count is 1 to 1000000, not -3",
                "--count 0 | --count is 1 to 1000000, not 0",
                "--plies 0 | --plies is 1 to 12, not 0",
                "--max-cp -5 | --max-cp is 0 to 100000, not -5",
                "--depth 0 | --depth is 1 to 1000, not 0",
            })
    void numbersOutOfRangeAreUsageErrors(String option, String message) {
        String[] words = option.split(" ");
        CliRun run = CliRun.of("make-openings", "--variant", "minishogi", words[0], words[1]);
        assertEquals(2, run.exitCode(), run.err());
        assertTrue(run.err().contains(message), run.err());
        assertFalse(run.err().contains("Exception"), run.err());
        assertEquals("", run.out());
    }

    /** An engine that cannot start is the engine's failure, exit 1 as in run and engine-check (it was 2, bad usage). */
    @org.junit.jupiter.api.Test
    void anEngineThatCannotStartIsExitCodeOne() {
        CliRun run = CliRun.of("make-openings", "--variant", "minishogi", "--engine", "/nonexistent/engine");
        assertEquals(1, run.exitCode(), run.err());
        assertTrue(run.err().contains("engine program /nonexistent/engine does not exist"), run.err());
        assertFalse(run.err().contains("Exception"), run.err());
        assertEquals("", run.out());
    }

    /**
     * An engine that fails during the evaluations: the command printed a suite of the positions scored
     * before, whose header said every position had been evaluated, and exited 0.
     */
    @org.junit.jupiter.api.Test
    void anEngineThatFailsStopsItWithNoSuite() {
        String engine = String.join(" ", dev.taikai.testkit.FakeEngines.command("--crash-after", "4"));
        CliRun run = CliRun.of(
                "make-openings", "--variant", "minishogi", "--plies", "1", "--depth", "1", "--engine", engine);
        assertEquals(1, run.exitCode(), run.err());
        assertTrue(run.err().contains("the engine failed at position 5 of 13 (startpos moves "), run.err());
        assertTrue(run.err().contains("; no suite was written"), run.err());
        assertEquals("", run.out(), "no suite: " + run.out());
        assertFalse(run.err().contains("Exception"), run.err());
    }
}
