package dev.taikai.tournament;

import java.util.Locale;
import java.util.Optional;

/** How entrants are paired. */
public enum Format {
    /** Every entrant against every other, each round. */
    ROUND_ROBIN("round-robin"),
    /** The first {@code seeds} entrants against each of the others; seeds do not meet. */
    GAUNTLET("gauntlet"),
    /** Exactly two entrants; SPRT may stop it early. */
    MATCH("match"),
    /**
     * A continuous rating league: the entrants are the first pool, engines join and leave, and each round
     * is paired by rating ({@link dev.taikai.tournament.league.League}); on one machine or a cluster.
     */
    LEAGUE("league"),
    /**
     * {@code rounds} rounds, each paired by score (best with best) with no pairing repeated while it can
     * be avoided, and a bye for the lowest-placed engine that has had fewest ({@code run.SwissPairer}).
     */
    SWISS("swiss"),
    /**
     * Single elimination by seed (the entrants' order): each match is a pairing's games, then tiebreak
     * pairs while tied, then the better seed ({@code run.KnockoutPairer}).
     */
    KNOCKOUT("knockout");

    private final String id;

    Format(String id) {
        this.id = id;
    }

    public String id() {
        return id;
    }

    public static Optional<Format> byId(String id) {
        String wanted = id.toLowerCase(Locale.ROOT);
        for (Format format : values()) {
            if (format.id.equals(wanted)) {
                return Optional.of(format);
            }
        }
        return Optional.empty();
    }
}
