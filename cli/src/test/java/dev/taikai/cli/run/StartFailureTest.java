package dev.taikai.cli.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.taikai.enginehost.session.Timeouts;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * An engine that exits at once (a real program, /bin/true) forfeits its first games and then stops the
 * run with the reason (Ending.ABORTED: exit code 1), instead of losing every game of the run. An option
 * the engine does not list is a warning at its start, and with --strict a stop before any game.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class StartFailureTest {
    @Test
    void anEngineThatNeverStartsStopsTheRunAfterThreeGames(@TempDir Path dir) throws Exception {
        Tournaments.Run run = quitterMatch(dir, "-rounds", "10", "-concurrency", "1");
        assertEquals(LocalRunner.Ending.ABORTED, run.ending(), run.progress());
        assertTrue(
                run.progress().contains("stopped: engine 'quitter' did not start in its last 3 games ("),
                run.progress());
        assertEquals(3, Tournaments.journal(dir.resolve("out")).size(), "three forfeits, then nothing more");
    }

    /** A two-game match of an engine that never started used to end "finished", exit 0. */
    @Test
    void aMatchTooShortForThreeFailuresStopsWhenTheEngineStartedInNoGame(@TempDir Path dir) throws Exception {
        Tournaments.Run run = quitterMatch(dir, "-games", "2");
        assertEquals(LocalRunner.Ending.ABORTED, run.ending(), run.progress());
        assertTrue(
                run.progress().contains("stopped: engine 'quitter' did not start in any of its 2 games ("),
                run.progress());
        assertEquals(2, Tournaments.journal(dir.resolve("out")).size(), "both games are recorded");
        // every game was played: a resume would have nothing to play, and the run says so, not "resume"
        String stopped = "every game was played, so a resume has none left to play";
        assertTrue(run.progress().contains(stopped), run.progress());
        // run again, it used to say it "starts that engine again", then "nothing is left to play", exit 0
        Tournaments.Run again = quitterMatch(dir, "-games", "2");
        assertEquals(LocalRunner.Ending.ABORTED, again.ending(), again.progress());
        assertFalse(again.progress().contains("starts that engine again"), again.progress());
        assertTrue(
                again.progress()
                        .contains("nothing is left to play: this run ended before (engine 'quitter' did not start in"
                                + " any of its 2 games ("),
                again.progress());
        assertTrue(again.progress().contains(stopped), again.progress());
        assertEquals(2, Tournaments.journal(dir.resolve("out")).size(), again.progress());
    }

    /**
     * An XBoard engine without setboard, in a tournament with openings, cannot play any of its games: each
     * was forfeited "by disconnect", the start-failure stop never came (some games had a move), and the run
     * ended with exit 0 after hundreds of forfeits. The first such game stops it, as an engine that does
     * not offer the variant does.
     */
    @Test
    void anXBoardEngineThatCannotBeGivenTheOpeningsStopsTheRun(@TempDir Path dir) throws Exception {
        Path suite = Files.writeString(dir.resolve("suite.txt"), "startpos moves 5d5c 1b1c\nstartpos moves 4e4d\n");
        List<String> args = againstAFakeXBoardEngine("nosetboard", "--no-setboard");
        args.addAll(List.of(
                "-each", "st=0.1", "-games", "2", "-rounds", "5", "-concurrency", "1", "-openings", "file=" + suite));
        args.addAll(List.of("-out", dir.resolve("out").toString()));
        Tournaments.Run run = Tournaments.run(CutechessArguments.parse(args), Timeouts.DEFAULT);
        assertEquals(LocalRunner.Ending.ABORTED, run.ending(), run.progress());
        assertTrue(
                run.progress()
                        .contains("stopped: engine 'nosetboard' cannot be used: variant unsupported: the engine"
                                + " cannot be given a position (it has no feature setboard=1)"),
                run.progress());
        assertEquals(1, Tournaments.journal(dir.resolve("out")).size(), "the first game, then nothing more");
    }

    /** The driver's start warnings (here an XBoard engine that never says feature done=1) reach the run's output. */
    @Test
    void anEnginesStartWarningsAreSaidOnce(@TempDir Path dir) throws Exception {
        List<String> args = againstAFakeXBoardEngine("slowfeatures", "--no-usiok");
        args.addAll(List.of("-each", "st=0.05", "-games", "2", "-maxmoves", "6", "-concurrency", "1"));
        args.addAll(List.of("-out", dir.resolve("out").toString()));
        Tournaments.Run run = Tournaments.run(CutechessArguments.parse(args), Timeouts.DEFAULT);
        assertEquals(LocalRunner.Ending.FINISHED, run.ending(), run.progress());
        assertEquals(
                1,
                run.progress()
                        .lines()
                        .filter(line -> line.startsWith(
                                "warning: engine 'slowfeatures': the engine did not say feature done=1"))
                        .count(),
                run.progress());
    }

    /**
     * A run stopped by an engine that did not start stayed stopped: resumed after the engine was mended, it
     * counted the journal, stopped again at once and played nothing. Now the resumed run starts it again.
     */
    @Test
    void aRunStoppedByAnEngineThatDidNotStartGoesOnWhenResumed(@TempDir Path dir) throws Exception {
        Path mended = dir.resolve("mended");
        Path out = dir.resolve("out");
        List<String> flags = new java.util.ArrayList<>(List.of(
                "-variant",
                "minishogi",
                "-engine",
                "name=flaky",
                "cmd=/bin/sh",
                "arg=-c",
                "arg=[ -f '" + mended + "' ] || exit 1; exec \"$@\"",
                "arg=sh"));
        for (String word : dev.taikai.testkit.FakeEngines.command("--think-ms", "0")) {
            flags.add("arg=" + word);
        }
        flags.addAll(List.of(
                "-engine",
                "conf=taikai-1",
                "-each",
                "nodes=1",
                "-rounds",
                "3",
                "-maxmoves",
                "12",
                "-concurrency",
                "1",
                "-out",
                out.toString()));
        java.io.StringWriter progress = new java.io.StringWriter();
        LocalRunner.Ending stopped = new LocalRunner(
                        CutechessArguments.parse(flags),
                        new java.io.PrintWriter(new java.io.StringWriter()),
                        new java.io.PrintWriter(progress),
                        Timeouts.DEFAULT)
                .recording(Invocation.here(flags))
                .run();
        assertEquals(LocalRunner.Ending.ABORTED, stopped, progress.toString());
        assertTrue(
                progress.toString().contains("once that is mended, resume with ./taikai run --resume " + out),
                progress.toString());
        Files.createFile(mended);
        Tournaments.Run resumed = Tournaments.run(CutechessArguments.parse(flags), Timeouts.DEFAULT);
        assertEquals(LocalRunner.Ending.FINISHED, resumed.ending(), resumed.progress());
        assertTrue(
                resumed.progress()
                        .contains("this run stopped before: engine 'flaky' did not start in its last 3" + " games ("),
                resumed.progress());
        assertEquals(6, Tournaments.journal(out).size(), "the three forfeits and three games played");
    }

    @Test
    void anOptionTheEngineDoesNotListIsAWarningAndWithStrictAStop(@TempDir Path dir) throws Exception {
        List<String> flags = List.of(
                "-variant",
                "minishogi",
                "-engine",
                "conf=taikai-1",
                "name=misspelt",
                "option.Skil Level=3",
                "-engine",
                "conf=taikai-1",
                "-each",
                "depth=1",
                "-concurrency",
                "1",
                "-out");
        RunPlan lenient =
                CutechessArguments.parse(concat(flags, dir.resolve("lenient").toString()));
        Tournaments.Run played = Tournaments.run(lenient, Timeouts.DEFAULT);
        assertEquals(LocalRunner.Ending.FINISHED, played.ending(), played.progress());
        String warning =
                "warning: engine 'misspelt': option 'Skil Level' is not an option of engine 'misspelt' (it lists"
                        + " none); not sent (--strict: stop instead)";
        assertEquals(
                1, played.progress().split(java.util.regex.Pattern.quote(warning), -1).length - 1, played.progress());
        assertEquals(2, Tournaments.journal(dir.resolve("lenient")).size(), "both games played without it");

        RunPlan strict =
                CutechessArguments.parse(concat(flags, dir.resolve("strict").toString()));
        Tournaments.Run stopped = Tournaments.run(strict, Timeouts.DEFAULT, true);
        assertEquals(LocalRunner.Ending.ABORTED, stopped.ending(), stopped.progress());
        assertTrue(
                stopped.progress()
                        .contains("engine 'misspelt' cannot be used: start failed: option 'Skil Level' is not an"
                                + " option of engine 'misspelt' (it lists none)"),
                stopped.progress());
        assertEquals(0, Tournaments.journal(dir.resolve("strict")).size(), "no game played");
    }

    private static List<String> concat(List<String> flags, String last) {
        List<String> all = new java.util.ArrayList<>(flags);
        all.add(last);
        return all;
    }

    /** A match of 'quitter', a program that exits at once, against the built-in engine, into dir/out. */
    private static Tournaments.Run quitterMatch(Path dir, String... settings) throws Exception {
        Path trueCommand = Files.exists(Path.of("/usr/bin/true")) ? Path.of("/usr/bin/true") : Path.of("/bin/true");
        List<String> args = new java.util.ArrayList<>(List.of(
                "-variant",
                "minishogi",
                "-engine",
                "name=quitter",
                "cmd=" + trueCommand,
                "-engine",
                "conf=taikai-1",
                "-each",
                "st=0.1",
                "-out",
                dir.resolve("out").toString()));
        args.addAll(List.of(settings));
        return Tournaments.run(CutechessArguments.parse(args), Timeouts.DEFAULT);
    }

    /** The arguments of a match of the built-in engine against the fake XBoard engine {@code name} with {@code switches}. */
    private static List<String> againstAFakeXBoardEngine(String name, String... switches) {
        List<String> args = new java.util.ArrayList<>(List.of(
                "-variant", "minishogi", "-engine", "conf=taikai-1", "-engine", "name=" + name, "proto=xboard"));
        List<String> fake = new java.util.ArrayList<>(List.of("--xboard"));
        fake.addAll(List.of(switches));
        List<String> command = dev.taikai.testkit.FakeEngines.command(fake.toArray(String[]::new));
        args.add("cmd=" + command.get(0));
        command.subList(1, command.size()).forEach(word -> args.add("arg=" + word));
        return args;
    }
}
