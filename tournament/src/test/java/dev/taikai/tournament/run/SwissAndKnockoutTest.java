package dev.taikai.tournament.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.taikai.referee.game.GameAssignment;
import dev.taikai.referee.game.Opening;
import dev.taikai.rules.Position;
import dev.taikai.rules.Result;
import dev.taikai.rules.Usi;
import dev.taikai.rules.Variant;
import dev.taikai.tournament.Format;
import dev.taikai.tournament.TournamentSpec;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Swiss pairing (by score, no repeats while avoidable, fair byes) and the knockout bracket with tiebreaks. */
class SwissAndKnockoutTest {
    /** Plays every game the run hands out with {@code results} until it stops. */
    private static void playOut(TournamentRun run, java.util.function.Function<GameAssignment, Result> results) {
        List<GameAssignment> games;
        while (!(games = run.handOut()).isEmpty()) {
            for (GameAssignment game : games) {
                assertEquals(Counted.COUNTED, run.count(Runs.record(game, results.apply(game))));
            }
        }
    }

    @Test
    void aSwissNeverRepeatsAPairingWhileItCanBeAvoidedAndGivesEveryByeToADifferentEngine() {
        for (int engines : List.of(3, 4, 5, 6, 7, 8, 9, 10)) {
            for (long seed = 1; seed <= 8; seed++) {
                Random random = new Random(seed);
                TournamentRun run = new TournamentRun(Runs.spec(Format.SWISS, engines, engines - 1, 2, 64, null));
                playOut(run, g -> Result.values()[random.nextInt(3)]);
                assertEquals(Stop.Kind.FINISHED, run.stop().orElseThrow().kind());
                SwissPairer swiss = (SwissPairer) pairer(run);
                Set<String> pairs = new HashSet<>();
                for (GameAssignment game : run.pairedGames()) {
                    if (game.gameInPairing() == 1) {
                        String key = game.sente().compareTo(game.gote()) < 0
                                ? game.sente() + "-" + game.gote()
                                : game.gote() + "-" + game.sente();
                        assertTrue(pairs.add(key), engines + " engines, seed " + seed + ": " + key + " again");
                    }
                }
                if (engines % 2 == 1) {
                    for (int i = 0; i < engines; i++) {
                        assertTrue(swiss.byes("e" + i) <= 1, "e" + i + ": " + swiss.byes("e" + i) + " byes");
                    }
                }
                assertEquals((engines / 2) * 2 * (engines - 1), run.standings().gamesPlayed());
            }
        }
    }

    @Test
    void aLargeSwissIsPairedWithoutRepeats() {
        Random random = new Random(3);
        TournamentRun run = new TournamentRun(Runs.spec(Format.SWISS, 41, 9, 1, 64, null));
        playOut(run, g -> Result.values()[random.nextInt(3)]);
        Set<String> pairs = new HashSet<>();
        for (GameAssignment game : run.pairedGames()) {
            assertTrue(
                    pairs.add(String.join("-", new java.util.TreeSet<>(Set.of(game.sente(), game.gote())))),
                    game.gameId());
        }
        assertEquals(20 * 9, pairs.size());
    }

    @Test
    void aSwissRoundPairsLeadersWithLeadersAndGivesTheByeToTheLowestPlaced() {
        TournamentRun run = new TournamentRun(Runs.spec(Format.SWISS, 5, 3, 2, 64, null));
        List<GameAssignment> round1 = run.handOut();
        // by seed: e0-e1, e2-e3, and e4, the lowest seed, has the bye
        assertEquals(Set.of("e0-e1", "e2-e3"), pairings(round1));
        for (GameAssignment game : round1) {
            run.count(Runs.win(game, game.sente().equals("e1") || game.gote().equals("e1") ? "e1" : "e3"));
        }
        // scores: e1 4, e3 4, e4 2 (the bye), e0 0, e2 0; e4 has had its bye, so the lowest placed without
        // one (e2) sits out
        List<GameAssignment> round2 = run.handOut();
        assertEquals(Set.of("e1-e3", "e0-e4"), pairings(round2));
        assertEquals(1, ((SwissPairer) pairer(run)).byes("e2"));
        assertTrue(
                run.summary().get(0).startsWith("Swiss table after 2 rounds"),
                run.summary().toString());
    }

    @Test
    void theBracketKeepsTheBestSeedsApartAndGivesByesToTheBest() {
        assertEquals(List.of(1, 8, 4, 5, 2, 7, 3, 6), KnockoutPairer.bracket(8));
        TournamentRun run = new TournamentRun(Runs.spec(Format.KNOCKOUT, 5, 1, 2, 64, null));
        // 5 engines in a bracket of 8: seeds 1, 2 and 3 have byes; 4 meets 5
        assertEquals(Set.of("e3-e4"), pairings(run.handOut()));
        assertThrows(
                IllegalArgumentException.class, () -> new TournamentRun(Runs.spec(Format.KNOCKOUT, 4, 3, 2, 1, null)));
    }

