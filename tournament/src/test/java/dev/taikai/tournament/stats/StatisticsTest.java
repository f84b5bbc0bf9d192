package dev.taikai.tournament.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Statistics against values computed independently (a separate Python script, written for this test,
 * from the textbook formulas; each expected value names its formula).
 */
class StatisticsTest {
    @Test
    void eloAndIntervalFromWinsDrawsLosses() {
        // s = 0.7; Elo = -400 log10(1/s - 1); sd per game from sum p_i (x_i - s)^2; s +- 1.96 sd/sqrt(N)
        EloInterval elo = EloInterval.of(new Wdl(60, 20, 20));
        assertEquals(147.19071411783776, elo.elo(), 1e-9);
        assertEquals(86.22501520030423, elo.lower(), 1e-9);
        assertEquals(218.2517776410748, elo.upper(), 1e-9);
        assertEquals((218.2517776410748 - 86.22501520030423) / 2, elo.error(), 1e-9);

        assertEquals(0, EloInterval.of(new Wdl(3, 4, 3)).elo(), 1e-12);
        assertEquals(Double.POSITIVE_INFINITY, EloInterval.of(new Wdl(5, 0, 0)).elo());
        assertEquals(Double.NEGATIVE_INFINITY, EloInterval.of(new Wdl(0, 0, 5)).elo());
        assertTrue(Double.isNaN(EloInterval.of(new Wdl(0, 0, 0)).elo()));
    }

    @Test
    void likelihoodOfSuperiority() {
        // LOS = 0.5 (1 + erf((W - L) / sqrt(2 (W + L))))
        assertEquals(0.9999961278917845, new Wdl(60, 20, 20).los(), 1e-12);
        assertEquals(0.5907270958089783, new Wdl(10, 50, 9).los(), 1e-12);
        assertEquals(0.5, new Wdl(0, 7, 0).los(), 0);
        assertEquals(1 - new Wdl(10, 50, 9).los(), new Wdl(9, 50, 10).los(), 1e-12);
    }

    @Test
    void errorFunctionMatchesKnownValues() {
        assertEquals(0.8427007929497149, Normal.erf(1), 1e-14); // erf(1)
        assertEquals(0.9953222650189527, Normal.erf(2), 1e-14);
        assertEquals(0.9999779095030014, Normal.erf(3), 1e-14);
        assertEquals(-0.5204998778130465, Normal.erf(-0.5), 1e-14);
        assertEquals(0.975, Normal.cdf(Normal.Z95), 1e-12);
    }

    @Test
    void pentanomialEloAndNormalizedElo() {
        // pairs LL 5, LD 10, DD+WL 35, WD 20, WW 10; pair scores 0, 1/4, 1/2, 3/4, 1
        Pentanomial pairs = new Pentanomial(5, 10, 30, 5, 20, 10);
        assertEquals(80, pairs.pairs());
        assertEquals(0.5625, pairs.meanScore(), 1e-12);
        assertEquals(0.06640625, pairs.pairVariance(), 1e-12);
        EloInterval elo = EloInterval.of(pairs);
        assertEquals(43.65778777002724, elo.elo(), 1e-9);
        assertEquals(4.191199133147811, elo.lower(), 1e-9);
        assertEquals(84.28319377454063, elo.upper(), 1e-9);
        // nElo = (mu - 1/2) / (sqrt(2) sigma_pair) * 800 / ln 10
        assertEquals(59.58471134528526, pairs.normalizedElo(), 1e-9);
    }

    @Test
    void pairsAreCountedByTheirPoints() {
        Pentanomial p = Pentanomial.EMPTY
                .plus(1, 0)
                .plus(0.5, 0.5)
                .plus(1, 1)
                .plus(0, 0.5)
                .plus(0.5, 1);
        assertEquals(new Pentanomial(0, 1, 1, 1, 1, 1), p);
        assertThrows(IllegalArgumentException.class, () -> p.plus(0.25, 1));
    }

    @Test
    void ratingFitOfTwoPlayersIsTheEloOfTheScore() {
        List<RatingFit.Game> games = new ArrayList<>();
        addGames(games, 0, 1, 60, 20, 20);
        List<RatingFit.Rating> ratings = RatingFit.fit(2, games).ratings();
        assertEquals(147.19071411783776, ratings.get(0).elo() - ratings.get(1).elo(), 1e-6);
        assertEquals(0, ratings.get(0).elo() + ratings.get(1).elo(), 1e-9);
    }

