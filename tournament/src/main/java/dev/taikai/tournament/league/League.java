package dev.taikai.tournament.league;

import dev.taikai.tournament.stats.RatingFit;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * A continuous rating league, as Floodgate runs one: engines join and leave a pool; each round pairs the
 * engines present by rating, neighbours first, with a penalty for recent rematches; ratings are a
 * maximum-likelihood fit over every game so far (older games optionally weigh less) with 95% error bars.
 * Plain and deterministic: the same joins, leaves and results give the same rounds.
 *
 * <p>Not thread-safe; its owner (the scheduler's book) serialises calls.
 */
public final class League {
    /**
     * How the league pairs and rates.
     *
     * @param gamesPerPairing games each pair plays in a round, colours alternating (1 or 2)
     * @param rematchPenalty cost of a rematch from the last round, in units of (100 Elo)²; halves with each
     *     older round
     * @param rematchMemory rounds a rematch is remembered
     * @param halfLifeRounds age in rounds at which a game counts half in the ratings; 0 for no decay
     */
    public record Settings(int gamesPerPairing, double rematchPenalty, int rematchMemory, double halfLifeRounds) {
        public static final Settings DEFAULT = new Settings(2, 4, 4, 0);

        public Settings {
            if (gamesPerPairing < 1 || gamesPerPairing > 2) {
                throw new IllegalArgumentException("games per pairing must be 1 or 2");
            }
            if (rematchPenalty < 0 || rematchMemory < 0 || rematchMemory > 100) {
                throw new IllegalArgumentException("the rematch penalty is at least 0, its memory 0 to 100 rounds");
            }
            if (halfLifeRounds < 0) {
                throw new IllegalArgumentException("the rating half-life is 0 (none) or a number of rounds");
            }
        }
    }

    /** One game to play: its round, the pairing's index in the round, the game in the pairing, and colours. */
    public record Game(int round, int pairing, int game, String sente, String gote) {
        /** The game's id within the league: {@code l<round>-p<pairing>-g<game>}, stable under replays. */
        public String id() {
            return "l" + round + "-p" + pairing + "-g" + game;
        }
    }

    /** A rating with the half-width of its 95% interval; the error is infinite until the fit bounds it. */
    public record Rating(double elo, double error, int games) {}

    /** A point of an engine's rating history: its rating once {@code round} was complete. */
    public record HistoryPoint(int round, double elo, double error) {}

    /** Points and games of one engine against another. */
    public record Score(double points, int games) {}

    private record Played(int round, String sente, String gote, double senteScore) {}

    private final Settings settings;
    private final Set<String> pool = new LinkedHashSet<>();
    private final Set<String> everyone = new LinkedHashSet<>();
    private final List<Played> results = new ArrayList<>();
    private final Map<String, Game> outstanding = new LinkedHashMap<>();
    private final Map<Integer, Integer> openPerRound = new HashMap<>();
    private final Map<String, List<HistoryPoint>> history = new TreeMap<>();
    private final Map<String, Integer> lastSatOut = new HashMap<>();
    private int round;

    public League(Settings settings) {
        this.settings = settings;
    }

    /** How this league pairs and rates. */
    public Settings settings() {
        return settings;
    }

    /** Adds an engine to the pool from the next round on; false when it is already in. */
    public boolean join(String engine) {
        everyone.add(engine);
        return pool.add(engine);
    }

    /** Takes an engine out of the pool: it is paired no more; its games already handed out still count. */
    public boolean leave(String engine) {
        return pool.remove(engine);
    }

    public Set<String> pool() {
        return Collections.unmodifiableSet(pool);
    }

    /** Rounds handed out so far. */
    public int rounds() {
        return round;
    }

    /**
     * Pairs the engines in the pool for a new round: by current rating, each with the unpaired engine
     * that costs least (rating gap squared plus the rematch penalty, and more than either when the two are
     * compared already while the pool is in groups never compared with one another), strongest first; with an odd number
     * the engine that has played most sits out (one that sat out last round never twice in a row when it
     * can be avoided). Empty when fewer than two engines are in the pool (no round is started then).
     */
    public List<Game> nextRound() {
        if (pool.size() < 2) {
            return List.of();
        }
        Map<String, Rating> ratings = ratings();
        List<String> order = new ArrayList<>(pool);
        order.sort(Comparator.comparingDouble((String e) -> -finite(ratings.get(e)))
                .thenComparing(Comparator.naturalOrder()));
        round++;
        if (order.size() % 2 == 1) {
            String out = sitOut(order, ratings);
            order.remove(out);
            lastSatOut.put(out, round);
        }
        List<Game> games = new ArrayList<>();
        List<String> left = new ArrayList<>(order);
        Map<String, String> group = groups();
        int pairing = 0;
        while (!left.isEmpty()) {
            String first = left.remove(0);
            String best = null;
            double bestCost = Double.POSITIVE_INFINITY;
            for (String candidate : left) {
                double gap = (finite(ratings.get(first)) - finite(ratings.get(candidate))) / 100;
                double cost = gap * gap + rematchCost(first, candidate);
                if (group.get(first).equals(group.get(candidate))) {
                    cost += SAME_GROUP; // link what the rounds before left apart first
                }
                if (cost < bestCost) {
                    bestCost = cost;
                    best = candidate;
                }
            }
            left.remove(best);
            String joined = group.get(best);
            String into = group.get(first);
            group.replaceAll((engine, g) -> g.equals(joined) ? into : g); // this pairing links the two groups
            pairing++;
            // colours alternate by round, so that over rounds each engine of a pair starts as often
            String sente = round % 2 == 1 ? first : best;
            String gote = sente.equals(first) ? best : first;
            for (int g = 1; g <= settings.gamesPerPairing(); g++) {
                Game game = g % 2 == 1
                        ? new Game(round, pairing, g, sente, gote)
                        : new Game(round, pairing, g, gote, sente);
                games.add(game);
                outstanding.put(game.id(), game);
            }
        }
        openPerRound.put(round, games.size());
        return games;
    }

    /**
     * Counts a round that has no games: fewer than two engines are in the pool, and engines are to join
     * in a later round (the owner knows). The next round is paired after it, as after any other.
     *
     * @throws IllegalStateException when the pool could pair or games are outstanding
     */
    public void passRound() {
        if (pool.size() >= 2 || !outstanding.isEmpty()) {
            throw new IllegalStateException("a round passes without games only when fewer than two engines can play");
        }
        round++;
    }

    /**
     * The cost of pairing two engines that are compared already (through the games so far) while the pool
     * is in more than one such group: more than any rating gap, so that a round links the groups first.
     */
    private static final double SAME_GROUP = 1e6;

    /**
     * Each engine of the pool's group in the graph of games played and handed out (a group's first engine
     * by name); engines in one group are compared by the ratings, engines of two groups are not.
     */
    private Map<String, String> groups() {
        Map<String, java.util.Set<String>> links = new HashMap<>();
        for (String engine : everyone) {
            links.put(engine, new java.util.TreeSet<>());
        }
        for (Played p : results) {
            links.get(p.sente()).add(p.gote());
            links.get(p.gote()).add(p.sente());
        }
        for (Game g : outstanding.values()) {
            links.get(g.sente()).add(g.gote());
            links.get(g.gote()).add(g.sente());
        }
        Map<String, String> group = new HashMap<>();
        for (String start : new java.util.TreeSet<>(everyone)) {
            if (group.containsKey(start)) {
                continue;
            }
            java.util.ArrayDeque<String> queue = new java.util.ArrayDeque<>(List.of(start));
            group.put(start, start);
            while (!queue.isEmpty()) {
                for (String next : links.get(queue.poll())) {
                    if (group.putIfAbsent(next, start) == null) {
                        queue.add(next);
                    }
                }
            }
        }
        return group;
    }

    private String sitOut(List<String> order, Map<String, Rating> ratings) {
        List<String> candidates = new ArrayList<>(order);
        candidates.sort(Comparator.comparingInt((String e) -> lastSatOut.getOrDefault(e, 0) == round - 1 ? 1 : 0)
                .thenComparing(
                        Comparator.comparingInt((String e) -> ratings.get(e).games())
                                .reversed())
                .thenComparing(e -> lastSatOut.getOrDefault(e, 0))
                .thenComparing(Comparator.naturalOrder()));
        return candidates.get(0);
    }

    /** The rematch penalty of pairing {@code a} with {@code b} now: it halves with every older round. */
    private double rematchCost(String a, String b) {
        double cost = 0;
        Set<Integer> met = new java.util.HashSet<>();
        for (Played p : results) {
            if ((p.sente().equals(a) && p.gote().equals(b))
                    || (p.sente().equals(b) && p.gote().equals(a))) {
                met.add(p.round());
            }
        }
        for (Game g : outstanding.values()) {
            if ((g.sente().equals(a) && g.gote().equals(b))
                    || (g.sente().equals(b) && g.gote().equals(a))) {
                met.add(g.round());
            }
        }
        for (int r : met) {
            int age = round - r; // 1 for the last round
            if (age >= 1 && age <= settings.rematchMemory()) {
                cost += settings.rematchPenalty() / Math.pow(2, age - 1);
            }
        }
        return cost;
    }

    /**
     * Counts a finished game, once: a game id that is not outstanding (unknown, or counted already) changes
     * nothing and returns false. When the last game of a round is in, every rated engine's history gains a
     * point.
     *
     * @param senteScore 1, ½ or 0
     */
    public boolean record(String gameId, double senteScore) {
        Game game = outstanding.remove(gameId);
        if (game == null) {
            return false;
        }
        if (senteScore != 0 && senteScore != 0.5 && senteScore != 1) {
            throw new IllegalArgumentException("a score is 0, 0.5 or 1, not " + senteScore);
        }
        results.add(new Played(game.round(), game.sente(), game.gote(), senteScore));
        int open = openPerRound.merge(game.round(), -1, Integer::sum);
        if (open == 0) {
            Map<String, Rating> ratings = ratings();
            ratings.forEach((engine, rating) -> {
                if (rating.games() > 0) {
                    history.computeIfAbsent(engine, e -> new ArrayList<>())
                            .add(new HistoryPoint(game.round(), rating.elo(), rating.error()));
                }
            });
        }
        return true;
    }

    /** Games handed out and not yet counted. */
    public int outstanding() {
        return outstanding.size();
    }

    /** {@link #ratings()} best first; engines without a game, which have no rating, last. */
    public List<Map.Entry<String, Rating>> ratingsBestFirst() {
        return ratings().entrySet().stream()
                .sorted(Comparator.comparing(
                                (Map.Entry<String, Rating> e) -> e.getValue().games() == 0)
                        .thenComparing(e -> -e.getValue().elo()))
                .toList();
    }

    /**
     * Every engine that ever joined, with its rating from all games so far (centred on 0; with decay,
     * a game {@code a} rounds older than the newest counts {@code 0.5^(a / half-life)}). Engines without
     * games are rated 0 with an infinite error.
     */
    public Map<String, Rating> ratings() {
        List<String> rated = new ArrayList<>();
        Map<String, Integer> index = new HashMap<>();
        Map<String, Integer> games = new HashMap<>();
        for (Played p : results) {
            for (String e : List.of(p.sente(), p.gote())) {
                games.merge(e, 1, Integer::sum);
                if (!index.containsKey(e)) {
                    index.put(e, rated.size());
                    rated.add(e);
                }
            }
        }
        Map<String, Rating> ratings = new LinkedHashMap<>();
        RatingFit.Fit fit = null;
        if (rated.size() >= 2) {
            List<RatingFit.Game> fitGames = new ArrayList<>();
            int newest = results.stream().mapToInt(Played::round).max().orElse(0);
            for (Played p : results) {
                double weight = settings.halfLifeRounds() > 0
                        ? Math.pow(0.5, (newest - p.round()) / settings.halfLifeRounds())
                        : 1;
                fitGames.add(new RatingFit.Game(
                        index.get(p.sente()), index.get(p.gote()), p.senteScore(), Math.max(weight, 1e-9)));
            }
            fit = RatingFit.fit(rated.size(), fitGames);
        }
        for (String engine : everyone) {
            Integer i = index.get(engine);
            if (fit == null || i == null) {
                ratings.put(engine, new Rating(0, Double.POSITIVE_INFINITY, games.getOrDefault(engine, 0)));
            } else {
                RatingFit.Rating r = fit.ratings().get(i);
                ratings.put(engine, new Rating(r.elo(), r.error(), games.get(engine)));
            }
        }
        return ratings;
    }

    /** Each engine's ratings after every completed round it had played in by then. */
    public Map<String, List<HistoryPoint>> history() {
        Map<String, List<HistoryPoint>> copy = new TreeMap<>();
        history.forEach((engine, points) -> copy.put(engine, List.copyOf(points)));
        return copy;
    }

    /** Points and games of each engine (rows) against each other engine (columns) it has met. */
    public Map<String, Map<String, Score>> crosstable() {
        Map<String, Map<String, Score>> table = new TreeMap<>();
        for (Played p : results) {
            add(table, p.sente(), p.gote(), p.senteScore());
            add(table, p.gote(), p.sente(), 1 - p.senteScore());
        }
        return table;
    }

    private static void add(Map<String, Map<String, Score>> table, String row, String column, double points) {
        table.computeIfAbsent(row, r -> new TreeMap<>())
                .merge(column, new Score(points, 1), (a, b) -> new Score(a.points() + b.points(), a.games() + 1));
    }

    /** The game handed out under {@code id} and not yet counted. */
    public Optional<Game> outstandingGame(String id) {
        return Optional.ofNullable(outstanding.get(id));
    }

    /**
     * A rating as the pairing uses it: 0 when there is none, rounded to a millionth of an Elo point, so
     * that the order in which a round's games were counted (which moves the fit in its last bits) never
     * changes a pairing: a scheduler rebuilt from Kafka pairs exactly as the one before it.
     */
    private static double finite(Rating rating) {
        return rating == null || !Double.isFinite(rating.elo()) ? 0 : Math.rint(rating.elo() * 1e6) / 1e6;
    }
}
