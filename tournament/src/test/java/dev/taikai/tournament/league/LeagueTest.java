package dev.taikai.tournament.league;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

class LeagueTest {
    /** Plays a round with engines of known strength (Elo): the stronger side scores by the logistic model. */
    private static void play(League league, List<League.Game> games, Map<String, Double> strength, Random random) {
        for (League.Game g : games) {
            double expected = 1 / (1 + Math.pow(10, (strength.get(g.gote()) - strength.get(g.sente())) / 400));
            double u = random.nextDouble();
            double score = u < expected * 0.9 ? 1 : (u < expected * 0.9 + 0.1 ? 0.5 : 0);
            assertTrue(league.record(g.id(), score));
        }
    }

    private static Set<String> pair(League.Game g) {
        return Set.of(g.sente(), g.gote());
    }

    @Test
    void ratingsFindTheStrengthsAndCloseEnginesMeet() {
        League league = new League(League.Settings.DEFAULT);
        Map<String, Double> strength = Map.of("a", 600.0, "b", 400.0, "c", 200.0, "d", 0.0, "e", -200.0, "f", -400.0);
        strength.keySet().stream().sorted().forEach(league::join);
        Random random = new Random(7);
        for (int r = 0; r < 60; r++) {
            play(league, league.nextRound(), strength, random);
        }
        Map<String, League.Rating> ratings = league.ratings();
        List<String> byRating = ratings.keySet().stream()
                .sorted((x, y) ->
                        Double.compare(ratings.get(y).elo(), ratings.get(x).elo()))
                .toList();
        assertEquals(List.of("a", "b", "c", "d", "e", "f"), byRating);
        for (League.Rating rating : ratings.values()) {
            assertTrue(rating.error() > 0 && rating.error() < 1000, "finite error bars: " + rating);
        }
        // late rounds pair neighbours: the top engine meets the bottom one no more
        List<League.Game> late = league.nextRound();
        assertEquals(6, late.size(), "three pairings of two games");
        for (League.Game g : late) {
            assertNotEquals(Set.of("a", "f"), pair(g));
        }
        assertEquals(60, league.history().get("a").size(), "one history point per completed round");
        League.Score ab = league.crosstable().get("a").get("b");
        League.Score ba = league.crosstable().get("b").get("a");
        assertEquals(ab.games(), ba.games());
        assertEquals(ab.games(), ab.points() + ba.points(), 1e-9);
    }

    @Test
    void recentRematchesAreAvoidedWhenThereIsAnotherChoice() {
        League league = new League(new League.Settings(2, 100, 4, 0));
        for (String e : List.of("a", "b", "c", "d")) {
            league.join(e);
        }
        Set<Set<String>> previous = new HashSet<>();
        for (int r = 0; r < 6; r++) {
            List<League.Game> games = league.nextRound();
            Set<Set<String>> pairs = new HashSet<>();
            games.forEach(g -> pairs.add(pair(g)));
            assertEquals(2, pairs.size());
            for (Set<String> p : pairs) {
                assertFalse(previous.contains(p), "round " + (r + 1) + " repeats " + p);
            }
            previous = pairs;
            games.forEach(g -> league.record(g.id(), 0.5));
        }
    }

    @Test
    void enginesJoinAndLeaveAndAnOddOneSitsOutInTurn() {
        League league = new League(League.Settings.DEFAULT);
        assertTrue(league.nextRound().isEmpty(), "no round with fewer than two engines");
        league.join("a");
        league.join("b");
        league.join("c");
        assertFalse(league.join("a"));
        Map<String, Integer> satOut = new HashMap<>();
        String last = null;
        for (int r = 0; r < 6; r++) {
            List<League.Game> games = league.nextRound();
            assertEquals(2, games.size(), "one pairing, two games");
            Set<String> playing = pair(games.get(0));
            String out = Set.of("a", "b", "c").stream()
                    .filter(e -> !playing.contains(e))
                    .findFirst()
                    .orElseThrow();
            assertNotEquals(last, out, "nobody sits out twice in a row");
            last = out;
            satOut.merge(out, 1, Integer::sum);
            games.forEach(g -> league.record(g.id(), 1));
        }
        assertEquals(3, satOut.size(), "everyone sat out: " + satOut);

        league.leave("c");
        league.join("d");
        List<League.Game> afterLeaving = league.nextRound();
        assertFalse(afterLeaving.isEmpty(), "a, b and d play on");
        for (League.Game g : afterLeaving) {
            assertFalse(pair(g).contains("c"), "c has left");
        }
        assertTrue(league.ratings().containsKey("c"), "who left keeps its rating");
        assertEquals(0, league.ratings().get("d").games());
        assertTrue(Double.isInfinite(league.ratings().get("d").error()), "no games, no bound");
    }

