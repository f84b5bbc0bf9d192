package dev.taikai.cli.run;

import dev.taikai.enginehost.catalog.Catalog;
import dev.taikai.enginehost.catalog.EngineSpec;
import dev.taikai.tournament.Entrant;
import dev.taikai.tournament.Format;
import dev.taikai.tournament.TournamentSpec;
import dev.taikai.tournament.league.League;
import dev.taikai.tournament.run.TournamentRun;
import java.nio.file.Path;
import java.util.Optional;

/**
 * A tournament to run on this machine: the spec, the catalog its engine ids refer to, where the records
 * go, whether engines restart for every game (otherwise they are kept until they fail), every how many
 * finished games the standings are shown while it runs (0: only at the end), and whether every line to
 * and from the engines is logged, a compressed file a game ({@link EngineLogs}); for a league, how it
 * pairs and rates ({@link #leagueTuning}: its games per pairing are the spec's).
 */
public record RunPlan(
        TournamentSpec spec,
        Catalog catalog,
        Path output,
        boolean restartEveryGame,
        int ratingInterval,
        boolean engineLogs,
        League.Settings leagueTuning) {
    /** Default time control when a tournament names none. */
    public static final String DEFAULT_TIME_CONTROL = "10 byoyomi 0.1";

    /** Refuses an engine whose options name a file that its entry does not allow (docs/engines.md). */
    public RunPlan {
        if (ratingInterval < 0) {
            throw new IllegalArgumentException(
                    "a rating interval is a number of games, 0 or more, not " + ratingInterval);
        }
        for (Entrant entrant : spec.entrants()) {
            Optional<String> refused = catalog.engine(entrant.engineId())
                    .map(engine -> engine.withOptionsOver(entrant.options()))
                    .flatMap(engine -> engine.unallowedFileOption(engine.options()));
            if (refused.isPresent()) {
                throw new IllegalArgumentException(refused.get());
            }
        }
    }

    /** A plan with the league defaults. */
    public RunPlan(
            TournamentSpec spec,
            Catalog catalog,
            Path output,
            boolean restartEveryGame,
            int ratingInterval,
            boolean engineLogs) {
        this(spec, catalog, output, restartEveryGame, ratingInterval, engineLogs, League.Settings.DEFAULT);
    }

    /** A plan that shows the standings only at the end. */
    public RunPlan(TournamentSpec spec, Catalog catalog, Path output, boolean restartEveryGame) {
        this(spec, catalog, output, restartEveryGame, 0, false);
    }

    /** The most games a local run plays at once (a slot is a thread and up to two engine processes). */
    public static final int MAX_CONCURRENCY = 1024;

    public static int defaultConcurrency() {
        return Math.max(1, Runtime.getRuntime().availableProcessors() - 1);
    }

    /** This plan with its records in {@code folder}. */
    public RunPlan withOutput(Path folder) {
        return new RunPlan(spec, catalog, folder, restartEveryGame, ratingInterval, engineLogs, leagueTuning);
    }

    /** A new run of this plan's tournament, a league with its tuning. */
    public TournamentRun newRun() {
        // on one machine nobody joins a league: one that cannot pair again ends
        return new TournamentRun(spec, leagueSettings()).closedPool();
    }

    /** The league's settings: the tuning, with the spec's games per pairing; the defaults for other formats. */
    public League.Settings leagueSettings() {
        return spec.format() == Format.LEAGUE
                ? new League.Settings(
                        spec.gamesPerPairing(),
                        leagueTuning.rematchPenalty(),
                        leagueTuning.rematchMemory(),
                        leagueTuning.halfLifeRounds())
                : League.Settings.DEFAULT;
    }

    /** The catalog entry of {@code entrant} with the entrant's own options set over the entry's. */
    public EngineSpec engineOf(Entrant entrant) {
        return catalog.engine(entrant.engineId())
                .map(engine -> engine.withOptionsOver(entrant.options()))
                .orElseThrow(() -> new IllegalStateException("no engine '" + entrant.engineId() + "' in the catalog"));
    }

    /**
     * Everything that decides which games are played and what they mean, as {@code key: value} lines
     * ({@link RunSettings}): two runs with the same fingerprint may share a records folder (resume).
     */
    public String fingerprint() {
        return RunSettings.of(this).text();
    }
}