    @Test
    void ratingFitOfASmallCrosstable() {
        // A-B 5/2/3, B-C 4/4/2, A-C 6/2/2; maximum likelihood by gradient ascent in the Python script;
        // errors: 1.96 sqrt of the diagonal of the Fisher information's inverse on sum(r) = 0
        List<RatingFit.Game> games = new ArrayList<>();
        addGames(games, 0, 1, 5, 2, 3);
        addGames(games, 1, 2, 4, 4, 2);
        addGames(games, 0, 2, 6, 2, 2);
        RatingFit.Fit fit = RatingFit.fit(3, games);
        assertFalse(fit.prior());
        List<RatingFit.Rating> ratings = fit.ratings();
        assertEquals(72.44945695607785, ratings.get(0).elo(), 1e-6);
        assertEquals(0, ratings.get(1).elo(), 1e-6);
        assertEquals(-72.44945695607785, ratings.get(2).elo(), 1e-6);
        assertEquals(107.0062924033941, ratings.get(0).error(), 1e-6);
        assertEquals(103.72674418861554, ratings.get(1).error(), 1e-6);
        assertEquals(107.0062924033941, ratings.get(2).error(), 1e-6);
    }

    @Test
    void aSeparatedFieldIsFittedWithOneVirtualDrawPerPairing() {
        // A won all 4 against B: no finite maximum. With a virtual draw per pairing the fit is the plain fit of
        // A 4.5/5 against B, B 2.5+0.5=3/5 against C: computed here from two independent two-player scores.
        List<RatingFit.Game> games = new ArrayList<>();
        addGames(games, 0, 1, 4, 0, 0);
        addGames(games, 1, 2, 2, 1, 1);
        RatingFit.Fit fit = RatingFit.fit(3, games);
        assertTrue(fit.prior());
        List<RatingFit.Rating> ratings = fit.ratings();
        // a chain A-B-C: each difference is the Elo of that pairing's score (the pairings share no games)
        assertEquals(
                EloInterval.fromScore(4.5 / 5),
                ratings.get(0).elo() - ratings.get(1).elo(),
                1e-6);
        assertEquals(
                EloInterval.fromScore(3.0 / 5),
                ratings.get(1).elo() - ratings.get(2).elo(),
                1e-6);
        assertTrue(Double.isFinite(ratings.get(0).error()));
    }

    /**
     * A player without a game (a Swiss bye) is rated by nothing. It was fitted all the same, and its
     * column left the information singular: the bye ranked first at +390.6, every error infinite.
     */
    @Test
    void aPlayerWithoutAGameIsUnratedAndTheOthersAreFittedAsIfItWereAbsent() {
        // players 1-2 and 3-4 met (1 won twice, 3 and 4 split); player 0 had the bye
        List<RatingFit.Game> withBye = new ArrayList<>();
        addGames(withBye, 1, 2, 2, 0, 0);
        addGames(withBye, 3, 4, 1, 0, 1);
        List<RatingFit.Game> without = new ArrayList<>();
        addGames(without, 0, 1, 2, 0, 0);
        addGames(without, 2, 3, 1, 0, 1);
        RatingFit.Fit fit = RatingFit.fit(5, withBye);
        RatingFit.Fit reference = RatingFit.fit(4, without);
        assertTrue(Double.isNaN(fit.ratings().get(0).elo())
                && Double.isNaN(fit.ratings().get(0).error()));
        for (int i = 1; i < 5; i++) {
            assertEquals(reference.ratings().get(i - 1), fit.ratings().get(i), "player " + i);
            assertTrue(Double.isFinite(fit.ratings().get(i).error()), "player " + i);
        }
        // two groups: the light draws between them also keep 1's two wins from separating the field
        assertTrue(fit.disconnected());
        assertFalse(fit.separated());
        assertTrue(RatingFit.fit(3, List.of()).ratings().stream().allMatch(r -> Double.isNaN(r.elo())));
    }

