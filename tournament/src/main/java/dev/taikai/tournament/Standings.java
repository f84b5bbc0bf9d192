package dev.taikai.tournament;

import dev.taikai.referee.game.GameRecord;
import dev.taikai.rules.Termination;
import dev.taikai.tournament.stats.Pentanomial;
import dev.taikai.tournament.stats.RatingFit;
import dev.taikai.tournament.stats.Wdl;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The standings of a tournament as a projection of its game records. A record counts once, by its
 * game id: adding the same game again changes nothing (ARCHITECTURE.md, decision 2).
 */
public final class Standings {
    /** The score of one pairing: {@code first}'s results against {@code second}. */
    public record PairingScore(String first, String second, Wdl wdl) {}

    /** One row of the table. */
    public record Row(int rank, String engine, long games, double points, Wdl wdl, double elo, double eloError) {}

    /** The entrants in table order: the tournament's, then any that joined later (a league's). */
    private final List<String> entrants;

    private final Map<String, GameRecord> games = new LinkedHashMap<>();
    /** Each engine's clock use, kept as games are counted (a run's records are rewritten after every game). */
    private final Map<String, ClockUse> clocks = new LinkedHashMap<>();

    public Standings(List<String> entrants) {
        this.entrants = new ArrayList<>(entrants);
    }

    /** Counts {@code record} unless a game with its id was counted already; true when it was new. */
    public synchronized boolean add(GameRecord record) {
        if (games.putIfAbsent(record.id(), record) != null) {
            return false;
        }
        for (String engine :
                List.of(record.assignment().sente(), record.assignment().gote())) {
            clocks.put(engine, clockUse(engine).plus(record));
            if (!entrants.contains(engine)) {
                entrants.add(engine);
            }
        }
        return true;
    }

    /** The engines in table order: the tournament's, then any that joined later (a league's) and played. */
    public synchronized List<String> engines() {
        return List.copyOf(entrants);
    }

    public synchronized boolean contains(String gameId) {
        return games.containsKey(gameId);
    }

    public synchronized int gamesPlayed() {
        return games.size();
    }

    public synchronized List<GameRecord> records() {
        return new ArrayList<>(games.values());
    }

    public synchronized Wdl wdl(String engine) {
        Wdl total = new Wdl(0, 0, 0);
        for (GameRecord game : games.values()) {
            if (plays(game, engine)) {
                total = total.plus(result(game, engine));
            }
        }
        return total;
    }

    /**
     * Every pairing that has played, in entrant order (the first entrant's pairings first): the one view
     * of pairings that the report and the standings message both show.
     */
    public synchronized List<PairingScore> pairings() {
        List<PairingScore> pairings = new ArrayList<>();
        for (int i = 0; i < entrants.size(); i++) {
            for (int j = i + 1; j < entrants.size(); j++) {
                Wdl wdl = between(entrants.get(i), entrants.get(j));
                if (wdl.games() > 0) {
                    pairings.add(new PairingScore(entrants.get(i), entrants.get(j), wdl));
                }
            }
        }
        return pairings;
    }

    /** {@code engine}'s results against {@code opponent}. */
    public synchronized Wdl between(String engine, String opponent) {
        Wdl total = new Wdl(0, 0, 0);
        for (GameRecord game : games.values()) {
            if (plays(game, engine) && plays(game, opponent)) {
                total = total.plus(result(game, engine));
            }
        }
        return total;
    }

    /** Pairs of games between the two (same round, pairing and opening) with both games finished. */
    public synchronized Pentanomial pentanomial(String engine, String opponent) {
        List<Pentanomial> path = pentanomialPath(engine, opponent);
        return path.isEmpty() ? Pentanomial.EMPTY : path.get(path.size() - 1);
    }