    @Test
    void eachGameCountsOnceAndIdsAreStable() {
        League league = new League(League.Settings.DEFAULT);
        league.join("x");
        league.join("y");
        List<League.Game> games = league.nextRound();
        assertEquals(
                List.of("l1-p1-g1", "l1-p1-g2"),
                games.stream().map(League.Game::id).toList());
        assertEquals(games.get(0).sente(), games.get(1).gote(), "colours alternate within the pair");
        assertTrue(league.record("l1-p1-g1", 1));
        assertFalse(league.record("l1-p1-g1", 1), "a duplicate");
        assertFalse(league.record("l9-p1-g1", 1), "unknown");
        assertEquals(1, league.outstanding());

        League again = new League(League.Settings.DEFAULT);
        again.join("x");
        again.join("y");
        assertEquals(games, again.nextRound(), "deterministic");
    }

    @Test
    void olderGamesWeighLessWithAHalfLife() {
        League flat = new League(new League.Settings(1, 0, 0, 0));
        League decaying = new League(new League.Settings(1, 0, 0, 2));
        for (League league : List.of(flat, decaying)) {
            league.join("a");
            league.join("b");
            for (int r = 1; r <= 20; r++) {
                League.Game g = league.nextRound().get(0);
                boolean aWins = r <= 14; // a wins early, loses late
                double score = g.sente().equals("a") == aWins ? 1 : 0;
                league.record(g.id(), score);
            }
        }
        assertTrue(flat.ratings().get("a").elo() > 0, "over all games a is better");
        assertTrue(decaying.ratings().get("a").elo() < 0, "recent games say b is better");
    }

    /**
     * Every round links what the rounds before left apart (so that the pool is compared as one as soon
     * as it can be: 4 to 8 engines are connected after round 2, or 3 with an odd field), and every
     * rating and every point of history is a finite number, whatever the results.
     */
    @Test
    void theRoundsKeepThePoolConnectedAndEveryRatingFinite() {
        for (int engines = 4; engines <= 8; engines++) {
            for (long seed = 1; seed <= 20; seed++) {
                Random random = new Random(seed);
                League league = new League(League.Settings.DEFAULT);
                for (int e = 0; e < engines; e++) {
                    league.join("e" + e);
                }
                Map<String, Set<String>> links = new HashMap<>();
                for (int round = 1; round <= 4; round++) {
                    for (League.Game game : league.nextRound()) {
                        links.computeIfAbsent(game.sente(), k -> new HashSet<>())
                                .add(game.gote());
                        links.computeIfAbsent(game.gote(), k -> new HashSet<>()).add(game.sente());
                        // a decisive pattern that plain rating pairing would keep apart: the lower name wins
                        double score =
                                random.nextInt(4) == 0 ? 0.5 : game.sente().compareTo(game.gote()) < 0 ? 1 : 0;
                        league.record(game.id(), score);
                    }
                    for (var rating : league.ratings().entrySet()) {
                        if (rating.getValue().games() > 0) {
                            assertTrue(Double.isFinite(rating.getValue().elo()), rating.toString());
                            assertTrue(
                                    Double.isFinite(rating.getValue().error()), engines + "/" + seed + ": " + rating);
                        }
                    }
                    int connectedBy = engines % 2 == 0 ? 2 : 3;
                    if (round >= connectedBy) {
                        assertEquals(
                                engines,
                                reach(links, "e0").size(),
                                engines + " engines, seed " + seed + ", round " + round + ": " + links);
                    }
                }
                league.history()
                        .values()
                        .forEach(points -> points.forEach(
                                p -> assertTrue(Double.isFinite(p.elo()) && Double.isFinite(p.error()), p.toString())));
            }
        }
    }

    private static Set<String> reach(Map<String, Set<String>> links, String from) {
        Set<String> seen = new HashSet<>(List.of(from));
        java.util.ArrayDeque<String> queue = new java.util.ArrayDeque<>(List.of(from));
        while (!queue.isEmpty()) {
            for (String next : links.getOrDefault(queue.poll(), Set.of())) {
                if (seen.add(next)) {
                    queue.add(next);
                }
            }
        }
        return seen;
    }
}
