package dev.taikai.cli.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.taikai.enginehost.config.ConfigException;
import dev.taikai.enginehost.session.Timeouts;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a run says while it plays, as cutechess-cli users expect: a line as each game starts and as it
 * ends, an SPRT run's with its LLR and bounds, and with {@code -ratinginterval N} the standings every N
 * games.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ProgressLinesTest {
    @Test
    void gamesStartAndEndWithTheLlrAndTheStandingsEveryNGames(@TempDir Path dir) throws Exception {
        RunPlan plan = CutechessArguments.parse(List.of(
                "-variant minishogi -engine conf=taikai-1 -engine conf=taikai-2 -each depth=1 -rounds 3 -concurrency 1"
                        .concat(" -sprt elo0=0 elo1=400 -ratinginterval 2 -out ")
                        .concat(dir.resolve("out").toString())
                        .split(" ")));
        Tournaments.Run run = Tournaments.run(plan, Timeouts.DEFAULT);
        String progress = run.progress();
        assertTrue(progress.contains("Started game 1 of 6 (r1-p1-g1: taikai-1 vs taikai-2)"), progress);
        assertTrue(progress.contains("Started game 2 of 6 (r1-p1-g2: taikai-2 vs taikai-1)"), progress);
        long ended =
                count(progress, Pattern.compile("(?m)^\\[\\d+/6\\] .* LLR -?\\d+\\.\\d\\d \\(-2\\.94, 2\\.94\\)$"));
        long started = count(progress, Pattern.compile("(?m)^Started game \\d+ of 6 "));
        long games = Tournaments.journal(dir.resolve("out")).size();
        assertEquals(games, ended, progress);
        assertEquals(games, started, progress);
        assertEquals(
                java.util.stream.IntStream.rangeClosed(1, (int) games)
                        .filter(k -> k % 2 == 0 && k < 6)
                        .count(),
                count(progress, Pattern.compile("(?m)^Standings of taikai ")),
                "every 2 games but the last, which the report shows: " + progress);
        assertEquals(1, count(run.out(), Pattern.compile("(?m)^Standings of taikai ")), run.out());
    }

    @Test
    void aRatingIntervalIsANumberOfGames() {
        for (String bad : List.of("-1", "often")) {
            ConfigException e = org.junit.jupiter.api.Assertions.assertThrows(
                    ConfigException.class,
                    () -> CutechessArguments.parse(List.of(
                            "-variant",
                            "minishogi",
                            "-engine",
                            "conf=taikai-1",
                            "-engine",
                            "conf=taikai-2",
                            "-ratinginterval",
                            bad)));
            assertTrue(e.getMessage().startsWith("-ratinginterval "), e.getMessage());
        }
    }

    private static long count(String text, Pattern pattern) {
        return pattern.matcher(text).results().count();
    }
}