    /**
     * Groups that never met get only the light link between them; the full virtual draw per pairing is
     * for games that separate the field, which these (a draw in each group) do not.
     */
    @Test
    void groupsThatNeverMetAreLinkedLightly() {
        List<RatingFit.Game> games = new ArrayList<>();
        addGames(games, 0, 1, 1, 1, 0);
        addGames(games, 2, 3, 0, 2, 0);
        RatingFit.Fit fit = RatingFit.fit(4, games);
        assertTrue(fit.disconnected());
        assertFalse(fit.separated());
        // 0 scored 1.5/2 against 1 plus the light draws: above 1, and the drawn pair level
        assertTrue(fit.ratings().get(0).elo() > fit.ratings().get(1).elo());
        assertEquals(fit.ratings().get(2).elo(), fit.ratings().get(3).elo(), 1e-9);
    }

    /**
     * The verdict is taken where the path first crosses a bound; the pairs played out after it may bring the
     * LLR back inside, and the report and results.json said CONTINUE then, beside "SPRT concluded: H1".
     */
    @Test
    void theVerdictIsTheFirstCrossingAlongThePath() {
        Sprt sprt = new Sprt(-100, 100, 0.2, 0.2);
        List<Pentanomial> path = List.of(
                new Pentanomial(0, 0, 0, 0, 0, 1),
                new Pentanomial(0, 0, 0, 0, 0, 2),
                new Pentanomial(1, 0, 0, 0, 0, 2));
        assertEquals(Sprt.Status.CONTINUE, sprt.status(sprt.llr(path.get(2))), "the last pair brings it back");
        Sprt.Verdict verdict = sprt.verdict(path);
        assertEquals(Sprt.Status.H1, verdict.status());
        assertEquals(2, verdict.pairs());
        assertEquals(sprt.llr(path.get(1)), verdict.llr());
        assertEquals(
                new Sprt.Verdict(Sprt.Status.CONTINUE, 1, sprt.llr(path.get(0))), sprt.verdict(path.subList(0, 1)));
        assertEquals(verdict, sprt.verdict(path, sprt.verdict(path.subList(0, 1))), "read on from an earlier verdict");
        assertEquals("0.00", Sprt.format(-0.000444), "no -0.00");
    }

    @Test
    void sprtBoundsAndVerdicts() {
        Sprt sprt = new Sprt(0, 5, 0.05, 0.05);
        assertEquals(-Math.log(19), sprt.lowerBound(), 1e-12); // ln(beta / (1 - alpha))
        assertEquals(Math.log(19), sprt.upperBound(), 1e-12); // ln((1 - beta) / alpha)
        assertEquals(Sprt.Status.H1, sprt.status(3.0));
        assertEquals(Sprt.Status.H0, sprt.status(-3.0));
        assertEquals(Sprt.Status.CONTINUE, sprt.status(0.1));
        assertEquals(0, sprt.llr(Pentanomial.EMPTY));
        assertThrows(IllegalArgumentException.class, () -> new Sprt(5, 0, 0.05, 0.05));
        assertThrows(IllegalArgumentException.class, () -> new Sprt(0, 5, 0.6, 0.5));
    }

    @Test
    void sprtMaximumLikelihoodDistributionsMeetTheirConstraint() {
        double[] observed = {0.05, 0.15, 0.45, 0.25, 0.10};
        for (double elo : new double[] {-10, 0, 2, 5, 20}) {
            double t = Sprt.perPairT(elo);
            double[] p = Sprt.maximumLikelihood(Pentanomial.scores(), observed, t);
            assertEquals(1, java.util.Arrays.stream(p).sum(), 1e-9, "a distribution");
            assertEquals(t, Sprt.tOf(Pentanomial.scores(), p), 1e-9, "(mu - 1/2) / sigma = t for elo " + elo);
        }
    }