    /**
     * The pentanomial counts after each pair of games between the two was complete, in the order the pairs
     * were completed: an SPRT's path (its LLR after each pair).
     */
    public synchronized List<Pentanomial> pentanomialPath(String engine, String opponent) {
        Map<String, Double> firstGames = new LinkedHashMap<>();
        List<Pentanomial> path = new ArrayList<>();
        Pentanomial pairs = Pentanomial.EMPTY;
        for (GameRecord game : games.values()) {
            if (!(plays(game, engine) && plays(game, opponent))) {
                continue;
            }
            var a = game.assignment();
            String key = a.round() + "/" + a.pairing() + "/" + a.pair();
            Double other = firstGames.remove(key);
            if (other == null) {
                firstGames.put(key, game.scoreOf(engine));
            } else {
                pairs = pairs.plus(other, game.scoreOf(engine));
                path.add(pairs);
            }
        }
        return path;
    }

    /**
     * How {@code engine}'s games ended, by termination: for engine failures (time, illegal move,
     * disconnect, stall) and resignations the games it lost that way, otherwise all its games that ended so.
     */
    public synchronized Map<Termination, Integer> terminations(String engine) {
        Map<Termination, Integer> counts = new EnumMap<>(Termination.class);
        for (GameRecord game : games.values()) {
            if (!plays(game, engine)) {
                continue;
            }
            Termination termination = game.outcome().termination();
            boolean byThisEngine = !termination.byRules() && termination != Termination.ADJUDICATION;
            if (!byThisEngine || engine.equals(game.loser())) {
                counts.merge(termination, 1, Integer::sum);
            }
        }
        return counts;
    }

    /** How {@code engine} kept to its clock in the games counted so far. */
    public synchronized ClockUse clockUse(String engine) {
        return clocks.getOrDefault(engine, ClockUse.none(engine));
    }

    /** The maximum-likelihood fit over all games counted so far (see {@link RatingFit}); empty before any. */
    public synchronized Optional<RatingFit.Fit> ratingFit() {
        List<RatingFit.Game> fitGames = new ArrayList<>();
        for (GameRecord game : games.values()) {
            var a = game.assignment();
            fitGames.add(new RatingFit.Game(
                    entrants.indexOf(a.sente()), entrants.indexOf(a.gote()), game.scoreOf(a.sente())));
        }
        return fitGames.isEmpty() ? Optional.empty() : Optional.of(RatingFit.fit(entrants.size(), fitGames));
    }

    /**
     * The table, best first: by rating from the maximum-likelihood fit over all games, then by points; an
     * engine without a game has no rating (NaN) and comes after those that have one.
     */
    public synchronized List<Row> table() {
        RatingFit.Fit fit = ratingFit().orElse(null);
        List<RatingFit.Rating> ratings = fit == null ? null : fit.ratings();
        List<Row> rows = new ArrayList<>();
        for (int i = 0; i < entrants.size(); i++) {
            String engine = entrants.get(i);
            Wdl wdl = wdl(engine);
            double elo = ratings == null ? Double.NaN : ratings.get(i).elo();
            double error = ratings == null ? Double.NaN : ratings.get(i).error();
            rows.add(new Row(0, engine, wdl.games(), wdl.points(), wdl, elo, error));
        }
        // ratings equal to a tenth of a point are ties, broken by points
        rows.sort(Comparator.comparing((Row r) -> Double.isNaN(r.elo()))
                .thenComparingDouble(r -> Double.isNaN(r.elo()) ? 0 : -Math.round(r.elo() * 10) / 10.0)
                .thenComparingDouble(r -> -r.points()));
        List<Row> ranked = new ArrayList<>();
        for (int i = 0; i < rows.size(); i++) {
            Row r = rows.get(i);
            ranked.add(new Row(i + 1, r.engine(), r.games(), r.points(), r.wdl(), r.elo(), r.eloError()));
        }
        return ranked;
    }

    private static boolean plays(GameRecord game, String engine) {
        return game.assignment().sente().equals(engine)
                || game.assignment().gote().equals(engine);
    }

    private static Wdl result(GameRecord game, String engine) {
        double score = game.scoreOf(engine);
        return score == 1 ? new Wdl(1, 0, 0) : score == 0.5 ? new Wdl(0, 1, 0) : new Wdl(0, 0, 1);
    }
}
