package dev.taikai.cli.run;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.taikai.enginehost.config.ConfigException;
import dev.taikai.referee.game.GameAssignment;
import dev.taikai.referee.game.GameRecord;
import dev.taikai.referee.game.Kif;
import dev.taikai.rules.Termination;
import dev.taikai.tournament.Format;
import dev.taikai.tournament.Standings;
import dev.taikai.tournament.TournamentSpec;
import dev.taikai.tournament.run.Counted;
import dev.taikai.tournament.run.TournamentRun;
import dev.taikai.tournament.stats.EloInterval;
import dev.taikai.tournament.stats.Pentanomial;
import dev.taikai.tournament.stats.Sprt;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * A run's records, written the moment each game ends: the journal {@code games.jsonl} (one game per
 * line, flushed to disk before anything else: the source of truth for resuming), the game's KIF under
 * {@code games/} and appended to the run's archives ({@value #KIF_ARCHIVE}, {@value #SFEN_ARCHIVE}),
 * {@code results.json} (games and standings, updated in place), and a log line in {@code taikai.log}. {@code tournament.txt} holds the settings ({@link RunSettings}) that a resumed run
 * must match; a folder in which no game had a move is taken over by any tournament.
 */
final class RunRecords implements AutoCloseable {
    /** Every game's KIF in one file. */
    static final String KIF_ARCHIVE = "all-games.kif";
    /** Every game on one line: start SFEN and USI moves. */
    static final String SFEN_ARCHIVE = "all-games.sfen";
    /** The journal: a finished game a line, the source of truth for resuming. */
    static final String JOURNAL = "games.jsonl";
    /** The run's results as a page that opens from disk ({@link ReportPage}). */
    static final String REPORT = "report.html";
    /**
     * How often at most report.html is written while games end (and always when the run opens and ends);
     * less often when writing it takes long ({@link #reportTookNanos}).
     */
    private static final long REPORT_EVERY_NANOS = 2_000_000_000L;

    private final RunPlan plan;
    /** The run whose records these are (a league's table goes into results.json). */
    private final TournamentRun run;

    private final Path dir;
    /** Held from open to close: no other run writes this folder meanwhile. */
    private final FolderLock lock;

    private final ObjectMapper mapper = new ObjectMapper();
    private final FileChannel journal;
    /** results.json, open for appending a game in place; opened again after each rewrite (a new file). */
    private RandomAccessFile results;

    private final List<GameRecord> resumed = new ArrayList<>();
    private final List<String> warnings = new ArrayList<>();
    private long gamesEnd;
    private int gamesWritten;
    /** When report.html was last written ({@link System#nanoTime}), or 0. */
    private long reportWrittenNanos;
    /**
     * How long that took: the page holds every game, so a long run's takes seconds, and while games end
     * it is written again only after 20 times that (at most 5 % of the run's time goes to it).
     */
    private long reportTookNanos;
    /** The SPRT's verdict over the pairs counted when results.json was last written, null before. */
    private Sprt.Verdict sprtVerdict;
    /** The first write that failed: nothing more is written after it (every later write throws it again). */
    private RecordsNotWritten failed;

    /** One step that writes {@code file}. */
    interface Writing {
        void run() throws IOException;
    }

    /** Runs {@code step}, which writes {@code file}; its failure as a {@link RecordsNotWritten} naming the file. */
    static void writing(Path file, Writing step) throws RecordsNotWritten {
        try {
            step.run();
        } catch (RecordsNotWritten e) {
            throw e;
        } catch (IOException e) {
            throw new RecordsNotWritten(file, e);
        }
    }

    private RunRecords(
            RunPlan plan, TournamentRun run, Path dir, FolderLock lock, FileChannel journal, RandomAccessFile results) {
        this.plan = plan;
        this.run = run;
        this.dir = dir;
        this.lock = lock;
        this.journal = journal;
        this.results = results;
    }

    /**
     * Opens (or creates) the output directory; a resumed run's finished games are read from the journal and
     * counted in {@code run}, in journal order (so that a league pairs its rounds again as they were).
     */
    static RunRecords open(RunPlan plan, TournamentRun run) throws IOException, ConfigException {
        return open(plan, run, null);
    }

