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

    /**
     * The total in the live lines is the games the run will have played: a knockout's grows with its
     * tiebreaks as they are paired (these engines at depth 1 tie their final), a league's counts the engines of
     * each round. The count never passes it, the ETA never runs below zero, and the last line is k/k.
     */
    @Test
    void theTotalIsTheGamesTheRunPlays(@TempDir Path dir) throws Exception {
        RunPlan knockout = CutechessArguments.parse(List.of(
                ("-variant minishogi -engine conf=taikai-1 name=a -engine conf=taikai-2 name=b -engine conf=taikai-3"
                                + " name=c -each depth=1 -tournament knockout -concurrency 1 -out ")
                        .concat(dir.resolve("ko").toString())
                        .split(" ")));
        assertTotalsHold(Tournaments.run(knockout, Timeouts.DEFAULT).progress(), dir.resolve("ko"));
        var results = Tournaments.results(dir.resolve("ko"));
        int lastRound = 0;
        for (var game : results.get("games")) {
            lastRound = Math.max(lastRound, game.get("round").asInt());
        }
        assertEquals(2, lastRound, "three engines: a bye and a semifinal, then the final");
        assertEquals(lastRound, results.get("tournament").get("rounds").asInt(), "the bracket's rounds");

        java.nio.file.Files.writeString(
                dir.resolve("league.yaml"),
                String.join(
                        "\n",
                        "variant: minishogi",
                        "format: league",
                        "rounds: 4",
                        "games: 2",
                        "time-control: depth 1",
                        "concurrency: 1",
                        "output: league",
                        "engines:",
                        "  - taikai-1",
                        "  - taikai-2",
                        "  - {engine: taikai-3, until-round: 2}",
                        "  - {engine: taikai-4, from-round: 3}",
                        ""));
        String league = Tournaments.run(TournamentFile.read(dir.resolve("league.yaml")), Timeouts.DEFAULT)
                .progress();
        assertTotalsHold(league, dir.resolve("league"));
        assertTrue(league.contains("[8/8] "), "three engines a round, one pairing of two games, 4 rounds: " + league);
    }

    private static void assertTotalsHold(String progress, Path records) throws Exception {
        var ended = Pattern.compile("(?m)^\\[(\\d+)/(\\d+)\\] .*ETA (-?)").matcher(progress);
        int last = 0;
        int lastTotal = 0;
        while (ended.find()) {
            // only the last game's line may reach its total: a knockout's total once caught up with the
            // games begun only, and said [8/8], ETA 0, with a tiebreak and the final still to play
            assertTrue(last < lastTotal || last == 0, "a total reached before the last game: " + progress);
            last = Integer.parseInt(ended.group(1));
            lastTotal = Integer.parseInt(ended.group(2));
            assertTrue(last <= lastTotal, "a count past its total: " + ended.group());
            assertEquals("", ended.group(3), "a negative ETA: " + ended.group());
        }
        var started = Pattern.compile("(?m)^Started game (\\d+) of (\\d+) ").matcher(progress);
        while (started.find()) {
            assertTrue(
                    Integer.parseInt(started.group(1)) <= Integer.parseInt(started.group(2)),
                    "a game started past the total: " + started.group());
        }
        assertEquals(Tournaments.journal(records).size(), last, progress);
        assertEquals(last, lastTotal, "the last line is k/k: " + progress);
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
