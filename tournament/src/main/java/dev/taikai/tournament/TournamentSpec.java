package dev.taikai.tournament;

import dev.taikai.referee.game.Adjudication;
import dev.taikai.referee.game.Opening;
import dev.taikai.referee.game.OverrunMargin;
import dev.taikai.rules.Variant;
import dev.taikai.tournament.stats.Sprt;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Everything that defines a tournament; {@link Schedule#plan} turns it into the same games every time.
 *
 * @param seeds for a gauntlet: how many of the first entrants are seeds
 * @param gamesPerPairing games per pairing per round; games 2k−1 and 2k share an opening, colours swapped
 * @param openings the opening suite; empty for the variant's start position
 * @param randomOrder openings in an order shuffled by {@code seed} rather than file order
 * @param overrunMargin how far past its allowance an engine's move may end before it loses on time,
 *     for entrants without a margin of their own
 * @param concurrency games played at once
 * @param seed the seed of every random choice
 * @param sprt for a match: stop when the test concludes; null for none
 */
public record TournamentSpec(
        String name,
        Variant variant,
        Format format,
        List<Entrant> entrants,
        int seeds,
        int rounds,
        int gamesPerPairing,
        List<Opening> openings,
        boolean randomOrder,
        OverrunMargin overrunMargin,
        Adjudication adjudication,
        int concurrency,
        long seed,
        Sprt sprt) {
    public TournamentSpec {
        entrants = List.copyOf(entrants);
        openings = List.copyOf(openings);
        if (entrants.size() < 2) {
            throw new IllegalArgumentException("a tournament needs at least two engines, not " + entrants.size());
        }
        Set<String> names = new HashSet<>();
        for (Entrant entrant : entrants) {
            if (!names.add(entrant.name())) {
                throw new IllegalArgumentException("two engines are named '" + entrant.name() + "'; names must differ");
            }
        }
        for (Entrant entrant : entrants) {
            if (format != Format.LEAGUE && !entrant.rounds().equals(Entrant.Rounds.ALL)) {
                throw new IllegalArgumentException(
                        "engine '" + entrant.name() + "': only a league's engines play from or until a round");
            }
            if (rounds > 0 && entrant.rounds().from() > rounds) {
                throw new IllegalArgumentException("engine '" + entrant.name() + "' would join in round "
                        + entrant.rounds().from() + " of a league of " + rounds);
            }
        }
        if (format == Format.LEAGUE
                && entrants.stream().filter(e -> e.rounds().from() == 1).count() < 2) {
            throw new IllegalArgumentException("a league needs at least two engines from its first round");
        }
        if (format == Format.KNOCKOUT && rounds != 1) {
            throw new IllegalArgumentException(
                    "a knockout's rounds follow from its number of engines; leave rounds out (or 1), not " + rounds);
        }
        if (format == Format.MATCH && entrants.size() != 2) {
            throw new IllegalArgumentException("a match needs exactly two engines, not " + entrants.size());
        }
        if (format == Format.GAUNTLET && (seeds < 1 || seeds >= entrants.size())) {
            throw new IllegalArgumentException(
                    "a gauntlet needs between 1 and " + (entrants.size() - 1) + " seeds, not " + seeds);
        }
        if ((rounds < 1 && format != Format.LEAGUE) || rounds < 0 || gamesPerPairing < 1 || concurrency < 1) {
            throw new IllegalArgumentException(
                    "rounds, games per pairing and concurrency must be at least 1 (a league's rounds 0: no end)");
        }
        if (format == Format.LEAGUE && gamesPerPairing > 2) {
            throw new IllegalArgumentException("a league plays 1 or 2 games per pairing");
        }
        if (sprt != null && format != Format.MATCH) {
            throw new IllegalArgumentException("SPRT needs a two-engine match");
        }
        for (Opening opening : openings) {
            if (opening.position().variant() != variant) {
                throw new IllegalArgumentException(
                        "an opening is not a " + variant.displayName() + " position: " + opening);
            }
        }
        java.util.Objects.requireNonNull(overrunMargin, "overrunMargin");
    }

    public Entrant entrant(String entrantName) {
        return entrants.stream()
                .filter(e -> e.name().equals(entrantName))
                .findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no entrant named " + entrantName));
    }
}
