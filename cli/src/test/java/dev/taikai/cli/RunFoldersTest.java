package dev.taikai.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Where a run's records go: a new folder for every run unless one is named; a named folder of another
 * tournament refused with what differs; a folder in which nothing was played taken over; resuming by
 * folder; file-system mistakes as one line.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class RunFoldersTest {
    /** A match of many quick games, for a test that stops a run part-way. */
    private static final String[] LONG_MATCH = {
        "-variant",
        "minishogi",
        "-engine",
        "conf=taikai-1",
        "-engine",
        "conf=taikai-2",
        "-each",
        "nodes=20",
        "-rounds",
        "500",
        "-maxmoves",
        "12",
        "-concurrency",
        "1"
    };

    private static final String[] QUICK = {"-each", "nodes=20", "-rounds", "1", "-games", "2", "-maxmoves", "12"};

    @Test
    void twoRunsWithoutOutGetTwoCompleteFolders(@TempDir Path dir) throws Exception {
        List<String> first = run(dir, "-variant", "minishogi", "-engine", "conf=taikai-1", "-engine", "conf=taikai-2");
        List<String> again = run(dir, "-variant", "minishogi", "-engine", "conf=taikai-1", "-engine", "conf=taikai-2");
        List<String> other = run(dir, "-variant", "kyotoshogi", "-engine", "conf=taikai-1", "-engine", "conf=taikai-3");
        List<Path> folders;
        try (Stream<Path> listed = Files.list(dir.resolve("results"))) {
            folders = listed.sorted().toList();
        }
        assertEquals(3, folders.size(), "a new folder each run: " + folders + "\n" + first + again + other);
        for (Path folder : folders) {
            assertTrue(folder.getFileName().toString().matches("taikai-\\d{8}-\\d{6}(-\\d+)?"), folder.toString());
            JsonNode results =
                    new ObjectMapper().readTree(folder.resolve("results.json").toFile());
            assertEquals(2, results.get("games").size(), "every game played in " + folder);
            try (Stream<Path> kifs = Files.list(folder.resolve("games"))) {
                assertEquals(2, kifs.count());
            }
        }
    }

    @Test
    void aNamedFolderOfAnotherTournamentIsRefusedWithWhatDiffers(@TempDir Path dir) {
        String out = dir.resolve("mine").toString();
        CliRun first = quick("-out", out, "-engine", "conf=taikai-1", "name=a", "-engine", "conf=taikai-2", "name=b");
        assertEquals(0, first.exitCode(), first.err());
        CliRun changed = quick("-out", out, "-engine", "conf=taikai-1", "name=a", "-engine", "conf=taikai-3", "name=b");
        assertEquals(2, changed.exitCode(), changed.err());
        String err = changed.err();
        assertTrue(err.contains(out + " holds 2 games of a different tournament:"), err);
        assertTrue(err.contains("  engine b: built-in taikai-2, now built-in taikai-3"), err);
        assertTrue(err.contains("resume that run with ./taikai run --resume " + out), err);
        assertFalse(err.contains("Exception") || err.contains("/jvm/") || err.contains(".jar"), err);
        assertTrue(err.lines().count() <= 4, "short: " + err);
        assertFalse(changed.out().contains("Standings"), "no report after a refused start: " + changed.out());

        CliRun same = quick("-out", out, "-engine", "conf=taikai-1", "name=a", "-engine", "conf=taikai-2", "name=b");
        assertEquals(0, same.exitCode(), same.err());
        assertTrue(same.err().contains("2 already played (resuming)"), same.err());
        assertTrue(
                same.err().contains("nothing is left to play: this run ended before (all 2 games played)"), same.err());
    }

    /** An edited tournament file refused its folder with "resume that run with --resume", which read the edited file again. */
    @Test
    void aRunWhoseFileChangedIsNotSentToResumeItself(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("t.yaml");
        String yaml = "variant: minishogi\nengines: [taikai-1, taikai-2]\ntime-control: nodes 20\n"
                + "adjudication: {move-limit: 12}\noutput: out\nrounds: ";
        Files.writeString(file, yaml + "1\n");
        CliRun first = CliRun.of("run", file.toString());
        assertEquals(0, first.exitCode(), first.err());
        Files.writeString(file, yaml + "2\n");
        for (CliRun again : List.of(
                CliRun.of("run", file.toString()),
                CliRun.of("run", "--resume", dir.resolve("out").toString()))) {
            assertEquals(2, again.exitCode(), again.err());
            assertTrue(again.err().contains("  rounds: 1, now 2"), again.err());
            assertTrue(
                    again.err().contains("that run was started with this same command, so a file it reads"),
                    again.err());
            assertFalse(again.err().contains("resume that run with"), again.err());
        }
    }

    @Test
    void aFolderWhereNothingWasPlayedIsTakenOver(@TempDir Path dir) throws Exception {
        String out = dir.resolve("fixed").toString();
        CliRun broken = quick("-out", out, "-engine", "conf=taikai-1", "name=a", "-engine", "cmd=/bin/false", "name=b");
        JsonNode lost = new ObjectMapper().readTree(Path.of(out, "results.json").toFile());
        assertEquals(2, lost.get("games").size(), broken.err());
        for (JsonNode game : lost.get("games")) {
            assertEquals(0, game.get("plies").asInt(), "b never started: " + game);
        }
        CliRun fixed = quick("-out", out, "-engine", "conf=taikai-1", "name=a", "-engine", "conf=taikai-2", "name=b");
        assertEquals(0, fixed.exitCode(), fixed.err());
        JsonNode results =
                new ObjectMapper().readTree(Path.of(out, "results.json").toFile());
        assertEquals(2, results.get("games").size());
        for (JsonNode game : results.get("games")) {
            assertTrue(game.get("plies").asInt() > 0, "played by the fixed engine: " + game);
        }
        String settings = Files.readString(Path.of(out, "tournament.txt"), StandardCharsets.UTF_8);
        assertTrue(settings.contains("engine a: built-in taikai-1\n"), settings);
        assertFalse(
                settings.contains("java") || settings.contains(".jar"), "nothing of this installation: " + settings);
    }

    @Test
    void aRunResumesByItsFolder(@TempDir Path dir) throws Exception {
        String out = dir.resolve("resumable").toString();
        // a name with ": " in it, as in the settings' own lines, resumes too
        CliRun first = quick("-out", out, "-engine", "conf=taikai-1", "name=a: one", "-engine", "conf=taikai-2");
        assertEquals(0, first.exitCode(), first.err());
        Path journal = Path.of(out, "games.jsonl");
        List<String> lines = Files.readAllLines(journal);
        Files.write(journal, lines.subList(0, 1)); // as if stopped after its first game
        CliRun resumed = CliRun.of("run", "--resume", out);
        assertEquals(0, resumed.exitCode(), resumed.err());
        assertTrue(resumed.err().contains("1 already played (resuming)"), resumed.err());
        assertEquals(2, Files.readAllLines(journal).size());

        CliRun none = CliRun.of("run", "--resume", dir.toString());
        assertEquals(2, none.exitCode());
        assertEquals(1, none.err().lines().count(), none.err());
        assertTrue(none.err().contains(dir + " holds no run to resume"), none.err());
    }

    /** Two runs into one folder both played every game and wrote into one journal at their own offsets. */
    @Test
    void aFolderInUseByAnotherRunIsRefused(@TempDir Path dir) throws Exception {
        Path out = Files.createDirectories(dir.resolve("busy"));
        try (FileChannel lock = FileChannel.open(
                        out.resolve("taikai.lock"), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
                FileLock held = lock.lock()) {
            lock.write(ByteBuffer.wrap("4242\n".getBytes(StandardCharsets.US_ASCII)));
            CliRun refused = quick("-out", out.toString(), "-engine", "conf=taikai-1", "-engine", "conf=taikai-2");
            assertEquals(2, refused.exitCode(), refused.err());
            assertEquals(
                    List.of("taikai run: the records folder " + out + " is in use by another run (process 4242);"
                            + " wait until it ends, or name another folder (-out DIR, or 'output:')"),
                    refused.err().lines().toList());
            assertFalse(Files.exists(out.resolve("games.jsonl")), "nothing written");
        }
        CliRun free = quick("-out", out.toString(), "-engine", "conf=taikai-1", "-engine", "conf=taikai-2");
        assertEquals(0, free.exitCode(), free.err());
    }

    /**
     * Ctrl-C while an engine takes its time to start: the run used to wait for the handshake (up to its
     * 10 s deadline) before it stopped, and started the other engine and announced the game meanwhile.
     */
    @Test
    void ctrlCWhileAnEngineStartsStopsAtOnce(@TempDir Path dir) throws Exception {
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp",
                System.getProperty("java.class.path"),
                "dev.taikai.cli.Taikai",
                "run",
                "-variant",
                "minishogi",
                "-out",
                dir.resolve("out").toString(),
                "-engine",
                "name=slow"));
        List<String> fake = dev.taikai.testkit.FakeEngines.command("--slow-start", "30000");
        command.add("cmd=" + fake.get(0));
        fake.subList(1, fake.size()).forEach(word -> command.add("arg=" + word));
        command.addAll(List.of("-engine", "conf=taikai-1"));
        command.addAll(List.of(QUICK));
        Process run = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(dir.resolve("output.txt").toFile())
                .start();
        try {
            dev.taikai.testkit.Await.until(
                    Duration.ofSeconds(60),
                    "the slow engine's process",
                    () -> run.descendants().findAny().isPresent());
            long interrupted = System.nanoTime();
            new ProcessBuilder("kill", "-INT", Long.toString(run.pid())).start().waitFor();
            assertTrue(run.waitFor(60, TimeUnit.SECONDS), "ended");
            long tookMillis = (System.nanoTime() - interrupted) / 1_000_000;
            String output = Files.readString(dir.resolve("output.txt"));
            assertEquals(130, run.exitValue(), output);
            // the start's own deadline is 10 s: an exit well before it did not wait for the handshake
            assertTrue(tookMillis < 7_000, "exited " + tookMillis + " ms after Ctrl-C:\n" + output);
            assertFalse(output.contains("Started game"), output);
            assertTrue(output.contains("interrupted: 0 games recorded; resume with"), output);
            // the run's log says so too, between the games' lines (it had the games' lines only)
            String log = Files.readString(dir.resolve("out").resolve("taikai.log"));
            assertTrue(
                    log.matches("(?s)\\S+ run begins: 2 games planned\n"
                            + "\\S+ interrupted: 0 games recorded; the games in play were not\n"),
                    log);
        } finally {
            run.descendants().forEach(ProcessHandle::destroyForcibly);
            run.destroyForcibly();
        }
    }

    /**
     * report.html is written at most every 2 s or so while games end; an interrupted run left it as it was
     * at its last write, games and points behind results.json, until a resume. It is written as it stops.
     */
    @Test
    void anInterruptedRunsPageShowsEveryGameRecorded(@TempDir Path dir) throws Exception {
        Path out = dir.resolve("out");
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp",
                System.getProperty("java.class.path"),
                "dev.taikai.cli.Taikai",
                "run",
                "-out",
                out.toString()));
        command.addAll(List.of(LONG_MATCH));
        Process run = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(dir.resolve("output.txt").toFile())
                .start();
        try {
            dev.taikai.testkit.Await.until(Duration.ofSeconds(60), "4 games recorded", () -> journalLines(out) >= 4);
            new ProcessBuilder("kill", "-INT", Long.toString(run.pid())).start().waitFor();
            assertTrue(run.waitFor(60, TimeUnit.SECONDS), "ended");
            String output = Files.readString(dir.resolve("output.txt"));
            assertEquals(130, run.exitValue(), output);
            long recorded = journalLines(out);
            assertEquals(
                    recorded,
                    new ObjectMapper()
                            .readTree(out.resolve("results.json").toFile())
                            .get("games")
                            .size(),
                    output);
            String page = Files.readString(out.resolve("report.html"));
            String data = page.substring(page.lastIndexOf("Taikai.report(") + "Taikai.report(".length());
            JsonNode shown = new ObjectMapper().readTree(data.substring(0, data.lastIndexOf(");")));
            assertEquals(recorded, shown.get("results").get("games").size(), output);
            assertEquals(
                    recorded,
                    shown.get("results").get("standings").get(0).get("games").asLong(),
                    output);
        } finally {
            run.descendants().forEach(ProcessHandle::destroyForcibly);
            run.destroyForcibly();
        }
    }

    /** The games in the run's journal (whole lines only: one may be half written). */
    private static long journalLines(Path out) {
        Path journal = out.resolve("games.jsonl");
        if (!Files.exists(journal)) {
            return 0;
        }
        try (Stream<String> lines = Files.lines(journal)) {
            return lines.filter(line -> line.endsWith("}")).count();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /**
     * The records folder removed under a run: it stopped saying "the games recorded before are kept" and
     * offered a resume, with the games and the resume's own record gone.
     */
    @Test
    void aRecordsFolderRemovedUnderTheRunIsSaidSo(@TempDir Path dir) throws Exception {
        Path out = dir.resolve("gone");
        java.util.concurrent.CompletableFuture<CliRun> running = java.util.concurrent.CompletableFuture.supplyAsync(
                () -> CliRun.of(Stream.concat(Stream.of("run", "-out", out.toString()), Stream.of(LONG_MATCH))
                        .toArray(String[]::new)));
        dev.taikai.testkit.Await.until(Duration.ofSeconds(60), "2 games recorded", () -> journalLines(out) >= 2);
        // removed as rm -rf does; a file the run writes meanwhile is removed on the next try
        dev.taikai.testkit.Await.until(Duration.ofSeconds(30), "the records folder removed", () -> {
            try (Stream<Path> files = Files.walk(out)) {
                for (Path file :
                        files.sorted(java.util.Comparator.reverseOrder()).toList()) {
                    Files.deleteIfExists(file);
                }
            } catch (java.io.IOException | java.io.UncheckedIOException e) {
                return false;
            }
            return !Files.exists(out);
        });
        CliRun stopped = running.get(120, TimeUnit.SECONDS);
        assertEquals(1, stopped.exitCode(), stopped.err());
        assertTrue(
                stopped.err()
                        .contains("stopped: the records folder " + out + " was removed while the run went on, and"
                                + " the games recorded in it with it; run the tournament again to play them"),
                stopped.err());
        assertFalse(stopped.err().contains("are kept") || stopped.err().contains("--resume"), stopped.err());
    }

    /** --resume after other flags was refused as an unknown flag. */
    @Test
    void resumeAnywhereButFirstIsToldWhereItGoes() {
        CliRun late = CliRun.of("run", "-rounds", "3", "--resume", "out");
        assertEquals(2, late.exitCode(), late.err());
        assertTrue(late.err().contains("--resume comes first and alone: ./taikai run --resume DIR"), late.err());
    }

    @Test
    void aResumedRunIsStrictAndVerboseAsItWasStarted(@TempDir Path dir) throws Exception {
        String out = dir.resolve("strict").toString();
        CliRun first = quick(
                "-out",
                out,
                "-engine",
                "conf=taikai-1",
                "option.Bogus=1",
                "-engine",
                "conf=taikai-2",
                "--strict",
                "--verbose");
        assertEquals(1, first.exitCode(), first.err());
        String invocation = Files.readString(Path.of(out, "invocation.json"));
        assertTrue(invocation.contains("\"--strict\"") && invocation.contains("\"--verbose\""), invocation);
        CliRun resumed = CliRun.of("run", "--resume", out);
        assertEquals(1, resumed.exitCode(), "still strict: " + resumed.err());
        assertTrue(resumed.err().contains("option 'Bogus' is not an option"), resumed.err());
    }

    /**
     * A records file that cannot be written (here the games folder taken away under the run; a full disk
     * alike) used to end in Java's exception text, exit 1, with no file named and no way on: now the run
     * stops with the file and why, and resumes once that is mended, every game counted once.
     */
    @Test
    void recordsThatCannotBeWrittenStopTheRunWithTheFileAndAWayOn(@TempDir Path dir) throws Exception {
        Path out = dir.resolve("records");
        List<String> args = new ArrayList<>(List.of("run", "-variant", "minishogi", "-out", out.toString()));
        for (String name : List.of("a", "b")) {
            List<String> fake = dev.taikai.testkit.FakeEngines.command("--think-ms", "10");
            args.addAll(List.of("-engine", "name=" + name, "cmd=" + fake.get(0)));
            fake.subList(1, fake.size()).forEach(word -> args.add("arg=" + word));
        }
        args.addAll(List.of("-each", "nodes=20", "-rounds", "10", "-games", "2", "-maxmoves", "6"));
        java.util.concurrent.CompletableFuture<CliRun> running =
                java.util.concurrent.CompletableFuture.supplyAsync(() -> CliRun.of(args.toArray(String[]::new)));
        Path journal = out.resolve("games.jsonl");
        dev.taikai.testkit.Await.until(Duration.ofSeconds(120), "a game in the journal", () -> {
            try {
                return Files.exists(journal) && Files.readString(journal).contains("\n");
            } catch (java.io.IOException e) {
                return false;
            }
        });
        Files.move(out.resolve("games"), dir.resolve("games-away"));
        Files.writeString(out.resolve("games"), "not a folder");

        CliRun stopped = running.get(120, TimeUnit.SECONDS);
        assertEquals(1, stopped.exitCode(), stopped.err());
        List<String> said = stopped.err().lines().toList();
        assertTrue(
                said.get(said.size() - 2).startsWith("stopped: cannot write " + out.resolve("games") + "/")
                        && said.get(said.size() - 2).endsWith("; the games recorded before are kept"),
                stopped.err());
        assertTrue(
                said.get(said.size() - 1).startsWith("once that is mended, resume with ./taikai run --resume "),
                stopped.err());
        assertFalse(stopped.err().contains("Exception"), stopped.err());
        long recorded = Files.readString(journal).lines().count();
        assertTrue(recorded >= 1 && recorded < 20, recorded + " games in the journal");

        Files.delete(out.resolve("games"));
        Files.move(dir.resolve("games-away"), out.resolve("games"));
        CliRun resumed = CliRun.of("run", "--resume", out.toString());
        assertEquals(0, resumed.exitCode(), resumed.err());
        JsonNode games = new ObjectMapper()
                .readTree(out.resolve("results.json").toFile())
                .get("games");
        assertEquals(20, games.size(), "every game once");
        assertEquals(
                20,
                java.util.stream.StreamSupport.stream(games.spliterator(), false)
                        .map(g -> g.get("id").asText())
                        .distinct()
                        .count());
        try (Stream<Path> kifs = Files.list(out.resolve("games"))) {
            assertEquals(20, kifs.filter(f -> f.toString().endsWith(".kif")).count(), "a KIF a game");
        }
    }

    /**
     * A run out of Java heap (here a resume whose journal, 60 MB, does not fit a 32 MB heap) said
     * "Exception in thread main java.lang.OutOfMemoryError" with a stack trace: now one line says how much
     * heap it had and how to give it more, exit 1.
     */
    @Test
    void aRunOutOfHeapSaysHowToGiveItMore(@TempDir Path dir) throws Exception {
        Path out = dir.resolve("heavy");
        CliRun first = quick("-out", out.toString(), "-engine", "conf=taikai-1", "-engine", "conf=taikai-2");
        assertEquals(0, first.exitCode(), first.err());
        Path journal = out.resolve("games.jsonl");
        String line = Files.readAllLines(journal).get(0) + "\n";
        try (var writer = Files.newBufferedWriter(journal, StandardOpenOption.APPEND)) {
            while (Files.size(journal) < 60_000_000L) {
                for (int i = 0; i < 1000; i++) {
                    writer.write(line);
                }
                writer.flush();
            }
        }
        Process resume = new ProcessBuilder(
                        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                        "-Xmx32m",
                        "-cp",
                        System.getProperty("java.class.path"),
                        "dev.taikai.cli.Taikai",
                        "run",
                        "--resume",
                        out.toString())
                .redirectErrorStream(true)
                .start();
        String output = new String(resume.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(resume.waitFor(120, TimeUnit.SECONDS));
        assertEquals(1, resume.exitValue(), output);
        assertTrue(
                output.contains("taikai: out of memory: the Java heap's ")
                        && output.contains(" MB are used up; give it more with TAIKAI_JAVA_OPTS"),
                output);
        assertFalse(output.contains("Exception") || output.contains("\tat "), output);
    }

    /** A folder whose tournament.txt was removed: its games were taken for the new run's, whatever they were. */
    @Test
    void gamesWithoutTheirSettingsAreNotAdopted(@TempDir Path dir) throws Exception {
        Path out = dir.resolve("orphans");
        CliRun first = quick("-out", out.toString(), "-engine", "conf=taikai-1", "-engine", "conf=taikai-2");
        assertEquals(0, first.exitCode(), first.err());
        Files.delete(out.resolve("tournament.txt"));
        String journal = Files.readString(out.resolve("games.jsonl"));
        CliRun again = quick("-out", out.toString(), "-engine", "conf=taikai-1", "-engine", "conf=taikai-3");
        assertEquals(2, again.exitCode(), again.err());
        assertEquals(
                List.of("taikai run: " + out
                        + " holds 2 games but not its tournament.txt, the settings they were played"
                        + " with, so they cannot be counted for this tournament: restore "
                        + out.resolve("tournament.txt")
                        + " to resume that run; or start this one in another folder (another -out or output:, or none"
                        + " for a new one)"),
                again.err().lines().toList());
        assertEquals(journal, Files.readString(out.resolve("games.jsonl")), "left as it was");
    }

    /** A folder 'cluster submit' wrote: a local run took its games for its own (same settings). */
    @Test
    void aClusterTournamentsFolderIsNotTakenForALocalRun(@TempDir Path dir) throws Exception {
        Path out = dir.resolve("fetched");
        CliRun first = quick("-out", out.toString(), "-engine", "conf=taikai-1", "-engine", "conf=taikai-2");
        assertEquals(0, first.exitCode(), first.err());
        Files.writeString(out.resolve("cluster.txt"), "t-7\n"); // as a cluster's records folder holds it
        CliRun local = quick("-out", out.toString(), "-engine", "conf=taikai-1", "-engine", "conf=taikai-2");
        assertEquals(2, local.exitCode(), local.err());
        assertEquals(
                List.of("taikai run: " + out + " holds the records of cluster tournament t-7 (cluster.txt): write them"
                        + " again with './taikai cluster fetch', or run this one in another folder (another -out or"
                        + " output:, or none for a new one)"),
                local.err().lines().toList());
    }

    @Test
    void anOutputThatIsAFileIsOneLine(@TempDir Path dir) throws Exception {
        Path file = Files.writeString(dir.resolve("taken"), "mine");
        CliRun run = quick("-out", file.toString(), "-engine", "conf=taikai-1", "-engine", "conf=taikai-2");
        assertEquals(2, run.exitCode(), run.err());
        assertEquals(1, run.err().lines().count(), run.err());
        assertTrue(run.err().contains("the records folder " + file + " is a file"), run.err());
        assertEquals("mine", Files.readString(file), "left alone");
    }

    @Test
    void aFolderThatCannotBeMadeIsOneLine() {
        CliRun run = quick("-out", "/proc/taikai-x", "-engine", "conf=taikai-1", "-engine", "conf=taikai-2");
        assertEquals(2, run.exitCode(), run.err());
        assertEquals(
                List.of("taikai run: cannot create the records folder /proc/taikai-x: folders cannot be made there"),
                run.err().lines().toList());
    }

    @Test
    void runTakesVersionLikeEveryCommand() {
        for (String flag : List.of("-V", "--version")) {
            CliRun run = CliRun.of("run", flag);
            assertEquals(0, run.exitCode(), run.err());
            assertTrue(run.out().startsWith("taikai "), run.out());
        }
    }

    @Test
    void anEngineThatCannotStartIsOneLineBeforeAnyGame(@TempDir Path dir) {
        Path out = dir.resolve("never");
        CliRun run = quick("-out", out.toString(), "-engine", "conf=taikai-1", "-engine", "cmd=/no/such/engine");
        assertEquals(1, run.exitCode(), run.err());
        assertEquals(
                List.of("engine 'engine' cannot be used: engine program /no/such/engine does not exist; no game was"
                        + " played"),
                run.err().lines().toList());
        assertEquals("", run.out(), "no standings of a run that never began");
        assertFalse(Files.exists(out), "no records folder");
    }

    private static CliRun quick(String... args) {
        List<String> all = new ArrayList<>(List.of("run", "-variant", "minishogi"));
        all.addAll(List.of(args));
        all.addAll(List.of(QUICK));
        return CliRun.of(all.toArray(String[]::new));
    }

    /** {@code taikai run ARGS} as a new user runs it: a process of its own in {@code dir}, no -out. */
    private static List<String> run(Path dir, String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp",
                System.getProperty("java.class.path"),
                "dev.taikai.cli.Taikai",
                "run"));
        command.addAll(List.of(args));
        command.addAll(List.of(QUICK));
        Process process = new ProcessBuilder(command)
                .directory(dir.toFile())
                .redirectErrorStream(true)
                .start();
        List<String> output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8)
                .lines()
                .toList();
        assertTrue(process.waitFor(120, TimeUnit.SECONDS));
        assertEquals(0, process.exitValue(), String.join("\n", output));
        return output;
    }
}
