package dev.taikai.tournament.stats;

/**
 * Results of game pairs (same opening, colours swapped) from one engine's side, by the pair's points:
 * 0 ({@code LL}), 0.5 ({@code LD}), 1 ({@code DD} or {@code WL}), 1.5 ({@code WD}), 2 ({@code WW}).
 * Pairs cancel most of an opening's bias, so statistics over pairs have less variance than over games.
 */
public record Pentanomial(long ll, long ld, long dd, long wl, long wd, long ww) {
    /** Pair scores per game: 0, 1/4, 1/2, 3/4, 1. */
    private static final double[] SCORES = {0, 0.25, 0.5, 0.75, 1};

    public static final Pentanomial EMPTY = new Pentanomial(0, 0, 0, 0, 0, 0);

    public Pentanomial {
        if (ll < 0 || ld < 0 || dd < 0 || wl < 0 || wd < 0 || ww < 0) {
            throw new IllegalArgumentException("negative pair counts");
        }
    }

    /** This record with one more pair in which the side scored {@code first} and {@code second} (each 0, ½ or 1). */
    public Pentanomial plus(double first, double second) {
        double total = first + second;
        if (total == 0) {
            return new Pentanomial(ll + 1, ld, dd, wl, wd, ww);
        }
        if (total == 0.5) {
            return new Pentanomial(ll, ld + 1, dd, wl, wd, ww);
        }
        if (total == 1) {
            return first == 0.5
                    ? new Pentanomial(ll, ld, dd + 1, wl, wd, ww)
                    : new Pentanomial(ll, ld, dd, wl + 1, wd, ww);
        }
        if (total == 1.5) {
            return new Pentanomial(ll, ld, dd, wl, wd + 1, ww);
        }
        if (total == 2) {
            return new Pentanomial(ll, ld, dd, wl, wd, ww + 1);
        }
        throw new IllegalArgumentException("game scores must be 0, 0.5 or 1: " + first + ", " + second);
    }

    public long pairs() {
        return ll + ld + dd + wl + wd + ww;
    }

    /** Counts by pair points 0, ½, 1, 1½, 2 (WL and DD together). */
    public long[] counts() {
        return new long[] {ll, ld, dd + wl, wd, ww};
    }

    /** Frequencies by pair points 0, ½, 1, 1½, 2. */
    double[] frequencies() {
        long[] counts = counts();
        double[] p = new double[5];
        for (int i = 0; i < 5; i++) {
            p[i] = (double) counts[i] / pairs();
        }
        return p;
    }

    /** Mean score per game over the pairs. */
    public double meanScore() {
        double[] p = frequencies();
        double mu = 0;
        for (int i = 0; i < 5; i++) {
            mu += p[i] * SCORES[i];
        }
        return mu;
    }

    /** Variance of a pair's mean score. */
    public double pairVariance() {
        double[] p = frequencies();
        double mu = meanScore();
        double variance = 0;
        for (int i = 0; i < 5; i++) {
            variance += p[i] * (SCORES[i] - mu) * (SCORES[i] - mu);
        }
        return variance;
    }

    /**
     * Normalized Elo: the score's distance from ½ in standard deviations of one game, scaled to Elo near
     * 0 ({@code (μ − ½) / (√2 σ_pair) · 800 / ln 10}).
     */
    public double normalizedElo() {
        double sigmaPerGame = Math.sqrt(2 * pairVariance());
        return sigmaPerGame == 0 ? Double.NaN : (meanScore() - 0.5) / sigmaPerGame * 800 / Math.log(10);
    }

    static double[] scores() {
        return SCORES.clone();
    }
}