    /** As {@link #open(RunPlan, TournamentRun)} for the run started by {@code command} (null: unknown). */
    static RunRecords open(RunPlan plan, TournamentRun run, Invocation command) throws IOException, ConfigException {
        return open(plan, run, command, dir -> {});
    }

    /** What a writer of the folder does to it first, with the folder's lock held. */
    interface FirstStep {
        void on(Path dir) throws IOException;
    }

    /**
     * As {@link #open(RunPlan, TournamentRun, Invocation)}, after {@code first} ran on the folder with its
     * lock held: a cluster's folder is cleared so, and a second writer refused by the lock touches nothing.
     */
    static RunRecords open(RunPlan plan, TournamentRun run, Invocation command, FirstStep first)
            throws IOException, ConfigException {
        Path dir = plan.output();
        if (Files.exists(dir) && !Files.isDirectory(dir)) {
            throw new ConfigException(
                    "the records folder " + dir + " is a file; name a folder (-out DIR, or 'output:')");
        }
        try {
            Files.createDirectories(dir.resolve("games"));
        } catch (IOException e) {
            throw new ConfigException("cannot create the records folder " + dir + ": " + reason(dir, e));
        }
        FolderLock lock = FolderLock.take(dir);
        try {
            first.on(dir);
            return open(plan, run, dir, lock, command);
        } catch (IOException | ConfigException | RuntimeException e) {
            lock.close();
            throw e;
        }
    }

    private static RunRecords open(RunPlan plan, TournamentRun run, Path dir, FolderLock lock, Invocation command)
            throws IOException, ConfigException {
        Path settingsFile = dir.resolve("tournament.txt");
        Path journalFile = dir.resolve(JOURNAL);
        RunSettings settings = RunSettings.of(plan);
        String existing = Files.exists(settingsFile) ? Files.readString(settingsFile, StandardCharsets.UTF_8) : null;
        if (existing != null && !existing.equals(settings.text())) {
            Optional<RunSettings> earlier = RunSettings.parse(existing);
            int played = gamesWithMoves(journalFile);
            if (played > 0) {
                throw new ConfigException(differentTournament(dir, played, earlier, settings, command));
            }
            startAfresh(dir, journalFile); // nothing was played there: the folder is free
        }
        if (existing == null && Files.exists(journalFile)) {
            int played = gamesWithMoves(journalFile);
            if (played > 0) { // whose games are they? Nothing says: counting them could mix two tournaments
                throw new ConfigException(dir + " holds " + Plural.games(played)
                        + " but not its tournament.txt, the settings they were played with, so they cannot be"
                        + " counted for this tournament: restore " + settingsFile + " to resume that run;"
                        + " or start this one in another folder (another -out or output:, or none for a new one)");
            }
        }
        if (!settings.text().equals(existing)) {
            // whole or not at all: a settings file cut short by a kill would refuse the folder for good
            writing(settingsFile, () -> writeWhole(settingsFile, settings.text()));
        }
        RunRecords records = new RunRecords(
                plan,
                run,
                dir,
                lock,
                FileChannel.open(
                        journalFile, StandardOpenOption.CREATE, StandardOpenOption.WRITE, StandardOpenOption.READ),
                new RandomAccessFile(dir.resolve("results.json").toFile(), "rw"));
        try {
            records.readJournal(journalFile);
            records.restoreGameFiles();
            records.restoreLogLines();
            records.rewriteResults(null);
            records.rewriteArchives(records.resumed);
            records.writeReport(null, false);
        } catch (IOException | RuntimeException e) {
            records.closeFiles();
            throw e;
        }
        return records;
    }

