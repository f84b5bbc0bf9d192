package dev.taikai.cli.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.taikai.enginehost.session.Timeouts;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** A run killed with SIGKILL in the middle resumes: only unfinished games are played, none counted twice. */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class ResumeTest {
    @Test
    void resumeAfterKillDashNine(@TempDir Path dir) throws Exception {
        String marker = "resume-" + UUID.randomUUID();
        Files.writeString(
                dir.resolve("match.yaml"),
                "name: resume\nvariant: kyotoshogi\nrounds: 10\ngames: 2\n"
                        + "time-control: nodes 1\nconcurrency: 1\noutput: out\nadjudication: {move-limit: 40}\nengines:\n"
                        + Tournaments.fakeEntry("alpha", "--think-ms", "10", "--name", marker, "--seed", "3")
                        + Tournaments.fakeEntry("beta", "--think-ms", "10", "--name", marker, "--seed", "4"));
        Path out = dir.resolve("out");

        Process first = new ProcessBuilder(javaCommand(dir.resolve("match.yaml")))
                .redirectErrorStream(true)
                .redirectOutput(dir.resolve("first.log").toFile())
                .start();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        while (lines(out.resolve("games.jsonl")) < 5 && System.nanoTime() < deadline && first.isAlive()) {
            Thread.sleep(50);
        }
        assertTrue(
                first.isAlive(),
                "the first run should still be playing: " + Files.readString(dir.resolve("first.log")));
        first.destroyForcibly(); // SIGKILL: no shutdown hook, no cleanup
        first.waitFor();
        List<String> beforeResume = completeLines(out.resolve("games.jsonl"));
        assertTrue(
                beforeResume.size() >= 5 && beforeResume.size() < 20, "killed after " + beforeResume.size() + " games");
        awaitNoProcesses(marker);

        Tournaments.Run second = Tournaments.run(TournamentFile.read(dir.resolve("match.yaml")), Timeouts.DEFAULT);
        assertEquals(LocalRunner.Ending.FINISHED, second.ending(), second.progress());
        assertTrue(second.progress().contains(beforeResume.size() + " already played (resuming)"), second.progress());
        String log = Files.readString(out.resolve("taikai.log"));
        assertTrue(log.contains(" run begins: 20 games planned\n"), log);
        assertTrue(
                log.contains(" run resumed: 20 games planned, " + beforeResume.size() + " already played (resuming)\n"),
                log);
        assertTrue(log.endsWith(" finished: all 20 games played\n"), log);

        List<String> journal = Tournaments.journal(out);
        assertEquals(20, journal.size(), "each planned game once");
        assertEquals(beforeResume, journal.subList(0, beforeResume.size()), "finished games are never played again");
        JsonNode results = Tournaments.results(out);
        Set<String> ids = new HashSet<>();
        for (JsonNode game : results.get("games")) {
            assertTrue(ids.add(game.get("id").asText()), "counted once: " + game.get("id"));
            Tournaments.replay(game);
        }
        assertEquals(20, ids.size());
        int games = 0;
        for (JsonNode row : results.get("standings")) {
            games += row.get("games").asInt();
        }
        assertEquals(40, games, "20 games, two engines each");
        awaitNoProcesses(marker);
        assertArchivesHoldEveryGameOnce(out, results);

        Tournaments.Run third = Tournaments.run(TournamentFile.read(dir.resolve("match.yaml")), Timeouts.DEFAULT);
        assertTrue(third.progress().contains("20 already played"), third.progress());
        assertEquals(20, Tournaments.journal(out).size(), "a finished tournament plays nothing more");
    }

    /**
     * The run's archives: all-games.kif is every KIF of games/ once, all-games.sfen a line per game with
     * its start and moves as recorded.
     */
    private static void assertArchivesHoldEveryGameOnce(Path out, JsonNode results) throws Exception {
        String archive = Files.readString(out.resolve("all-games.kif"));
        List<String> kifs = new ArrayList<>();
        try (Stream<Path> files = Files.list(out.resolve("games"))) {
            for (Path kif : files.sorted().toList()) {
                kifs.add(Files.readString(kif));
            }
        }
        assertEquals(20, kifs.size());
        assertEquals(20, archive.split("#KIF version=2.0", -1).length - 1, "20 KIFs, none twice");
        for (String kif : kifs) {
            assertTrue(
                    archive.contains(kif),
                    "the archive holds " + kif.lines().limit(4).toList());
        }
        List<String> lines = Files.readAllLines(out.resolve("all-games.sfen"));
        assertEquals(20, lines.size(), "a game per line");
        for (JsonNode game : results.get("games")) {
            String id = game.get("id").asText();
            List<String> moves = new ArrayList<>();
            game.get("moves").forEach(move -> moves.add(move.asText()));
            String expected = game.get("start_sfen").asText()
                    + (moves.isEmpty() ? "" : " moves " + String.join(" ", moves)) + " # " + id + " "
                    + game.get("sente").asText() + " vs " + game.get("gote").asText() + ": ";
            assertEquals(
                    1,
                    lines.stream().filter(line -> line.startsWith(expected)).count(),
                    "once, start and moves as recorded: " + expected);
            Tournaments.replay(game); // and those moves are legal from that start
        }
    }

    @Test
    void aTornLastLineIsReplayed(@TempDir Path dir) throws Exception {
        RunPlan plan = playFourGames(dir);
        Path journal = plan.output().resolve("games.jsonl");
        List<String> lines = Files.readAllLines(journal);
        assertEquals(4, lines.size());
        String torn = lines.get(3).substring(0, lines.get(3).length() / 2);
        Files.writeString(journal, String.join("\n", lines.subList(0, 3)) + "\n" + torn);

        Tournaments.Run resumed = Tournaments.run(plan, Timeouts.DEFAULT);
        assertTrue(resumed.progress().contains("torn line"), resumed.progress());
        assertTrue(resumed.progress().contains("3 already played"), resumed.progress());
        List<String> after = Files.readAllLines(journal);
        assertEquals(4, after.size());
        assertEquals(lines.subList(0, 3), after.subList(0, 3));
        assertEquals(4, Tournaments.results(plan.output()).get("games").size());
    }

    /** A line in the middle that is not a game is skipped with one line saying why, and its game played again. */
    @Test
    void anUnreadableLineIsSkippedWithAOneLineReason(@TempDir Path dir) throws Exception {
        RunPlan plan = playFourGames(dir);
        Path journal = plan.output().resolve("games.jsonl");
        List<String> lines = Files.readAllLines(journal);
        Files.writeString(journal, String.join("\n", lines.get(0), "{not json", "{\"x\": 1}", lines.get(3)) + "\n");

        String progress = Tournaments.run(plan, Timeouts.DEFAULT).progress();
        assertTrue(progress.contains("journal line 2 is unreadable and was skipped: Unexpected character"), progress);
        assertTrue(progress.contains("journal line 3 is unreadable and was skipped: it has no game id\n"), progress);
        assertFalse(progress.contains("[Source"), "no parser location lines: " + progress);
        assertEquals(4, Tournaments.results(plan.output()).get("games").size());
    }

    /** Plays a four-game Minishogi match of two quick fake engines into {@code dir/out}; its plan. */
    private static RunPlan playFourGames(Path dir) throws Exception {
        Files.writeString(
                dir.resolve("match.yaml"),
                "name: four\nvariant: minishogi\nrounds: 2\ngames: 2\n"
                        + "time-control: nodes 1\nconcurrency: 1\noutput: out\nadjudication: {move-limit: 20}\nengines:\n"
                        + Tournaments.fakeEntry("alpha", "--think-ms", "0")
                        + Tournaments.fakeEntry("beta", "--think-ms", "0"));
        RunPlan plan = TournamentFile.read(dir.resolve("match.yaml"));
        Tournaments.run(plan, Timeouts.DEFAULT);
        return plan;
    }

    /**
     * A run killed after a game's journal line and before its KIF (or while writing it): the resumed run
     * writes that KIF from the journal and removes the half-written file.
     */
    @Test
    void aKifLostToAKillIsWrittenFromTheJournal(@TempDir Path dir) throws Exception {
        RunPlan plan = playFourGames(dir);
        Path games = plan.output().resolve("games");
        Path lost;
        try (Stream<Path> files = Files.list(games)) {
            lost = files.sorted().findFirst().orElseThrow();
        }
        String kif = Files.readString(lost);
        Files.delete(lost);
        Path torn = games.resolve(lost.getFileName() + ".tmp");
        Files.writeString(torn, kif.substring(0, kif.length() / 2));
        // what a kill left of the folder's own files as they were written anew (results.json and the page
        // are written to a temporary file and moved into place; the archives were deleted, then written)
        Path out = plan.output();
        Path tornResults = out.resolve("results.json.tmp");
        Files.writeString(tornResults, "{\"tournament\":");
        Path tornLog = Files.createDirectories(out.resolve("logs")).resolve("r1-p1-g1.log.gz.tmp");
        Files.writeString(tornLog, "x");
        String archive = Files.readString(out.resolve("all-games.kif"));
        Files.delete(out.resolve("all-games.kif"));
        // and a game's line in taikai.log, which comes after its journal line
        Path log = out.resolve("taikai.log");
        List<String> logLines = Files.readAllLines(log);
        String dropped = logLines.stream()
                .filter(line -> line.contains(" game r1-p1-g1: "))
                .findFirst()
                .orElseThrow(() -> new AssertionError(logLines.toString()));
        Files.write(log, logLines.stream().filter(line -> !line.equals(dropped)).toList());

        Tournaments.Run resumed = Tournaments.run(plan, Timeouts.DEFAULT);
        assertTrue(resumed.progress().contains("4 already played"), resumed.progress());
        assertEquals(kif, Files.readString(lost), "the lost KIF, as it was written when its game ended");
        assertTrue(Files.notExists(torn), "no half-written file is left");
        assertTrue(Files.notExists(tornResults) && Files.notExists(tornLog), "nor any other");
        assertEquals(archive, Files.readString(out.resolve("all-games.kif")), "the archive, whole");
        assertEquals(4, Tournaments.results(out).get("games").size());
        assertTrue(Files.readAllLines(log).contains(dropped), "the game's log line, written again");
        try (Stream<Path> files = Files.list(games)) {
            assertEquals(4, files.count());
        }
    }

    @Test
    void aDifferentTournamentCannotReuseTheOutputDirectory(@TempDir Path dir) throws Exception {
        String engines =
                Tournaments.fakeEntry("alpha", "--think-ms", "0") + Tournaments.fakeEntry("beta", "--think-ms", "0");
        Files.writeString(
                dir.resolve("a.yaml"),
                "name: same\nvariant: minishogi\nrounds: 1\ntime-control: nodes 1\noutput: out\nengines:\n" + engines);
        Files.writeString(
                dir.resolve("b.yaml"),
                "name: same\nvariant: minishogi\nrounds: 2\ntime-control: nodes 1\noutput: out\nengines:\n" + engines);
        Tournaments.run(TournamentFile.read(dir.resolve("a.yaml")), Timeouts.DEFAULT);
        dev.taikai.enginehost.config.ConfigException e = org.junit.jupiter.api.Assertions.assertThrows(
                dev.taikai.enginehost.config.ConfigException.class,
                () -> Tournaments.run(TournamentFile.read(dir.resolve("b.yaml")), Timeouts.DEFAULT));
        assertTrue(
                e.getMessage().contains("holds 2 games of a different tournament:\n  rounds: 1, now 2\n"),
                e.getMessage());

        // an engine put in place of another is said as such, not as every setting of both ("options: none,
        // now none", which says nothing)
        Files.writeString(
                dir.resolve("c.yaml"),
                "name: same\nvariant: minishogi\nrounds: 1\ntime-control: nodes 1\noutput: out\nengines:\n"
                        + Tournaments.fakeEntry("alpha", "--think-ms", "0")
                        + Tournaments.fakeEntry("gamma", "--think-ms", "0"));
        e = org.junit.jupiter.api.Assertions.assertThrows(
                dev.taikai.enginehost.config.ConfigException.class,
                () -> Tournaments.run(TournamentFile.read(dir.resolve("c.yaml")), Timeouts.DEFAULT));
        assertTrue(e.getMessage().contains("  engine beta ("), e.getMessage());
        assertTrue(e.getMessage().contains("): not now\n  engine gamma ("), e.getMessage());
        assertTrue(e.getMessage().contains("): new\n"), e.getMessage());
        assertFalse(e.getMessage().contains("now none") || e.getMessage().contains("none, now"), e.getMessage());
    }

    private static List<String> javaCommand(Path file) {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add("dev.taikai.cli.Taikai");
        command.add("run");
        command.add(file.toString());
        return command;
    }

    private static int lines(Path file) throws IOException {
        return Files.exists(file) ? completeLines(file).size() : 0;
    }

    private static List<String> completeLines(Path file) throws IOException {
        String text = Files.readString(file);
        List<String> lines = new ArrayList<>(List.of(text.split("\n")));
        if (!text.endsWith("\n") && !lines.isEmpty()) {
            lines.remove(lines.size() - 1);
        }
        lines.removeIf(String::isEmpty);
        return lines;
    }

    /** Engines of the killed run exit when their pipes close; none may be left running. */
    private static void awaitNoProcesses(String marker) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        List<Long> left;
        do {
            left = processesWith(marker);
            if (left.isEmpty()) {
                return;
            }
            Thread.sleep(50);
        } while (System.nanoTime() < deadline);
        throw new AssertionError("engine processes left behind: " + left);
    }

    private static List<Long> processesWith(String marker) throws IOException {
        List<Long> found = new ArrayList<>();
        try (Stream<Path> entries = Files.list(Path.of("/proc"))) {
            for (Path entry : entries.toList()) {
                String name = entry.getFileName().toString();
                if (!name.chars().allMatch(Character::isDigit)) {
                    continue;
                }
                try {
                    String cmdline = Files.readString(entry.resolve("cmdline"));
                    String stat = Files.readString(entry.resolve("stat"));
                    boolean zombie = stat.substring(stat.lastIndexOf(')') + 2).startsWith("Z");
                    if (cmdline.contains(marker) && !zombie) {
                        found.add(Long.parseLong(name));
                    }
                } catch (IOException e) {
                    // gone while listed
                }
            }
        }
        return found;
    }
}
