package dev.taikai.tournament;

import dev.taikai.referee.game.GameAssignment;
import dev.taikai.referee.game.Opening;
import dev.taikai.rules.Position;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;

/**
 * The games of a tournament, in playing order, the same every time for the same spec (ARCHITECTURE.md,
 * decision 2). A game's id is {@code r<round>-p<pairing>-g<game>}. In each pair of games the two engines
 * swap colours on the same opening; the engine that moves first in a pair's first game alternates from
 * round to round. Openings go to pairs in file order or in an order shuffled by the seed.
 */
public final class Schedule {
    private Schedule() {}

    public static List<GameAssignment> plan(TournamentSpec spec) {
        List<int[]> pairings = pairings(spec);
        List<Integer> openingOrder = openingOrder(spec);
        List<GameAssignment> games = new ArrayList<>();
        int pairCounter = 0;
        for (int round = 1; round <= spec.rounds(); round++) {
            for (int p = 0; p < pairings.size(); p++) {
                Entrant first = spec.entrants().get(pairings.get(p)[0]);
                Entrant second = spec.entrants().get(pairings.get(p)[1]);
                if (round % 2 == 0) {
                    Entrant swap = first;
                    first = second;
                    second = swap;
                }
                Opening opening = null;
                for (int game = 1; game <= spec.gamesPerPairing(); game++) {
                    if (game % 2 == 1) {
                        opening = openingFor(spec, openingOrder, pairCounter++);
                    }
                    Entrant sente = game % 2 == 1 ? first : second;
                    Entrant gote = game % 2 == 1 ? second : first;
                    games.add(assignment(
                            spec,
                            "r" + round + "-p" + (p + 1) + "-g" + game,
                            round,
                            p + 1,
                            game,
                            sente,
                            gote,
                            opening));
                }
            }
        }
        return games;
    }

    /** Index pairs of the entrants that meet each round. */
    static List<int[]> pairings(TournamentSpec spec) {
        List<int[]> pairings = new ArrayList<>();
        int n = spec.entrants().size();
        switch (spec.format()) {
            case MATCH -> pairings.add(new int[] {0, 1});
            case ROUND_ROBIN -> {
                for (int i = 0; i < n; i++) {
                    for (int j = i + 1; j < n; j++) {
                        pairings.add(new int[] {i, j});
                    }
                }
            }
            case LEAGUE, SWISS, KNOCKOUT -> {
                // no fixed plan: these are paired round by round as results come in (tournament.run)
            }
            case GAUNTLET -> {
                for (int seed = 0; seed < spec.seeds(); seed++) {
                    for (int other = spec.seeds(); other < n; other++) {
                        pairings.add(new int[] {seed, other});
                    }
                }
            }
        }
        return pairings;
    }

    private static List<Integer> openingOrder(TournamentSpec spec) {
        List<Integer> order = new ArrayList<>();
        for (int i = 0; i < spec.openings().size(); i++) {
            order.add(i);
        }
        if (spec.randomOrder()) {
            Collections.shuffle(order, new Random(spec.seed()));
        }
        return order;
    }

    /**
     * The assignment of a league game: each engine's time control, the spec's adjudication, and opening
     * {@code openingPair} of the suite (in its order, or the seed's shuffle, from the start again when it is
     * used up); the pairer numbers the pairs it opens one after another, so that no two pairs share an
     * opening before the suite is used up.
     */
    public static GameAssignment leagueGame(
            TournamentSpec spec,
            dev.taikai.tournament.league.League.Game game,
            Entrant sente,
            Entrant gote,
            int openingPair) {
        return assignment(
                spec,
                game.id(),
                game.round(),
                game.pairing(),
                game.game(),
                sente,
                gote,
                openingFor(spec, openingOrder(spec), openingPair));
    }

    /**
     * A game of a format paired round by round (Swiss, knockout): id {@code r<round>-p<pairing>-g<game>},
     * on opening {@code openingPair} of the suite as in {@link #leagueGame}; the pairer gives games 2k−1
     * and 2k of a pairing the same number and every other pair its own.
     */
    public static GameAssignment roundGame(
            TournamentSpec spec, int round, int pairing, int game, Entrant sente, Entrant gote, int openingPair) {
        return assignment(
                spec,
                "r" + round + "-p" + pairing + "-g" + game,
                round,
                pairing,
                game,
                sente,
                gote,
                openingFor(spec, openingOrder(spec), openingPair));
    }

    /** Pairs of games in a pairing of {@code gamesPerPairing} games: games 2k−1 and 2k are pair k. */
    public static int pairsOf(int gamesPerPairing) {
        return (gamesPerPairing + 1) / 2;
    }

    /**
     * The opening number of game {@code game} (1-based) of the pairing {@code pairingIndex} (0-based) of a
     * block of pairings that begins at opening {@code first}, each of {@code pairsPerPairing} pairs.
     */
    public static int openingPair(int first, int pairingIndex, int pairsPerPairing, int game) {
        return first + pairingIndex * pairsPerPairing + (game - 1) / 2;
    }

    /** The assignment of game {@code game} of pairing {@code pairing} in round {@code round}. */
    private static GameAssignment assignment(
            TournamentSpec spec,
            String id,
            int round,
            int pairing,
            int game,
            Entrant sente,
            Entrant gote,
            Opening opening) {
        return new GameAssignment(
                id,
                round,
                pairing,
                game,
                spec.variant(),
                sente.name(),
                gote.name(),
                opening,
                sente.timeControl(),
                gote.timeControl(),
                sente.marginMillis(spec.overrunMargin()),
                gote.marginMillis(spec.overrunMargin()),
                spec.adjudication());
    }

    private static Opening openingFor(TournamentSpec spec, List<Integer> order, int pair) {
        if (order.isEmpty()) {
            return Opening.start(Position.start(spec.variant()));
        }
        return spec.openings().get(order.get(pair % order.size()));
    }
}