    /** Why the folder is refused: how many games it holds and what differs, a line each. */
    private static String differentTournament(
            Path dir, int played, Optional<RunSettings> earlier, RunSettings now, Invocation command) {
        StringBuilder message =
                new StringBuilder(dir + " holds " + Plural.games(played) + " of a different tournament");
        if (earlier.isEmpty()) {
            message.append(" (its settings were written by an earlier Taikai and cannot be compared)");
        } else {
            message.append(":");
            for (String difference : now.differencesFrom(earlier.get(), 8)) {
                message.append("\n  ").append(difference);
            }
        }
        if (command != null && command.sameAs(dir)) {
            // --resume, or the run's own command again: what the command reads has changed since
            return message.append("\nthat run was started with this same command, so a file it reads (the tournament"
                            + " file, a catalog, an opening suite) has changed since: restore it to resume that run;"
                            + " or start this one in another folder (another -out or output:, or none for a new one)")
                    .toString();
        }
        return message.append("\nresume that run with ")
                .append(Invocation.resumeCommand(dir))
                .append("; or start this one in another folder (another -out or output:, or none for a new one)")
                .toString();
    }

    /** Games in the journal in which a move was played (a game whose engine never started has none). */
    private static int gamesWithMoves(Path journalFile) throws IOException {
        if (!Files.exists(journalFile)) {
            return 0;
        }
        ObjectMapper mapper = new ObjectMapper();
        int played = 0;
        for (String line : Files.readAllLines(journalFile, StandardCharsets.UTF_8)) {
            try {
                if (!line.isBlank() && mapper.readTree(line).path("plies").asInt(1) > 0) {
                    played++;
                }
            } catch (IOException e) {
                played++; // unreadable: count it, so that nothing is thrown away unseen
            }
        }
        return played;
    }

    /** Empties a folder whose games had no move, for another tournament. */
    private static void startAfresh(Path dir, Path journalFile) throws IOException {
        Files.deleteIfExists(journalFile);
        for (String file : List.of("results.json", "taikai.log", KIF_ARCHIVE, SFEN_ARCHIVE, REPORT)) {
            Files.deleteIfExists(dir.resolve(file));
        }
        for (String folder : List.of("games", "logs")) {
            if (!Files.isDirectory(dir.resolve(folder))) {
                continue;
            }
            try (var files = Files.list(dir.resolve(folder))) {
                for (Path file : files.toList()) {
                    Files.deleteIfExists(file);
                }
            }
        }
    }

    static String reason(Path dir, IOException e) {
        if (e instanceof java.nio.file.NoSuchFileException) { // missing parents are made: the place refuses folders
            return "folders cannot be made there";
        }
        return dev.taikai.enginehost.catalog.FileProblem.of(dir, e);
    }

    /**
     * Reads the journal into {@code run}; a torn last line (a run killed while writing it) is cut off and
     * its game played again, as is a game the run does not count (see the warnings).
     */
    private void readJournal(Path file) throws IOException {
        byte[] bytes = Files.readAllBytes(file);
        int lineStart = 0;
        long validEnd = 0;
        int lineNumber = 0;
        for (int i = 0; i < bytes.length; i++) {
            if (bytes[i] != '\n') {
                continue;
            }
            lineNumber++;
            String line = new String(bytes, lineStart, i - lineStart, StandardCharsets.UTF_8);
            try {
                JsonNode game = mapper.readTree(line);
                if (!game.path("id").isTextual()) {
                    throw new IllegalArgumentException("it has no game id");
                }
                String id = game.get("id").asText();
                Optional<GameAssignment> assignment = run.paired(id);
                if (assignment.isEmpty()) {
                    warnings.add("journal line " + lineNumber + " is game '" + id + "', which this tournament"
                            + " does not pair; it was skipped");
                } else {
                    GameRecord record = GameJson.read(game, assignment.get());
                    String[] why = {""};
                    Counted counted = run.count(record, reason -> why[0] = reason);
                    if (counted == Counted.COUNTED) {
                        resumed.add(record);
                    } else if (counted == Counted.REFUSED) {
                        warnings.add("journal line " + lineNumber + " (game " + id + ") does not hold up: " + why[0]
                                + "; the game is played again");
                    }
                }
            } catch (IOException | RuntimeException e) {
                String why = e instanceof com.fasterxml.jackson.core.JsonProcessingException json
                        ? json.getOriginalMessage() // without Jackson's second line, where in the source
                        : e instanceof NullPointerException ? "a field it needs is missing" : e.getMessage();
                warnings.add("journal line " + lineNumber + " is unreadable and was skipped: " + why);
            }
            lineStart = i + 1;
            validEnd = i + 1;
        }
        if (validEnd < bytes.length) {
            warnings.add(
                    "the journal ended in a torn line (the run was killed while writing); that game is played again");
        }
        journal.truncate(validEnd);
        journal.position(validEnd);
    }

