package dev.taikai.cli.run;

import dev.taikai.enginehost.catalog.Catalog;
import dev.taikai.enginehost.catalog.EngineSpec;
import dev.taikai.referee.game.Opening;
import dev.taikai.tournament.Entrant;
import dev.taikai.tournament.TournamentSpec;
import java.nio.file.Path;
import java.util.Optional;
import java.util.TreeMap;

/**
 * A tournament to run on this machine: the spec, the catalog its engine ids refer to, where the records
 * go, and whether engines restart for every game (otherwise they are kept until they fail).
 */
public record RunPlan(TournamentSpec spec, Catalog catalog, Path output, boolean restartEveryGame) {
    /** Default time control when a tournament names none. */
    public static final String DEFAULT_TIME_CONTROL = "10 byoyomi 0.1";

    /** Refuses an engine whose options name a file that its entry does not allow (docs/engines.md). */
    public RunPlan {
        for (Entrant entrant : spec.entrants()) {
            Optional<String> refused = catalog.engine(entrant.engineId())
                    .map(engine -> engine.withOptionsOver(entrant.options()))
                    .flatMap(engine -> engine.unallowedFileOption(engine.options()));
            if (refused.isPresent()) {
                throw new IllegalArgumentException(refused.get());
            }
        }
    }

    public static int defaultConcurrency() {
        return Math.max(1, Runtime.getRuntime().availableProcessors() - 1);
    }

    /** The catalog entry of {@code entrant} with the entrant's own options set over the entry's. */
    public EngineSpec engineOf(Entrant entrant) {
        return catalog.engine(entrant.engineId())
                .map(engine -> engine.withOptionsOver(entrant.options()))
                .orElseThrow(() -> new IllegalStateException("no engine '" + entrant.engineId() + "' in the catalog"));
    }

    /**
     * Everything that decides which games are played and what they mean, as text: two runs with the same
     * fingerprint may share an output directory (resume); concurrency and the output path are left out.
     */
    public String fingerprint() {
        StringBuilder out = new StringBuilder();
        TournamentSpec s = spec;
        out.append("name=").append(s.name()).append('\n');
        out.append("variant=").append(s.variant().name()).append('\n');
        out.append("format=")
                .append(s.format().id())
                .append(" seeds=")
                .append(s.seeds())
                .append('\n');
        out.append("rounds=")
                .append(s.rounds())
                .append(" games=")
                .append(s.gamesPerPairing())
                .append('\n');
        for (Entrant entrant : s.entrants()) {
            EngineSpec engine = engineOf(entrant);
            out.append("entrant=")
                    .append(entrant.name())
                    .append(" tc=")
                    .append(entrant.timeControl())
                    .append(" overrun-margin-ms=")
                    .append(entrant.marginMillis(s.overrunMargin()))
                    .append(
                            entrant.rounds().equals(Entrant.Rounds.ALL)
                                    ? ""
                                    : " rounds=" + entrant.rounds().from() + "-"
                                            + entrant.rounds().until())
                    .append(" command=")
                    .append(engine.command())
                    .append(" options=")
                    .append(new TreeMap<>(engine.options()))
                    .append(" quirks=")
                    .append(engine.quirks())
                    .append(" notation=")
                    .append(engine.notation().id())
                    .append(" variant-option=")
                    .append(engine.variantOption())
                    .append('\n');
        }
        for (Opening opening : s.openings()) {
            out.append("opening=").append(opening).append('\n');
        }
        out.append("order=")
                .append(s.randomOrder() ? "random" : "sequential")
                .append(" seed=")
                .append(s.seed())
                .append('\n');
        out.append("adjudication=").append(s.adjudication()).append('\n');
        out.append("sprt=").append(s.sprt()).append('\n');
        return out.toString();
    }
}
