package dev.taikai.cli.run;

import dev.taikai.enginehost.config.ConfigException;
import dev.taikai.referee.game.GameRecord;
import dev.taikai.tournament.run.Counted;
import dev.taikai.tournament.run.TournamentRun;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * The records folder of {@code taikai run} (results.json, games/*.kif, taikai.log, the journal) written
 * in one go for a tournament the cluster played: its records are counted again by the same tournament
 * core, so that the folder and the report are those of a local run of the same games. The folder
 * remembers the cluster's tournament id ({@code cluster.txt}): it is written again for that tournament,
 * and refused to any other run.
 */
public final class RecordsFolder {
    /** The cluster tournament whose records the folder holds. */
    static final String TOURNAMENT_ID = "cluster.txt";

    private RecordsFolder() {}

    /**
     * Refuses an output folder that holds the games of another run (one on this machine, or another cluster
     * tournament than {@code tournamentId}, which is null before the tournament is created), and one that
     * cannot be made; makes it.
     */
    public static void checkFree(RunPlan plan, String tournamentId) throws ConfigException, IOException {
        Path dir = plan.output();
        if (Files.exists(dir) && !Files.isDirectory(dir)) {
            throw new ConfigException(
                    "output " + dir + " is a file; the records need a folder (the file's 'output:' or --out DIR)");
        }
        try {
            Files.createDirectories(dir); // now, as 'taikai run' does: not after the tournament has played
        } catch (IOException e) {
            throw new ConfigException("cannot create the records folder " + dir + ": " + RunRecords.reason(dir, e));
        }
        Path journal = dir.resolve("games.jsonl");
        if (!Files.exists(journal) || Files.size(journal) == 0) {
            return;
        }
        Optional<String> owner = owner(dir);
        if (tournamentId == null || owner.isEmpty() || !owner.get().equals(tournamentId)) {
            throw new ConfigException("output " + dir + " already holds the games of "
                    + owner.map(id -> "cluster tournament " + id).orElse("a run on this machine")
                    + "; choose another folder (--out DIR, or the file's 'output:') or remove it");
        }
    }

    private static Optional<String> owner(Path dir) throws IOException {
        Path file = dir.resolve(TOURNAMENT_ID);
        return Files.exists(file)
                ? Optional.of(Files.readString(file, StandardCharsets.UTF_8).trim())
                : Optional.empty();
    }

    /**
     * Writes the folder of cluster tournament {@code tournamentId} from {@code run} (restored to the
     * tournament's published stop and league changes, nothing counted yet) and every record the cluster
     * counted, in its order, and prints the report as {@code taikai run} does.
     *
     * @return a line for each record the local count did not take (none when the cores agree)
     */
    /** Where a cluster's engine logs come from: a game's gzip-compressed log by local id, if it has one. */
    @FunctionalInterface
    public interface EngineLogSource {
        EngineLogSource NONE = gameId -> Optional.empty();

        Optional<byte[]> log(String gameId) throws IOException;
    }

    public static List<String> write(
            RunPlan plan, TournamentRun run, String tournamentId, List<GameRecord> records, PrintWriter out)
            throws IOException, ConfigException {
        return write(plan, run, tournamentId, records, EngineLogSource.NONE, out);
    }

    /** As {@link #write(RunPlan, TournamentRun, String, List, PrintWriter)}, with each counted game's log. */
    public static List<String> write(
            RunPlan plan,
            TournamentRun run,
            String tournamentId,
            List<GameRecord> records,
            EngineLogSource logs,
            PrintWriter out)
            throws IOException, ConfigException {
        checkFree(plan, tournamentId);
        List<String> warnings = new ArrayList<>();
        int logged = 0;
        // cleared with the folder's lock held: a second fetch into it is refused before it removes anything
        try (RunRecords folder = RunRecords.open(plan, run, null, RecordsFolder::clear)) {
            Files.writeString(plan.output().resolve(TOURNAMENT_ID), tournamentId + "\n", StandardCharsets.UTF_8);
            for (GameRecord record : records) {
                String[] why = {""};
                Counted counted = run.count(record, reason -> why[0] = reason);
                if (counted == Counted.COUNTED) {
                    folder.write(record, run.standings());
                    Optional<byte[]> log = logs.log(record.id());
                    if (log.isPresent()) {
                        folder.writeEngineLog(record.id(), log.get());
                        logged++;
                    }
                } else {
                    warnings.add("game " + record.id() + " was not counted here ("
                            + counted.name().toLowerCase(Locale.ROOT) + (why[0].isEmpty() ? "" : ": " + why[0])
                            + ")");
                }
            }
            folder.finish(run.standings());
            Report.print(out, plan.spec(), run.standings());
            run.league().ifPresent(league -> LeagueReport.print(out, league, run.dropped()));
            if (!run.summary().isEmpty()) {
                out.println();
                run.summary().forEach(out::println);
            }
            out.printf(
                    "%nRecords: %s (results.json, games/*.kif, all-games.kif, all-games.sfen, taikai.log, report.html%s)%n",
                    folder.directory(),
                    logged == 0 ? "" : ", logs/*.log.gz: " + Plural.of(logged, "engine log", "engine logs"));
        }
        return warnings;
    }

    /** Removes what an earlier write of the same tournament left. */
    private static void clear(Path dir) throws IOException {
        for (String name : List.of("games.jsonl", "results.json", "taikai.log", "tournament.txt")) {
            Files.deleteIfExists(dir.resolve(name));
        }
        for (String folder : List.of("games", "logs")) {
            Path files = dir.resolve(folder);
            if (Files.isDirectory(files)) {
                try (Stream<Path> each = Files.list(files)) {
                    for (Path file : each.toList()) {
                        Files.deleteIfExists(file);
                    }
                }
            }
        }
    }
}
