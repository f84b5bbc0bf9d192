package dev.taikai.cli.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.taikai.enginehost.session.Timeouts;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A league on one machine: rounds paired as the last ones end, an engine joining and one leaving on
 * schedule, the league's ratings, history and crosstable in the report and results.json; a run stopped
 * part-way resumes to the same games as one that was not.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class LocalLeagueTest {
    private static String league(String output) {
        return "name: local league\nvariant: minishogi\nformat: league\nrounds: 3\ngames: 2\n"
                + "time-control: nodes 1\nconcurrency: 2\nadjudication: {move-limit: 40}\noutput: " + output
                + "\nengines:\n"
                + Tournaments.fakeEntry("a", "--seed", "1", "--think-ms", "2")
                + Tournaments.fakeEntry("b", "--seed", "2", "--think-ms", "2")
                + Tournaments.fakeEntry("c", "--seed", "3", "--think-ms", "2") + "    until-round: 2\n"
                + Tournaments.fakeEntry("d", "--seed", "4", "--think-ms", "2") + "    from-round: 2\n";
    }

    /**
     * A league whose pool falls below two engines, with none to join: announced as 3 rounds, it ended after
     * round 1 without a word of why, and a rerun played nothing and said nothing.
     */
    @Test
    void aLeagueLeftWithOneEngineEndsAndSaysWhy(@TempDir Path dir) throws Exception {
        Files.writeString(
                dir.resolve("short.yaml"),
                "name: short\nvariant: minishogi\nformat: league\nrounds: 3\ngames: 2\ntime-control: nodes 1\n"
                        + "adjudication: {move-limit: 12}\noutput: short\nengines:\n"
                        + Tournaments.fakeEntry("a", "--seed", "1") + "    until-round: 1\n"
                        + Tournaments.fakeEntry("b", "--seed", "2"));
        String why = "the league ended after round 1 of 3: fewer than two engines are left in its pool (b)";
        Tournaments.Run first = Tournaments.run(TournamentFile.read(dir.resolve("short.yaml")), Timeouts.DEFAULT);
        assertEquals(LocalRunner.Ending.FINISHED, first.ending(), first.progress());
        assertTrue(first.progress().contains(why), first.progress());
        assertTrue(
                Files.readString(dir.resolve("short").resolve("taikai.log")).contains("finished: " + why),
                "the run's log says why too");
        assertTrue(first.out().contains("League ratings after 1 round "), "not '1 rounds': " + first.out());
        Tournaments.Run again = Tournaments.run(TournamentFile.read(dir.resolve("short.yaml")), Timeouts.DEFAULT);
        assertTrue(
                again.progress().contains("nothing is left to play: this run ended before (" + why + ")"),
                again.progress());
        assertEquals(2, Tournaments.journal(dir.resolve("short")).size());
    }

    /**
     * A round with fewer than two engines in the pool, when engines join later, passes without games and
     * says so: the league stopped after round 1 of 3, exit 0 and without a word, and the engine joining in
     * round 3 never played.
     */
    @Test
    void aRoundWithTooFewEnginesPassesAndTheLeagueGoesOnToItsJoins(@TempDir Path dir) throws Exception {
        Files.writeString(
                dir.resolve("gap.yaml"),
                "name: gap\nvariant: minishogi\nformat: league\nrounds: 3\ngames: 2\ntime-control: nodes 1\n"
                        + "adjudication: {move-limit: 12}\noutput: gap\nengines:\n"
                        + Tournaments.fakeEntry("a", "--seed", "1") + "    until-round: 1\n"
                        + Tournaments.fakeEntry("b", "--seed", "2")
                        + Tournaments.fakeEntry("c", "--seed", "3") + "    from-round: 3\n");
        String passed =
                "league: round 2 passes without games: fewer than two engines are in the pool (b); more join later";
        Tournaments.Run run = Tournaments.run(TournamentFile.read(dir.resolve("gap.yaml")), Timeouts.DEFAULT);
        assertEquals(LocalRunner.Ending.FINISHED, run.ending(), run.progress());
        assertEquals(1, run.progress().lines().filter(passed::equals).count(), run.progress());
        assertTrue(Files.readString(dir.resolve("gap").resolve("taikai.log")).contains(passed), "in the log too");
        assertTrue(run.progress().contains("[4/4] l3-p1-g2 "), "rounds 1 and 3, 2 games each: " + run.progress());
        assertTrue(run.out().contains("League ratings after 3 rounds "), run.out());
        Tournaments.Run again = Tournaments.run(TournamentFile.read(dir.resolve("gap.yaml")), Timeouts.DEFAULT);
        assertTrue(again.progress().contains("nothing is left to play"), again.progress());
        assertTrue(!again.progress().contains(passed), "said by the run that passed it: " + again.progress());
    }

    /**
     * An engine that never starts is taken out of a league's pool: the final table alone said so (a league
     * without an end has none until stopped), and its forfeits had no "Started game" line, so the start
     * lines' numbers ran behind the results'.
     */
    @Test
    void anEngineTakenOutOfTheLeagueIsSaidSoAndEveryGameIsNumbered(@TempDir Path dir) throws Exception {
        Path trueCommand = Files.exists(Path.of("/usr/bin/true")) ? Path.of("/usr/bin/true") : Path.of("/bin/true");
        Files.writeString(
                dir.resolve("broken.yaml"),
                "name: broken\nvariant: minishogi\nformat: league\nrounds: 4\ngames: 2\ntime-control: nodes 1\n"
                        + "concurrency: 1\nadjudication: {move-limit: 12}\noutput: broken\nengines:\n"
                        + Tournaments.fakeEntry("a", "--seed", "1")
                        + Tournaments.fakeEntry("b", "--seed", "2")
                        + "  - {id: broken, command: " + trueCommand + "}\n");
        Tournaments.Run run = Tournaments.run(TournamentFile.read(dir.resolve("broken.yaml")), Timeouts.DEFAULT);
        String out = "league: engine 'broken' is taken out of the pool: ";
        assertEquals(1, run.progress().lines().filter(l -> l.startsWith(out)).count(), run.progress());
        assertTrue(Files.readString(dir.resolve("broken").resolve("taikai.log")).contains(out), "in the log too");
        int games = Tournaments.journal(dir.resolve("broken")).size();
        assertTrue(
                run.progress().contains("Started game " + games + " "),
                "the last game is numbered as its result is: " + run.progress());
    }

    @Test
    void aLeagueRunsOnOneMachineAndResumesToTheSameGames(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("whole.yaml"), league("whole"));
        Tournaments.Run whole = Tournaments.run(TournamentFile.read(dir.resolve("whole.yaml")), Timeouts.DEFAULT);
        assertEquals(LocalRunner.Ending.FINISHED, whole.ending(), whole.progress());
        assertTrue(whole.progress().contains("local league: minishogi league, 4 engines, 3 rounds"), whole.progress());
        assertTrue(whole.out().contains("League ratings after 3 rounds"), whole.out());
        assertTrue(whole.out().contains("Rating history"), whole.out());
        assertTrue(whole.out().contains("Crosstable"), whole.out());
        JsonNode results = Tournaments.results(dir.resolve("whole"));
        Set<String> games = games(results);
        // round 1: a, b, c (one sits out); round 2: all four; round 3: a, b, d (c left after round 2)
        assertEquals(8, games.size(), games.toString());
        for (String game : games) {
            String[] parts = game.split(" ");
            List<String> players = List.of(parts[1].split("-"));
            assertTrue(!parts[0].startsWith("l1-") || !players.contains("d"), "d joins for round 2: " + game);
            assertTrue(!parts[0].startsWith("l3-") || !players.contains("c"), "c left after round 2: " + game);
        }
        // each engine's rounds, as the file gave them: the ratings' 'active' was their only trace
        JsonNode engines = results.get("tournament").get("engines");
        assertEquals(2, engines.get(2).get("until_round").asInt(), engines.toString());
        assertEquals(2, engines.get(3).get("from_round").asInt(), engines.toString());
        assertTrue(!engines.get(0).has("from_round") && !engines.get(3).has("until_round"), engines.toString());
        JsonNode league = results.get("league");
        assertEquals(3, league.get("rounds").asInt());
        assertEquals(4, league.get("ratings").size());
        for (JsonNode rating : league.get("ratings")) {
            assertEquals(
                    !rating.get("engine").asText().equals("c"),
                    rating.get("active").asBoolean(),
                    rating.toString());
        }
        assertTrue(league.get("history").get("a").size() >= 2, league.toString());

        // stopped after its first three games: the journal then holds only those
        Path part = dir.resolve("part");
        Files.createDirectories(part);
        Files.copy(dir.resolve("whole/tournament.txt"), part.resolve("tournament.txt"));
        List<String> journal = Tournaments.journal(dir.resolve("whole"));
        Files.write(part.resolve("games.jsonl"), journal.subList(0, 3));
        Files.writeString(dir.resolve("part.yaml"), league("part"));
        Tournaments.Run resumed = Tournaments.run(TournamentFile.read(dir.resolve("part.yaml")), Timeouts.DEFAULT);
        assertEquals(LocalRunner.Ending.FINISHED, resumed.ending(), resumed.progress());
        assertTrue(resumed.progress().contains("3 already played (resuming)"), resumed.progress());
        assertEquals(games, games(Tournaments.results(part)), "the same rounds, games and results");
    }

    /** Each game as "id sente-gote result". */
    private static Set<String> games(JsonNode results) {
        Set<String> games = new TreeSet<>();
        for (JsonNode game : results.get("games")) {
            games.add(game.get("id").asText() + " " + game.get("sente").asText() + "-"
                    + game.get("gote").asText() + " " + game.get("result").asText());
        }
        return games;
    }
}
