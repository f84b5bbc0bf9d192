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
    /** The most rounds a tournament has. */
    public static final int MAX_ROUNDS = 1_000_000;
    /** The most games a pairing plays in a round. */
    public static final int MAX_GAMES_PER_PAIRING = 1_000_000;
    /** The most games a tournament with an end may plan (a league without an end plans round by round). */
    public static final long MAX_GAMES = 1_000_000;

    public TournamentSpec {
        entrants = List.copyOf(entrants);
        openings = List.copyOf(openings);
        // the name heads every record (a KIF's 棋戦 line): one line, as the scheduler's API asks
        dev.taikai.enginehost.catalog.EngineText.line("the tournament's name", name, 100);
        if (name.isBlank()) {
            throw new IllegalArgumentException("the tournament's name is empty");
        }
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
        if (rounds > MAX_ROUNDS || gamesPerPairing > MAX_GAMES_PER_PAIRING) {
            throw new IllegalArgumentException("rounds and games per pairing are at most " + MAX_ROUNDS + " each, not "
                    + rounds + " and " + gamesPerPairing);
        }
        long games = gamesAtMost(format, entrants.size(), seeds, rounds, gamesPerPairing);
        if (games > MAX_GAMES) {
            throw new IllegalArgumentException(
                    "the tournament would have up to " + games + " games; at most " + MAX_GAMES);
        }
        if (format == Format.LEAGUE && gamesPerPairing > 2) {
            throw new IllegalArgumentException("a league plays 1 or 2 games per pairing");
        }
        if (sprt != null && format != Format.MATCH) {
            throw new IllegalArgumentException("SPRT needs a two-engine match");
        }
        if (sprt != null && gamesPerPairing % 2 != 0) {
            throw new IllegalArgumentException("SPRT counts game pairs (an opening played with colours swapped): games"
                    + " per pairing must be even, not " + gamesPerPairing);
        }
        for (Opening opening : openings) {
            if (opening.position().variant() != variant) {
                throw new IllegalArgumentException(
                        "an opening is not a " + variant.displayName() + " position: " + opening);
            }
        }
        java.util.Objects.requireNonNull(overrunMargin, "overrunMargin");
    }

    /**
     * The most games a tournament of this shape can play: its rounds times its games per pairing times the
     * pairings of a round ({@code entrants}: the most engines a round may have). A knockout's matches may
     * add up to two tiebreak pairs each; a league without an end ({@code rounds} 0) counts none.
     */
    public static long gamesAtMost(Format format, int entrants, int seeds, int rounds, int gamesPerPairing) {
        long pairings = switch (format) {
            case ROUND_ROBIN -> (long) entrants * (entrants - 1) / 2;
            case GAUNTLET -> (long) seeds * Math.max(0, entrants - seeds);
            case MATCH -> 1;
            case LEAGUE -> entrants / 2;
            case SWISS -> (entrants + 1) / 2;
            // n - 1 matches, each with its games and at most two tiebreak pairs: at most 5 × games each
            case KNOCKOUT -> (long) Math.max(1, entrants - 1) * 5;
        };
        try {
            return Math.multiplyExact(Math.multiplyExact((long) rounds, (long) gamesPerPairing), pairings);
        } catch (ArithmeticException e) {
            return Long.MAX_VALUE;
        }
    }

    /**
     * The games the tournament will have played when it ends, as far as its spec can say: a fixed plan's
     * games; a league's rounds with the engines each round has (0 without an end); a Swiss's rounds of full
     * pairings; a knockout's matches without their tiebreaks. An SPRT may stop it sooner, a failing engine
     * dropped from a league leave it short, and a knockout's tiebreaks add to it.
     */
    public int gamesExpected() {
        long games = switch (format) {
            case LEAGUE -> {
                // the engines in play change only where one joins or leaves: count between those rounds
                java.util.TreeSet<Integer> changes = new java.util.TreeSet<>(List.of(1));
                for (Entrant e : entrants) {
                    changes.add(e.rounds().from());
                    if (e.rounds().until() > 0) {
                        changes.add(e.rounds().until() + 1);
                    }
                }
                long sum = 0;
                for (int first : changes) {
                    if (first > rounds) {
                        break;
                    }
                    Integer next = changes.higher(first);
                    int last = next == null ? rounds : Math.min(rounds, next - 1);
                    long playing = entrants.stream()
                            .filter(e -> e.rounds().includes(first))
                            .count();
                    sum += (long) (last - first + 1) * (playing / 2) * gamesPerPairing;
                }
                yield sum;
            }
            case SWISS -> (long) rounds * (entrants.size() / 2) * gamesPerPairing;
            case KNOCKOUT -> (long) (entrants.size() - 1) * gamesPerPairing;
            default -> gamesAtMost(format, entrants.size(), seeds, rounds, gamesPerPairing);
        };
        return (int) Math.min(games, MAX_GAMES);
    }

    public Entrant entrant(String entrantName) {
        return entrants.stream()
                .filter(e -> e.name().equals(entrantName))
                .findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no entrant named " + entrantName));
    }
}
