package dev.taikai.tournament.run;

import dev.taikai.referee.game.GameAssignment;
import dev.taikai.referee.game.GameRecord;
import dev.taikai.tournament.Entrant;
import dev.taikai.tournament.Schedule;
import dev.taikai.tournament.TournamentSpec;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Single elimination, as cutechess's knockout: the entrants' order is the seeding, and the bracket is
 * the standard one (seed 1 meets the last seed, and 1 and 2 can meet only in the final); with a field
 * that is not a power of two the best seeds have a bye in round 1.
 *
 * <p>A match is its pairing's {@code games} games (colours swapped from game to game, the better seed
 * sente first). The engine with more points goes through. Tied, the match goes on with tiebreak pairs
 * of two games (colours swapped, an opening of their own), at most {@value #TIEBREAK_PAIRS}; still tied,
 * the better seed goes through. Game ids are {@code r<round>-p<match>-g<game>}, tiebreak games numbered
 * on from the match's last pair (after an odd number of games one number is skipped: {@code g1}, then
 * {@code g3}, {@code g4}).
 */
final class KnockoutPairer implements Pairer {
    /** Tiebreak pairs a tied match plays before the better seed goes through. */
    static final int TIEBREAK_PAIRS = 2;

    /** One match of the bracket: its engines (better seed first), points and games. */
    private static final class Match {
        final int number;
        final String high;
        final String low;
        double highPoints;
        double lowPoints;
        int games;
        int counted;
        int tiebreakPairs;
        String winner;
        String how = "";

        Match(int number, String high, String low) {
            this.number = number;
            this.high = high;
            this.low = low;
        }
    }

    private final TournamentSpec spec;
    private final List<String> seeds;
    private final List<List<Match>> rounds = new ArrayList<>();
    /** Each round's first opening number; a round takes a block for its matches' pairs and tiebreak pairs. */
    private final List<Integer> roundOpenings = new ArrayList<>();

    private int pairsOpened;
    private final Map<String, Match> byGame = new HashMap<>();
    private String champion;

    KnockoutPairer(TournamentSpec spec) {
        this.spec = spec;
        this.seeds = spec.entrants().stream().map(Entrant::name).toList();
    }

    /** Seed numbers (1-based) in bracket order for a bracket of {@code size}, a power of two. */
    static List<Integer> bracket(int size) {
        List<Integer> order = new ArrayList<>(List.of(1));
        while (order.size() < size) {
            List<Integer> next = new ArrayList<>();
            int m = order.size() * 2;
            for (int seed : order) {
                next.add(seed);
                next.add(m + 1 - seed);
            }
            order = next;
        }
        return order;
    }

    @Override
    public List<GameAssignment> next() {
        if (champion != null) {
            return List.of();
        }
        if (rounds.isEmpty()) {
            return firstRound();
        }
        List<Match> current = rounds.get(rounds.size() - 1);
        List<GameAssignment> tiebreaks = new ArrayList<>();
        for (Match match : current) {
            if (match.winner == null) {
                tiebreaks.addAll(decide(match));
            }
        }
        if (!tiebreaks.isEmpty()) {
            return tiebreaks;
        }
        List<String> winners = current.stream().map(m -> m.winner).toList();
        if (winners.size() == 1) {
            champion = winners.get(0);
            return List.of();
        }
        List<Match> round = new ArrayList<>();
        for (int i = 0; i < winners.size(); i += 2) {
            String a = winners.get(i);
            String b = winners.get(i + 1);
            boolean aBetter = seeds.indexOf(a) < seeds.indexOf(b);
            round.add(new Match(i / 2 + 1, aBetter ? a : b, aBetter ? b : a));
        }
        addRound(round);
        return games(round);
    }

    private List<GameAssignment> firstRound() {
        int size = Integer.highestOneBit(seeds.size() - 1) * 2;
        List<Integer> order = bracket(Math.max(2, size));
        List<Match> round = new ArrayList<>();
        for (int i = 0; i < order.size(); i += 2) {
            String high = seeds.get(order.get(i) - 1);
            int low = order.get(i + 1);
            Match match = new Match(i / 2 + 1, high, low <= seeds.size() ? seeds.get(low - 1) : null);
            if (match.low == null) {
                match.winner = high;
                match.how = "bye";
            }
            round.add(match);
        }
        addRound(round);
        return games(round);
    }

    private List<GameAssignment> games(List<Match> round) {
        List<GameAssignment> games = new ArrayList<>();
        for (Match match : round) {
            if (match.low != null) {
                games.addAll(more(match, spec.gamesPerPairing()));
            }
        }
        return games;
    }