    /**
     * Writes {@code games/<id>.kif} again for every game of the journal whose file is missing or differs (a run
     * killed between a game's journal line and its KIF) and removes half-written {@code .tmp} files (of
     * games/, logs/ and the folder).
     */
    private void restoreGameFiles() throws IOException {
        Path games = dir.resolve("games");
        // what a killed run was writing: a game's KIF or log, results.json, an archive or the page
        for (Path folder : List.of(dir, games, dir.resolve("logs"))) {
            if (!Files.isDirectory(folder)) {
                continue;
            }
            try (var files = Files.list(folder)) {
                for (Path file : files.filter(f -> f.getFileName().toString().endsWith(".tmp"))
                        .toList()) {
                    Files.deleteIfExists(file);
                }
            }
        }
        for (GameRecord record : resumed) {
            Path kif = games.resolve(record.id() + ".kif");
            String text = Kif.write(record, plan.spec().name());
            if (!Files.exists(kif)
                    || !Files.readString(kif, StandardCharsets.UTF_8).equals(text)) {
                writing(kif, () -> writeWhole(kif, text));
            }
        }
    }

    /**
     * Appends to taikai.log the line of every game of the journal that it lacks (a run killed between a
     * game's journal line and its log line), with the game's own end time, after the lines there.
     */
    private void restoreLogLines() throws IOException {
        Path log = dir.resolve("taikai.log");
        java.util.Set<String> logged = new java.util.HashSet<>();
        if (Files.exists(log)) {
            var gameLine = java.util.regex.Pattern.compile(" game (\\S+): ");
            try (var lines = Files.lines(log, StandardCharsets.UTF_8)) {
                lines.forEach(line -> {
                    var found = gameLine.matcher(line);
                    if (found.find()) {
                        logged.add(found.group(1));
                    }
                });
            }
        }
        StringBuilder missing = new StringBuilder();
        for (GameRecord record : resumed) {
            if (!logged.contains(record.id())) {
                missing.append(logLine(record));
            }
        }
        if (!missing.isEmpty()) {
            appendToLog(missing.toString());
        }
    }

    /** Appends games' lines to taikai.log. */
    private void appendToLog(String lines) throws RecordsNotWritten {
        Path log = dir.resolve("taikai.log");
        writing(
                log,
                () -> Files.writeString(
                        log, lines, StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND));
    }

    /** Writes {@code file} whole or not at all (a temporary file beside it, moved into place). */
    private static void writeWhole(Path file, String text) throws IOException {
        writeWhole(file, text.getBytes(StandardCharsets.UTF_8));
    }

