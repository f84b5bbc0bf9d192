package dev.taikai.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.taikai.testkit.FakeEngines;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

@Timeout(value = 60, unit = TimeUnit.SECONDS)
class EngineCheckCommandTest {
    /** The fake engine's command line, each word quoted as the --engine option expects. */
    private static String fakeCommand(String... switches) {
        return FakeEngines.command(switches).stream().map(w -> "'" + w + "'").collect(Collectors.joining(" "));
    }

    @Test
    void aCompliantEnginePassesWithExitCodeZero() {
        CliRun run = CliRun.of("engine-check", "--engine", fakeCommand(), "--variant", "kyotoshogi");
        assertEquals(0, run.exitCode(), run.out() + run.err());
        List<String> lines = run.outLines();
        assertTrue(lines.get(0).startsWith("Engine check of java ("), lines.get(0));
        assertTrue(lines.stream().anyMatch(l -> l.startsWith("PASS  go byoyomi")), run.out());
        assertTrue(lines.stream().anyMatch(l -> l.startsWith("      handshake time: ")), run.out());
        assertEquals("Result: PASS", lines.get(lines.size() - 1));
    }

    /**
     * Ctrl-C during a check: the engine died with the JVM, but what it had started (here a sleep) was left
     * running. Every engine's processes are killed as the JVM exits, whatever command hosts it.
     */
    @Test
    void ctrlCDuringACheckLeavesNothingTheEngineStarted() throws Exception {
        Process check = new ProcessBuilder(
                        java.nio.file.Path.of(System.getProperty("java.home"), "bin", "java")
                                .toString(),
                        "-cp",
                        System.getProperty("java.class.path"),
                        "dev.taikai.cli.Taikai",
                        "engine-check",
                        "--engine",
                        fakeCommand("--spawn-child", "--think-ms", "3000"),
                        "--variant",
                        "minishogi")
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .start();
        try {
            java.util.concurrent.atomic.AtomicReference<ProcessHandle> child =
                    new java.util.concurrent.atomic.AtomicReference<>();
            dev.taikai.testkit.Await.until(java.time.Duration.ofSeconds(30), "the engine's child", () -> {
                check.descendants()
                        .filter(p -> p.info().commandLine().orElse("").contains("sleep 600"))
                        .findAny()
                        .ifPresent(child::set);
                return child.get() != null;
            });
            new ProcessBuilder("kill", "-INT", Long.toString(check.pid()))
                    .start()
                    .waitFor();
            assertTrue(check.waitFor(30, TimeUnit.SECONDS), "ended");
            assertEquals(130, check.exitValue());
            dev.taikai.testkit.Await.until(
                    java.time.Duration.ofSeconds(10),
                    "the engine's child gone",
                    () -> !child.get().isAlive());
        } finally {
            check.descendants().forEach(ProcessHandle::destroyForcibly);
            check.destroyForcibly();
        }
    }

    @Test
    void theBuiltInEnginesAreCheckedByTheirIds() {
        CliRun run = CliRun.of("engine-check", "--engine", "taikai-1", "--variant", "minishogi");
        assertEquals(0, run.exitCode(), run.out() + run.err());
        assertTrue(run.outLines().get(0).startsWith("Engine check of taikai-1 ("), run.out());
        assertTrue(run.outLines().get(run.outLines().size() - 1).startsWith("Result: PASS"), run.out());
        // 'go infinite' ends at stop: a search that had ended sent its move before (-177.0 ms "after stop")
        assertTrue(run.out().contains("ms after stop"), run.out());
    }

    @Test
    void aFailingEngineGivesExitCodeOne() {
        CliRun run = CliRun.of("engine-check", "--engine", fakeCommand("--no-variant"), "--variant", "minishogi");
        assertEquals(1, run.exitCode());
        assertTrue(run.out().contains("FAIL  variant"), run.out());
        assertTrue(run.out().trim().endsWith("Result: FAIL (1 required check failed)"), run.out());
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "engine-check --engine x --variant chess | unknown variant 'chess'",
                "engine-check --variant minishogi | Missing required option: '--engine=ID|COMMAND'",
                "engine-check --engine x --variant minishogi --quirk fast | unknown quirk 'fast'; known: swapped-clocks",
                "engine-check --engine x --variant minishogi --option Hash | --option needs NAME=VALUE, not 'Hash'",
                "engine-check --engine crazywa --variant minishogi --quirk swapped-clocks | --quirk is a USI setting; engine 'crazywa' speaks XBoard",
                "engine-check --engine x --variant minishogi --catalog /no/such.yaml | cannot read engine catalog /no/such.yaml: it does not exist",
            })
    void badUsageIsExitCodeTwo(String commandLine, String message) {
        CliRun run = CliRun.of(commandLine.split(" "));
        assertEquals(2, run.exitCode(), run.err());
        assertTrue(run.err().contains(message), run.err());
        assertFalse(run.err().contains("Exception"), run.err());
    }

    /** An option the catalog would refuse is bad usage here too; it was a Java exception and exit 1. */
    @Test
    void anOptionTheCatalogWouldRefuseIsBadUsage() {
        for (String option : List.of("Hash value=5", "Hash=" + "x".repeat(300), "Hash=1\nquit")) {
            CliRun run = CliRun.of(
                    "engine-check", "--engine", "fairy-stockfish", "--variant", "minishogi", "--option", option);
            assertEquals(2, run.exitCode(), run.err());
            assertFalse(run.err().contains("Exception"), run.err());
            assertTrue(
                    run.err().startsWith("taikai engine-check: ")
                            && run.err().lines().count() == 1,
                    run.err());
        }
    }

    @Test
    void aProgramThatDoesNotExistIsAFailedCheckNotACrash() {
        CliRun run = CliRun.of("engine-check", "--engine", "/no/such/engine", "--variant", "minishogi");
        assertEquals(1, run.exitCode());
        assertTrue(
                run.out()
                        .contains(
                                "FAIL  handshake                start failed: cannot start engine 'engine': engine program /no/such/engine does not exist"),
                run.out());
    }
}