    /** Decides a match whose games are all counted, or gives its next tiebreak pair. */
    private List<GameAssignment> decide(Match match) {
        if (match.highPoints != match.lowPoints) {
            match.winner = match.highPoints > match.lowPoints ? match.high : match.low;
            match.how = points(match);
            return List.of();
        }
        if (match.tiebreakPairs < TIEBREAK_PAIRS) {
            match.tiebreakPairs++;
            if (match.games % 2 == 1) {
                // after an odd number of games the next number is the second of the last game's pair: a
                // tiebreak pair starts at the next pair's first, so it has an opening of its own
                match.games++;
            }
            return more(match, 2);
        }
        match.winner = match.high;
        match.how = points(match) + ", tied after " + TIEBREAK_PAIRS + " tiebreak pairs: the better seed";
        return List.of();
    }

    private List<GameAssignment> more(Match match, int count) {
        List<GameAssignment> games = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            int g = ++match.games;
            String sente = g % 2 == 1 ? match.high : match.low;
            String gote = g % 2 == 1 ? match.low : match.high;
            GameAssignment game = Schedule.roundGame(
                    spec,
                    rounds.size(),
                    match.number,
                    g,
                    spec.entrant(sente),
                    spec.entrant(gote),
                    openingPair(match, g));
            byGame.put(game.gameId(), match);
            games.add(game);
        }
        return games;
    }

    private void addRound(List<Match> round) {
        rounds.add(round);
        roundOpenings.add(pairsOpened);
        pairsOpened += round.size() * (Schedule.pairsOf(spec.gamesPerPairing()) + TIEBREAK_PAIRS);
    }

    /**
     * The opening number of game {@code g} of {@code match} in the current round: the match's pairs one
     * after another, then the round's tiebreak pairs, first tiebreaks of every match before second ones,
     * so that the numbers do not depend on which match ends tied first.
     */
    private int openingPair(Match match, int g) {
        int start = roundOpenings.get(roundOpenings.size() - 1);
        int matches = rounds.get(rounds.size() - 1).size();
        int perMatch = Schedule.pairsOf(spec.gamesPerPairing());
        int pair = (g - 1) / 2;
        return pair < perMatch
                ? Schedule.openingPair(start, match.number - 1, perMatch, g)
                : start + matches * perMatch + (pair - perMatch) * matches + (match.number - 1);
    }

    private static String points(Match match) {
        return String.format(Locale.ROOT, "%s-%s", score(match.highPoints), score(match.lowPoints));
    }

    private static String score(double points) {
        return points == Math.rint(points) ? String.valueOf((long) points) : String.valueOf(points);
    }

    @Override
    public void counted(GameAssignment game, GameRecord record) {
        Match match = byGame.get(game.gameId());
        double s = record.scoreOf(game.sente());
        if (game.sente().equals(match.high)) {
            match.highPoints += s;
            match.lowPoints += 1 - s;
        } else {
            match.lowPoints += s;
            match.highPoints += 1 - s;
        }
        match.counted++;
    }

    /** The spec's games and the tiebreak pairs' games paired so far: the spec counts each match's pairing games only. */
    @Override
    public int gamesExpected(int fromTheSpec) {
        return fromTheSpec
                + rounds.stream()
                        .flatMap(List::stream)
                        .mapToInt(match -> 2 * match.tiebreakPairs)
                        .sum();
    }

    @Override
    public boolean complete() {
        return champion != null;
    }

    @Override
    public String finishedDetail() {
        return "the knockout is decided: " + champion + " won";
    }

    @Override
    public Entrant entrant(String name) {
        return spec.entrant(name);
    }

    /** The winner, once the final is decided. */
    String champion() {
        return champion;
    }

    @Override
    public Map<String, Object> outcome() {
        List<Object> bracket = new ArrayList<>();
        for (List<Match> round : rounds) {
            List<Object> matches = new ArrayList<>();
            for (Match match : round) {
                Map<String, Object> m = new java.util.LinkedHashMap<>();
                m.put("high_seed", match.high);
                m.put("low_seed", match.low); // null: a bye
                m.put("high_points", match.highPoints);
                m.put("low_points", match.lowPoints);
                m.put("games", match.counted);
                m.put("winner", match.low == null ? match.high : match.winner); // null while it is played
                m.put("how", match.low == null ? "bye" : match.how);
                matches.add(m);
            }
            bracket.add(matches);
        }
        Map<String, Object> outcome = new java.util.LinkedHashMap<>();
        outcome.put("rounds", bracket);
        outcome.put("winner", champion);
        return outcome;
    }

    @Override
    public List<String> summary() {
        List<String> lines = new ArrayList<>();
        lines.add("Knockout bracket (the better seed first; " + TIEBREAK_PAIRS
                + " tiebreak pairs at most, then the better seed)");
        for (int r = 0; r < rounds.size(); r++) {
            lines.add("  Round " + (r + 1));
            for (Match match : rounds.get(r)) {
                lines.add(
                        match.low == null
                                ? "    " + match.high + ": bye"
                                : String.format(
                                        Locale.ROOT,
                                        "    %s vs %s: %s",
                                        match.high,
                                        match.low,
                                        match.winner == null
                                                ? points(match) + " (playing)"
                                                : match.winner + " through, " + match.how));
            }
        }
        if (champion != null) {
            lines.add("  Winner: " + champion);
        }
        return lines;
    }
}
