package dev.taikai.cli.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.taikai.enginehost.session.Timeouts;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The first games of all slots begin together once every slot has started its engines. A slot that gets
 * no game (more slots than games on hand: a short match, the last games of a resumed run, a round of a
 * Swiss) has no engines to start and must not hold the others: it did for the barrier's full minute.
 */
class StartBarrierTest {
    /** The barrier's bound (60 s) is what the games waited; two depth-1 games take a second or two. */
    private static final Duration WELL_UNDER_THE_BARRIER = Duration.ofSeconds(40);

    @Test
    void slotsWithoutAGameDoNotHoldTheFirstGames(@TempDir Path dir) throws Exception {
        RunPlan plan = CutechessArguments.parse(List.of(
                "-variant minishogi -engine conf=taikai-1 -engine conf=taikai-2 -each depth=1 -rounds 1 -concurrency 4"
                        .concat(" -out ")
                        .concat(dir.resolve("out").toString())
                        .split(" ")));
        Tournaments.Run run = assertTimeoutPreemptively(
                WELL_UNDER_THE_BARRIER,
                () -> Tournaments.run(plan, Timeouts.DEFAULT),
                "the games waited for idle slots");
        assertEquals(LocalRunner.Ending.FINISHED, run.ending(), run.progress());
    }

    @Test
    void everyRoundOfASwissStartsWithoutWaitingForIdleSlots(@TempDir Path dir) throws Exception {
        // three engines: a round has one game and a bye, and two of the three slots have nothing to play
        RunPlan plan = CutechessArguments.parse(List.of(
                ("-variant minishogi -engine conf=taikai-1 -engine conf=taikai-2 -engine conf=taikai-3 -each depth=1"
                                + " -tournament swiss -rounds 2 -concurrency 3 -out ")
                        .concat(dir.resolve("out").toString())
                        .split(" ")));
        Tournaments.Run run = assertTimeoutPreemptively(
                WELL_UNDER_THE_BARRIER, () -> Tournaments.run(plan, Timeouts.DEFAULT), "a round waited for idle slots");
        assertEquals(LocalRunner.Ending.FINISHED, run.ending(), run.progress());
    }
}