    private static void writeWhole(Path file, byte[] bytes) throws IOException {
        Path temporary = file.resolveSibling(file.getFileName() + ".tmp");
        Files.write(temporary, bytes);
        Files.move(temporary, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    List<GameRecord> resumedGames() {
        return List.copyOf(resumed);
    }

    List<String> warnings() {
        return List.copyOf(warnings);
    }

    Path directory() {
        return dir;
    }

    /**
     * Records a finished game everywhere; the journal line is on disk before this returns. A failure is a
     * {@link RecordsNotWritten}, after which nothing more is written: a journal line cut short is taken back.
     */
    synchronized void write(GameRecord record, Standings standings) throws RecordsNotWritten {
        if (failed != null) {
            throw failed;
        }
        try {
            ObjectNode game = GameJson.write(record, mapper);
            byte[] line = (mapper.writeValueAsString(game) + "\n").getBytes(StandardCharsets.UTF_8);
            writing(dir.resolve(JOURNAL), () -> appendToJournal(line));
            String kifText = Kif.write(record, plan.spec().name());
            Path kif = dir.resolve("games").resolve(record.id() + ".kif");
            writing(kif, () -> writeWhole(kif, kifText));
            writing(dir.resolve("results.json"), () -> appendResult(game, standings));
            appendToArchives(kifText + "\n", sfenLine(record) + "\n");
            if (System.nanoTime() - reportWrittenNanos >= Math.max(REPORT_EVERY_NANOS, 20 * reportTookNanos)) {
                writeReport(standings, false);
            }
            appendToLog(logLine(record));
        } catch (RecordsNotWritten e) {
            failed = e;
            throw e;
        } catch (IOException e) { // the JSON of a game: not a file's failure
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** Appends {@code line} to the journal and forces it to disk; a line that failed half-way is taken back. */
    private void appendToJournal(byte[] line) throws IOException {
        long end = journal.position();
        try {
            journal.write(java.nio.ByteBuffer.wrap(line));
            journal.force(false);
        } catch (IOException e) {
            try {
                journal.truncate(end);
                journal.position(end);
            } catch (IOException alsoFailed) {
                e.addSuppressed(alsoFailed); // a resume cuts off a torn last line in any case
            }
            throw e;
        }
    }

    /** Writes a game's compressed engine log ({@link EngineLogs}) as {@code logs/<id>.log.gz}. */
    synchronized void writeEngineLog(String gameId, byte[] gzipped) throws RecordsNotWritten {
        if (failed != null) {
            throw failed;
        }
        Path logs = dir.resolve("logs");
        Path log = logs.resolve(gameId + ".log.gz");
        try {
            writing(log, () -> {
                Files.createDirectories(logs);
                writeWhole(log, gzipped);
            });
        } catch (RecordsNotWritten e) {
            failed = e;
            throw e;
        }
    }

    /**
     * Appends a line of the run's own to taikai.log, stamped now: how it began, stopped or was interrupted,
     * between the games' lines. Best effort: a note that cannot be written loses no game, and says nothing.
     */
    synchronized void note(String text) {
        try {
            Files.writeString(
                    dir.resolve("taikai.log"),
                    Instant.now() + " " + text + "\n",
                    StandardCharsets.UTF_8,
                    StandardOpenOption.CREATE,
                    StandardOpenOption.APPEND);
        } catch (IOException e) {
            // the games' lines are the records; a missing note is no lost game
        }
    }

    private static String logLine(GameRecord record) {
        var a = record.assignment();
        String result = record.winner() == null ? "draw" : record.winner() + " wins";
        return String.format(
                Locale.ROOT,
                "%s game %s: %s (sente) vs %s (gote): %s by %s after %s in %.1f s; %s%n",
                Instant.ofEpochMilli(record.finishedEpochMillis()),
                record.id(),
                a.sente(),
                a.gote(),
                result,
                record.outcome().termination().name().toLowerCase(Locale.ROOT),
                Plural.plies(record.plies()),
                (record.finishedEpochMillis() - record.startedEpochMillis()) / 1000.0,
                record.outcome().detail());
    }

    /** Appends one game to results.json in place: only the closing part after the games list is rewritten. */
    private void appendResult(ObjectNode game, Standings standings) throws IOException {
        results.seek(gamesEnd);
        results.write(((gamesWritten == 0 ? "\n" : ",\n") + mapper.writeValueAsString(game))
                .getBytes(StandardCharsets.UTF_8));
        gamesWritten++;
        gamesEnd = results.getFilePointer();
        results.write(tail(standings).getBytes(StandardCharsets.UTF_8));
        results.setLength(results.getFilePointer());
    }

    /** Writes results.json from scratch (at the start, from the journal, and at the end). */
    synchronized void rewriteResults(Standings standings) throws RecordsNotWritten {
        writing(dir.resolve("results.json"), () -> rewriteResultsFile(standings));
    }

    /**
     * Writes results.json whole or not at all: a new file moved into place, so that a run stopped meanwhile
     * (a Ctrl-C as a resumed run opens the folder, a kill at the end) leaves the last one whole, where an
     * in-place rewrite left it cut short.
     */
    private void rewriteResultsFile(Standings standings) throws IOException {
        var text = new java.io.ByteArrayOutputStream();
        text.write(("{\"tournament\":" + mapper.writeValueAsString(tournament()) + ",\n\"games\":[")
                .getBytes(StandardCharsets.UTF_8));
        int games = 0;
        for (GameRecord record : resumed) {
            if (standings == null || standings.contains(record.id())) {
                text.write(((games == 0 ? "\n" : ",\n") + mapper.writeValueAsString(GameJson.write(record, mapper)))
                        .getBytes(StandardCharsets.UTF_8));
                games++;
            }
        }
        long end = text.size();
        text.write(tail(standings).getBytes(StandardCharsets.UTF_8));
        Path file = dir.resolve("results.json");
        results.close();
        writeWhole(file, text.toByteArray());
        results = new RandomAccessFile(file.toFile(), "rw");
        gamesWritten = games;
        gamesEnd = end;
    }

    /** Rewrites results.json and the archives from every game counted in {@code standings}, in journal order. */
    synchronized void finish(Standings standings) throws RecordsNotWritten {
        if (failed != null) {
            throw failed;
        }
        resumed.clear();
        resumed.addAll(standings.records());
        rewriteResults(standings);
        rewriteArchives(resumed);
        writeReport(standings, true);
    }

    /**
     * An interrupted run: {@value #REPORT}, written at most every 2 s or so while games end, is written
     * once more so that it shows every game recorded, as results.json does.
     */
    synchronized void interrupted(Standings standings) {
        if (failed == null) {
            try {
                writeReport(standings, false);
            } catch (RecordsNotWritten e) {
                // the games are in the journal and results.json; the page is written again on resume
            }
        }
    }

    /**
     * Writes {@value #REPORT} from results.json as it is now, whole or not at all; {@code finished} when the
     * run has ended (the page then no longer asks to be reloaded).
     */
    private void writeReport(Standings standings, boolean finished) throws RecordsNotWritten {
        long began = System.nanoTime();
        List<String> match = plan.spec().entrants().size() == 2
                ? plan.spec().entrants().stream().map(e -> e.name()).toList()
                : List.of();
        Path report = dir.resolve(REPORT);
        writing(
                report,
                () -> writeWhole(
                        report,
                        ReportPage.render(
                                Files.readString(dir.resolve("results.json"), StandardCharsets.UTF_8),
                                standings,
                                plan.spec().sprt(),
                                match,
                                finished)));
        reportWrittenNanos = System.nanoTime();
        reportTookNanos = reportWrittenNanos - began;
    }

    /** The run's archives, from the journal's games: written anew (at the start and the end of a run). */
    private void rewriteArchives(List<GameRecord> games) throws RecordsNotWritten {
        StringBuilder kif = new StringBuilder();
        StringBuilder sfen = new StringBuilder();
        for (GameRecord record : games) {
            kif.append(Kif.write(record, plan.spec().name())).append('\n');
            sfen.append(sfenLine(record)).append('\n');
        }
        // each whole or not at all: deleted first and then written, a kill between left neither
        for (var file : Map.of(KIF_ARCHIVE, kif, SFEN_ARCHIVE, sfen).entrySet()) {
            Path archive = dir.resolve(file.getKey());
            writing(archive, () -> writeWhole(archive, file.getValue().toString()));
        }
    }

    /**
     * Appends to the run's archives: {@value #KIF_ARCHIVE}, every game's KIF one after another (as
     * in games/), and {@value #SFEN_ARCHIVE}, a game per line: its start SFEN and its moves in USI, then
     * after {@code #} its id, engines and result (the form of an opening-suite line).
     */
    private void appendToArchives(String kif, String sfen) throws RecordsNotWritten {
        for (var file : Map.of(KIF_ARCHIVE, kif, SFEN_ARCHIVE, sfen).entrySet()) {
            Path archive = dir.resolve(file.getKey());
            writing(
                    archive,
                    () -> Files.writeString(
                            archive,
                            file.getValue(),
                            StandardCharsets.UTF_8,
                            StandardOpenOption.CREATE,
                            StandardOpenOption.APPEND));
        }
    }

    /** {@code <start SFEN> moves m1 m2 ... # r1-p1-g1 a vs b: a wins by checkmate}. */
    static String sfenLine(GameRecord record) {
        StringBuilder line = new StringBuilder(record.startSfen());
        if (!record.moves().isEmpty()) {
            line.append(" moves");
            for (var move : record.moves()) {
                line.append(" ").append(move.move());
            }
        }
        return line.append(" # ")
                .append(record.id())
                .append(' ')
                .append(record.assignment().sente())
                .append(" vs ")
                .append(record.assignment().gote())
                .append(": ")
                .append(record.winner() == null ? "draw" : record.winner() + " wins")
                .append(" by ")
                .append(record.outcome().termination().name().toLowerCase(Locale.ROOT))
                .toString();
    }

    private String tail(Standings standings) throws IOException {
        return "\n],\n\"standings\":" + mapper.writeValueAsString(standingsJson(standings))
                + (plan.spec().entrants().size() == 2 && standings != null
                        ? ",\n\"match\":" + mapper.writeValueAsString(matchJson(standings))
                        : "")
                + (run.league().isPresent()
                        ? ",\n\"league\":"
                                + mapper.writeValueAsString(LeagueReport.json(
                                        mapper.createObjectNode(), run.league().get()))
                        : "")
                + (run.formatOutcome().isEmpty()
                        ? "" // a Swiss's table with its byes, a knockout's bracket and winner, under the format's id
                        : ",\n\"" + plan.spec().format().id() + "\":" + mapper.writeValueAsString(run.formatOutcome()))
                + "}\n";
    }

    private ObjectNode tournament() {
        TournamentSpec s = plan.spec();
        ObjectNode t = mapper.createObjectNode();
        t.put("name", s.name());
        t.put("variant", s.variant().name());
        t.put("format", s.format().id());
        // a knockout's rounds are its bracket's (a bracket of the next power of two, byes for the best seeds)
        t.put(
                "rounds",
                s.format() == Format.KNOCKOUT
                        ? 32 - Integer.numberOfLeadingZeros(s.entrants().size() - 1)
                        : s.rounds());
        t.put("games_per_pairing", s.gamesPerPairing());
        t.put("seed", s.seed());
        ArrayNode entrants = t.putArray("engines");
        for (var entrant : s.entrants()) {
            ObjectNode e = entrants.addObject();
            e.put("name", entrant.name());
            e.put("engine", entrant.engineId());
            e.put("time_control", entrant.timeControl().toString());
            if (!entrant.rounds().equals(dev.taikai.tournament.Entrant.Rounds.ALL)) { // a league's from/until
                e.put("from_round", entrant.rounds().from());
                if (entrant.rounds().until() > 0) {
                    e.put("until_round", entrant.rounds().until());
                }
            }
        }
        return t;
    }

    private ArrayNode standingsJson(Standings standings) {
        ArrayNode rows = mapper.createArrayNode();
        if (standings == null) {
            return rows;
        }
        for (Standings.Row row : standings.table()) {
            ObjectNode r = rows.addObject();
            r.put("rank", row.rank());
            r.put("engine", row.engine());
            r.put("games", row.games());
            r.put("points", row.points());
            r.put("wins", row.wdl().wins());
            r.put("draws", row.wdl().draws());
            r.put("losses", row.wdl().losses());
            putNumber(r, "elo", row.elo());
            putNumber(r, "elo_error", row.eloError());
            ObjectNode terminations = r.putObject("terminations");
            for (Map.Entry<Termination, Integer> e :
                    standings.terminations(row.engine()).entrySet()) {
                terminations.put(e.getKey().name().toLowerCase(Locale.ROOT), e.getValue());
            }
            var use = standings.clockUse(row.engine());
            ObjectNode clock = r.putObject("clock");
            clock.put("moves", use.moves());
            clock.put("moves_over_allowance", use.movesOver());
            clock.put("max_overrun_ms", Math.round(use.largestOverrunNanos() / 1000.0) / 1000.0);
            clock.put("moves_excused_for_cpu_wait", use.movesExcused());
            clock.put("time_losses", use.timeLosses());
            clock.put("time_losses_without_a_move", use.silentTimeLosses());
            if (use.aMarginWouldHelp()) {
                clock.put("saving_margin_ms", use.savingMarginMillis());
            }
        }
        return rows;
    }

    private ObjectNode matchJson(Standings standings) {
        String first = plan.spec().entrants().get(0).name();
        String second = plan.spec().entrants().get(1).name();
        ObjectNode m = mapper.createObjectNode();
        m.put("engine", first);
        m.put("opponent", second);
        var wdl = standings.between(first, second);
        EloInterval elo = EloInterval.of(wdl);
        putNumber(m, "elo", elo.elo());
        if (Double.isInfinite(elo.elo())) { // null above, as every infinite number; its sign is said here
            m.put("elo_infinite", elo.elo() > 0 ? 1 : -1);
        }
        // no interval (null) where the report says there is none: one game, or games all alike
        boolean interval = elo.defined(wdl.games());
        m.put("elo_interval", interval); // with an interval, a null end is infinite (both: -inf to +inf)
        putNumber(m, "elo_error", interval ? elo.error() : Double.NaN);
        putNumber(m, "elo_lower", interval ? elo.lower() : Double.NaN);
        putNumber(m, "elo_upper", interval ? elo.upper() : Double.NaN);
        putNumber(m, "los", wdl.los());
        putNumber(m, "draw_ratio", wdl.drawRatio());
        List<Pentanomial> path = standings.pentanomialPath(first, second);
        Pentanomial pairs = path.isEmpty() ? Pentanomial.EMPTY : path.get(path.size() - 1);
        ArrayNode counts = m.putArray("pentanomial");
        for (long count : pairs.counts()) {
            counts.add(count);
        }
        if (pairs.pairs() > 0) {
            EloInterval pairElo = EloInterval.of(pairs);
            putNumber(m, "pentanomial_elo", pairElo.elo());
            boolean pairInterval = pairElo.defined(pairs.pairs());
            putNumber(m, "pentanomial_elo_lower", pairInterval ? pairElo.lower() : Double.NaN);
            putNumber(m, "pentanomial_elo_upper", pairInterval ? pairElo.upper() : Double.NaN);
            putNumber(m, "normalized_elo", pairs.normalizedElo());
        }
        Sprt sprt = plan.spec().sprt();
        if (sprt != null) {
            ObjectNode s = m.putObject("sprt");
            double llr = sprt.llr(pairs);
            s.put("llr", llr);
            s.put("lower_bound", sprt.lowerBound());
            s.put("upper_bound", sprt.upperBound());
            s.put("elo0", sprt.elo0());
            s.put("elo1", sprt.elo1());
            s.put("alpha", sprt.alpha());
            s.put("beta", sprt.beta());
            Sprt.Verdict verdict = sprtVerdict = sprt.verdict(path, sprtVerdict);
            s.put("status", verdict.status().name());
            if (verdict.status() != Sprt.Status.CONTINUE) {
                s.put("crossed_after_pairs", verdict.pairs());
                s.put("llr_at_crossing", verdict.llr());
            }
        }
        return m;
    }

    /** {@code value} at full precision (the report rounds, files do not), or null where it is not finite. */
    static void putNumber(ObjectNode node, String key, double value) {
        if (Double.isFinite(value)) {
            node.put(key, value);
        } else {
            node.putNull(key);
        }
    }

    @Override
    public synchronized void close() throws IOException {
        try (lock) {
            closeFiles();
        }
    }

    /** Closes the journal and results.json (the folder's lock is the caller's). */
    private void closeFiles() throws IOException {
        try (RandomAccessFile open = results) {
            journal.close();
        }
    }
}