    @Test
    void sprtLlrAgreesWithVanDenBerghsApproximation() {
        // For small normalized Elo, LLR ~ N (t1 - t0) (t - (t0 + t1) / 2) with t the observed (mu - 1/2)/sigma
        // per pair and N pairs (section 4 of "Comments on Normalized Elo").
        Pentanomial pairs = new Pentanomial(300, 1900, 4400, 600, 2300, 500);
        Sprt sprt = new Sprt(0, 2, 0.05, 0.05);
        double t = (pairs.meanScore() - 0.5) / Math.sqrt(pairs.pairVariance());
        double t0 = Sprt.perPairT(0);
        double t1 = Sprt.perPairT(2);
        double approximation = pairs.pairs() * (t1 - t0) * (t - (t0 + t1) / 2);
        double llr = sprt.llr(pairs);
        assertTrue(Math.abs(llr - approximation) < 0.02 * Math.abs(approximation), llr + " vs " + approximation);
    }

    @Test
    void sprtReachesTheRightVerdict() {
        Sprt sprt = new Sprt(0, 10, 0.05, 0.05);
        assertEquals(Sprt.Status.H1, sprt.status(sprt.llr(new Pentanomial(10, 60, 150, 30, 120, 40))));
        assertEquals(Sprt.Status.H0, sprt.status(sprt.llr(new Pentanomial(40, 120, 150, 30, 60, 10))));
        assertEquals(Sprt.Status.CONTINUE, sprt.status(sprt.llr(new Pentanomial(1, 2, 3, 1, 2, 1))));
    }

    private static void addGames(List<RatingFit.Game> games, int a, int b, int wins, int draws, int losses) {
        for (int i = 0; i < wins; i++) {
            games.add(new RatingFit.Game(a, b, 1));
        }
        for (int i = 0; i < draws; i++) {
            games.add(new RatingFit.Game(a, b, 0.5));
        }
        for (int i = 0; i < losses; i++) {
            games.add(new RatingFit.Game(a, b, 0));
        }
    }

    /**
     * A bound far out (hundreds of normalized Elo, as a user testing a big change writes it) still points
     * the right way: from the uniform start the iteration could not move and took the uniform distribution
     * as the likelihood maximum, so two pairs won outright accepted H0.
     */
    @Test
    void aFarBoundStillFavoursTheHypothesisTheGamesSupport() {
        Sprt sprt = new Sprt(0, 300, 0.2, 0.2);
        assertTrue(sprt.llr(new Pentanomial(0, 0, 0, 0, 0, 2)) > 0, "two pairs won outright");
        assertTrue(sprt.llr(new Pentanomial(2, 0, 0, 0, 0, 0)) < 0, "two pairs lost outright");
        assertEquals(Sprt.Status.H1, sprt.status(sprt.llr(new Pentanomial(0, 0, 0, 0, 0, 4))));
    }

    /**
     * Bounds beyond about 230 normalized Elo left the iteration no first step from the uniform start, and
     * the fallback took a distribution that missed the constraint: [2 LL, 2 WW] at [0, 250] gave -3.64 and
     * accepted H0. The values here are the exact constrained maximum likelihood, computed independently
     * (SLSQP over the five probabilities, in Python).
     */
    @Test
    void farBoundsGiveTheExactLlr() {
        assertEquals(-1.4227090077, new Sprt(0, 250, 0.05, 0.05).llr(new Pentanomial(2, 0, 0, 0, 0, 2)), 1e-6);
        assertEquals(-0.7119543341, new Sprt(0, 250, 0.05, 0.05).llr(new Pentanomial(1, 0, 0, 0, 0, 1)), 1e-6);
        assertEquals(-7.1087468818, new Sprt(0, 250, 0.05, 0.05).llr(new Pentanomial(10, 0, 0, 0, 0, 10)), 1e-6);
        assertEquals(-2.2448162744, new Sprt(0, 400, 0.05, 0.05).llr(new Pentanomial(1, 2, 3, 0, 4, 5)), 1e-6);
        assertEquals(5.7298342205, new Sprt(0, 300, 0.05, 0.05).llr(new Pentanomial(0, 0, 0, 0, 0, 10)), 1e-6);
        assertEquals(-14.880079175, new Sprt(-300, 300, 0.05, 0.05).llr(new Pentanomial(5, 4, 3, 0, 2, 1)), 1e-6);
        for (double elo : new double[] {250, 400, -400, 1000}) {
            double t = Sprt.perPairT(elo);
            double[] p = Sprt.meeting(Pentanomial.scores(), t);
            assertEquals(t, Sprt.tOf(Pentanomial.scores(), p), 1e-9, "the start meets the constraint at " + elo);
        }
    }
}
