package dev.taikai.tournament.run;

import dev.taikai.referee.game.GameAssignment;
import dev.taikai.referee.game.GameRecord;
import dev.taikai.tournament.Entrant;
import dev.taikai.tournament.Schedule;
import dev.taikai.tournament.TournamentSpec;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A Swiss tournament: {@code rounds} rounds, each paired when the last is complete.
 *
 * <ul>
 *   <li>The engines are ranked by score (points from games, and a bye's points), ties by seed (the
 *       entrants' order). Each in turn, best first, is paired with the best-ranked engine left that it
 *       has not met; when that leaves someone without an opponent, the search backs up (so no pairing
 *       repeats for as long as one can be avoided; past that, pairings that met least often are allowed).
 *   <li>With an odd number, one engine has a bye: of those with fewest byes, the lowest ranked whose bye
 *       leaves the rest pairable. A bye scores as a won pairing (one point per game) and is no game: it is
 *       in the Swiss table, not in the ratings.
 *   <li>A pairing plays {@code games} games, colours swapped from game to game; its first sente is the
 *       engine that has been sente less often (the better ranked when equal).
 * </ul>
 */
final class SwissPairer implements Pairer {
    /** Pairings searched per round before pairings that met more often are allowed. */
    private static final int SEARCH_BUDGET = 2_000_000;

    private final TournamentSpec spec;
    private final List<String> seeds;
    private final Map<String, Double> score = new HashMap<>();
    private final Map<String, Integer> byes = new HashMap<>();
    private final Map<String, Integer> sente = new HashMap<>();
    private final Map<String, Integer> met = new HashMap<>();
    private int round;
    /** Game pairs handed out in earlier rounds: the next round's first opening (Schedule.roundGame). */
    private int pairsOpened;

    private int paired;
    private int counted;
    private int budget;

    SwissPairer(TournamentSpec spec) {
        this.spec = spec;
        this.seeds = spec.entrants().stream().map(Entrant::name).toList();
        for (String engine : seeds) {
            score.put(engine, 0.0);
            byes.put(engine, 0);
            sente.put(engine, 0);
        }
    }

    @Override
    public List<GameAssignment> next() {
        if (round >= spec.rounds()) {
            return List.of();
        }
        round++;
        List<String> ranked = ranking();
        List<String[]> pairings = null;
        String bye = null;
        for (int allowed = 0; pairings == null; allowed++) {
            // without repeats, look ahead: keep the later rounds pairable without repeats too
            int roundsAfter = allowed == 0 ? spec.rounds() - round : 0;
            for (String candidate : byeCandidates(ranked, byes)) {
                if (candidate != null && byes.get(candidate) > java.util.Collections.min(byes.values())) {
                    break; // a repeated pairing rather than a second bye while someone has had none
                }
                List<String> rest = new ArrayList<>(ranked);
                rest.remove(candidate);
                pairings = pairRound(rest, allowed, candidate, roundsAfter);
                if (pairings != null) {
                    bye = candidate;
                    break;
                }
            }
        }
        if (bye != null) {
            byes.merge(bye, 1, Integer::sum);
            score.merge(bye, (double) spec.gamesPerPairing(), Double::sum);
        }
        List<GameAssignment> games = new ArrayList<>();
        for (int p = 0; p < pairings.size(); p++) {
            String a = pairings.get(p)[0];
            String b = pairings.get(p)[1];
            met.merge(key(a, b), 1, Integer::sum);
            String first = sente.get(b) < sente.get(a) ? b : a;
            String second = first.equals(a) ? b : a;
            for (int g = 1; g <= spec.gamesPerPairing(); g++) {
                String s = g % 2 == 1 ? first : second;
                String o = g % 2 == 1 ? second : first;
                sente.merge(s, 1, Integer::sum);
                int openingPair = Schedule.openingPair(pairsOpened, p, Schedule.pairsOf(spec.gamesPerPairing()), g);
                games.add(Schedule.roundGame(spec, round, p + 1, g, spec.entrant(s), spec.entrant(o), openingPair));
            }
        }
        pairsOpened += pairings.size() * Schedule.pairsOf(spec.gamesPerPairing());
        paired += games.size();
        return games;
    }

    /**
     * Who may have the bye, in the order to try: of those with fewest byes, the lowest ranked first; a
     * single null (no bye) for an even field.
     */
    private static List<String> byeCandidates(List<String> ranked, Map<String, Integer> byes) {
        if (ranked.size() % 2 == 0) {
            return java.util.Collections.singletonList(null);
        }
        List<String> candidates = new ArrayList<>(ranked);
        java.util.Collections.reverse(candidates);
        candidates.sort(Comparator.comparingInt(byes::get)); // stable: fewest byes, then lowest ranked
        return candidates;
    }

    /**
     * Pairs {@code ranked} top down, no pairing met more than {@code allowed} times before, and (looking
     * {@code roundsAfter} rounds ahead) only so that the rounds after can still be paired without
     * repeats; null when there is no such pairing. A search that runs out of budget takes the best
     * pairing found without the look-ahead.
     */
    private List<String[]> pairRound(List<String> ranked, int allowed, String bye, int roundsAfter) {
        budget = SEARCH_BUDGET;
        List<String[]> pairings = new ArrayList<>();
        Map<String, Integer> byesAfter = new HashMap<>(byes);
        if (bye != null) {
            byesAfter.merge(bye, 1, Integer::sum);
        }
        java.util.function.BooleanSupplier later = () -> {
            if (roundsAfter == 0 || budget < 0) {
                return true;
            }
            return asIfPlayed(pairings, () -> pairable(roundsAfter, byesAfter));
        };
        return search(new ArrayList<>(ranked), allowed, pairings, later) ? pairings : null;
    }

    /** {@code question}'s answer with {@code pairings} counted as met, and not counted afterwards. */
    private boolean asIfPlayed(List<String[]> pairings, java.util.function.BooleanSupplier question) {
        for (String[] p : pairings) {
            met.merge(key(p[0], p[1]), 1, Integer::sum);
        }
        try {
            return question.getAsBoolean();
        } finally {
            for (String[] p : pairings) {
                met.merge(key(p[0], p[1]), -1, Integer::sum);
            }
        }
    }

    /** True when {@code rounds} more rounds can be paired with no pairing met before (or the budget ran out). */
    private boolean pairable(int rounds, Map<String, Integer> byesNow) {
        if (rounds == 0 || budget < 0) {
            return true;
        }
        for (String bye : byeCandidates(seeds, byesNow)) {
            if (bye != null && byesNow.get(bye) > java.util.Collections.min(byesNow.values())) {
                break; // only those with fewest byes may have the next, as in next()
            }
            List<String> rest = new ArrayList<>(seeds);
            rest.remove(bye);
            Map<String, Integer> byesAfter = new HashMap<>(byesNow);
            if (bye != null) {
                byesAfter.merge(bye, 1, Integer::sum);
            }
            List<String[]> pairings = new ArrayList<>();
            java.util.function.BooleanSupplier later =
                    () -> asIfPlayed(pairings, () -> pairable(rounds - 1, byesAfter));
            if (search(rest, 0, pairings, later)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Pairs {@code left} in order, each first engine with the first possible partner, backing up where
     * that leaves no partner; a complete pairing stands only when {@code complete} agrees.
     */
    private boolean search(
            List<String> left, int allowed, List<String[]> pairings, java.util.function.BooleanSupplier complete) {
        if (left.isEmpty()) {
            return complete.getAsBoolean();
        }
        if (--budget < 0 && pairings.isEmpty()) {
            return false;
        }
        String first = left.remove(0);
        for (int i = 0; i < left.size(); i++) {
            String candidate = left.get(i);
            if (met.getOrDefault(key(first, candidate), 0) > allowed) {
                continue;
            }
            left.remove(i);
            pairings.add(new String[] {first, candidate});
            if (search(left, allowed, pairings, complete)) {
                return true;
            }
            pairings.remove(pairings.size() - 1);
            left.add(i, candidate);
        }
        left.add(0, first);
        return false;
    }

    private static String key(String a, String b) {
        return a.compareTo(b) < 0 ? a + "\u0000" + b : b + "\u0000" + a;
    }

    /** By score, best first; ties by seed. */
    private List<String> ranking() {
        List<String> ranked = new ArrayList<>(seeds);
        ranked.sort(Comparator.comparingDouble((String e) -> -score.get(e)).thenComparingInt(seeds::indexOf));
        return ranked;
    }

    @Override
    public void counted(GameAssignment game, GameRecord record) {
        double s = record.scoreOf(game.sente());
        score.merge(game.sente(), s, Double::sum);
        score.merge(game.gote(), 1 - s, Double::sum);
        counted++;
    }

    @Override
    public boolean complete() {
        return round == spec.rounds() && counted == paired;
    }

    @Override
    public String finishedDetail() {
        return "all " + spec.rounds() + " rounds played";
    }

    @Override
    public Entrant entrant(String name) {
        return spec.entrant(name);
    }

    /** How many times {@code a} and {@code b} have been paired. */
    int timesPaired(String a, String b) {
        return met.getOrDefault(key(a, b), 0);
    }

    /** Byes {@code engine} has had. */
    int byes(String engine) {
        return byes.get(engine);
    }

    @Override
    public Map<String, Object> outcome() {
        List<Object> table = new ArrayList<>();
        int rank = 0;
        for (String engine : ranking()) {
            Map<String, Object> row = new java.util.LinkedHashMap<>();
            row.put("rank", ++rank);
            row.put("engine", engine);
            row.put("score", score.get(engine));
            row.put("byes", byes.get(engine));
            table.add(row);
        }
        Map<String, Object> outcome = new java.util.LinkedHashMap<>();
        outcome.put("after_rounds", round);
        outcome.put("table", table);
        return outcome;
    }

    @Override
    public List<String> summary() {
        List<String> lines = new ArrayList<>();
        lines.add(String.format(Locale.ROOT, "Swiss table after %d rounds (a bye scores as a won pairing)", round));
        int rank = 0;
        for (String engine : ranking()) {
            lines.add(String.format(
                    Locale.ROOT,
                    "%4d  %-20s %6.1f%s",
                    ++rank,
                    engine,
                    score.get(engine),
                    byes.get(engine) > 0
                            ? "  (" + byes.get(engine) + (byes.get(engine) == 1 ? " bye)" : " byes)")
                            : ""));
        }
        return lines;
    }
}