    @Test
    void theStrongerSideGoesThroughATiedMatchPlaysTiebreakPairsAndThenTheBetterSeedGoesThrough() {
        // e0 beats everyone; e1 and e2 draw everything; e3 loses everything
        TournamentRun run = new TournamentRun(Runs.spec(Format.KNOCKOUT, 4, 1, 2, 64, null));
        Map<String, Integer> gamesPerMatch = new HashMap<>();
        playOut(run, game -> {
            gamesPerMatch.merge("r" + game.round() + "-p" + game.pairing(), 1, Integer::sum);
            Set<String> players = Set.of(game.sente(), game.gote());
            if (players.contains("e0")) {
                return game.sente().equals("e0") ? Result.SENTE_WINS : Result.GOTE_WINS;
            }
            if (players.contains("e3")) {
                return game.sente().equals("e3") ? Result.GOTE_WINS : Result.SENTE_WINS;
            }
            return Result.DRAW;
        });
        assertEquals(
                new Stop(Stop.Kind.FINISHED, "the knockout is decided: e0 won"),
                run.stop().orElseThrow());
        // round 1: e0-e3 (2 games), e1-e2 (2 games and 2 tiebreak pairs, then e1 as the better seed)
        assertEquals(Map.of("r1-p1", 2, "r1-p2", 6, "r2-p1", 2), gamesPerMatch);
        String bracket = String.join("\n", run.summary());
        assertTrue(
                bracket.contains("e1 vs e2: e1 through, 3-3, tied after 2 tiebreak pairs: the better seed"), bracket);
        assertTrue(bracket.contains("e0 vs e1: e0 through, 2-0"), bracket);
        assertTrue(bracket.endsWith("Winner: e0"), bracket);
        assertTrue(run.pairedGames().stream().anyMatch(g -> g.gameId().equals("r1-p2-g6")), "tiebreaks number on");
    }

    /**
     * With one game a match, the first tiebreak game was numbered 2, the second of game 1's pair, and
     * replayed its opening; a tiebreak pair now starts at the next pair: g1, then g3 and g4, g5 and g6.
     */
    @Test
    void tiebreakPairsAfterAnOddNumberOfGamesAreWholePairsOfTheirOwn() {
        TournamentRun run = new TournamentRun(Runs.spec(Format.KNOCKOUT, 2, 1, 1, 64, null));
        playOut(run, game -> Result.DRAW);
        List<GameAssignment> games = run.pairedGames();
        assertEquals(
                List.of("r1-p1-g1", "r1-p1-g3", "r1-p1-g4", "r1-p1-g5", "r1-p1-g6"),
                games.stream().map(GameAssignment::gameId).toList());
        assertEquals(
                List.of(1, 2, 2, 3, 3), games.stream().map(GameAssignment::pair).toList());
        assertEquals(
                List.of("e0", "e0", "e1", "e0", "e1"),
                games.stream().map(GameAssignment::sente).toList());
    }

    /**
     * Formats paired round by round numbered their pairs' openings round * 100000 + pairing * 100 + pair,
     * so with a suite of 100 (the size of the shipped ones) every pairing of every round played the same
     * few openings; each pair now takes the suite's next opening, as a round robin does.
     */
    @Test
    void everyPairOfASwissAKnockoutAndALeagueHasAnOpeningOfItsOwnUntilTheSuiteIsUsedUp() throws Exception {
        List<Opening> suite = twoPlyOpenings(100);
        for (Format format : List.of(Format.SWISS, Format.KNOCKOUT, Format.LEAGUE)) {
            int rounds = format == Format.LEAGUE ? 6 : format == Format.KNOCKOUT ? 1 : 3;
            int games = format == Format.LEAGUE ? 2 : 4;
            TournamentSpec base = Runs.spec(format, 8, rounds, games, 64, null);
            TournamentRun run = new TournamentRun(new TournamentSpec(
                    base.name(),
                    base.variant(),
                    format,
                    base.entrants(),
                    1,
                    rounds,
                    games,
                    suite,
                    false,
                    base.overrunMargin(),
                    base.adjudication(),
                    64,
                    1,
                    null));
            // draws: a knockout's matches all go to their tiebreaks
            playOut(run, game -> Result.DRAW);
            Map<String, Opening> byPair = new HashMap<>();
            for (GameAssignment game : run.pairedGames()) {
                String pair = game.round() + "-" + game.pairing() + "-" + (game.gameInPairing() + 1) / 2;
                Opening earlier = byPair.putIfAbsent(pair, game.opening());
                assertTrue(earlier == null || earlier.equals(game.opening()), format + ": " + game.gameId());
            }
            assertTrue(byPair.size() > 20 && byPair.size() <= suite.size(), format + ": " + byPair.size());
            assertEquals(byPair.size(), new HashSet<>(byPair.values()).size(), format + ": an opening used twice");
        }
    }

    /** {@code count} different openings of two plies from Minishogi's start. */
    private static List<Opening> twoPlyOpenings(int count) throws Exception {
        Position start = Position.start(Variant.MINISHOGI);
        List<Opening> openings = new ArrayList<>();
        for (int first : start.legalMoves()) {
            for (int second : start.play(first).legalMoves()) {
                if (openings.size() < count) {
                    openings.add(Opening.of(
                            start,
                            List.of(Usi.format(first, Variant.MINISHOGI), Usi.format(second, Variant.MINISHOGI))));
                }
            }
        }
        assertEquals(count, openings.size());
        return openings;
    }

    private static Set<String> pairings(List<GameAssignment> games) {
        Set<String> pairings = new HashSet<>();
        for (GameAssignment game : games) {
            pairings.add(
                    game.sente().compareTo(game.gote()) < 0
                            ? game.sente() + "-" + game.gote()
                            : game.gote() + "-" + game.sente());
        }
        return pairings;
    }

    private static Pairer pairer(TournamentRun run) {
        return run.pairer();
    }
}
