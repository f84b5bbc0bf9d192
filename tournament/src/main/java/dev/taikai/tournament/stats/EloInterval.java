package dev.taikai.tournament.stats;

/**
 * An Elo difference with its 95% confidence interval. Infinite at a score of 0 or 1 and NaN without games.
 *
 * @param elo the estimate
 * @param lower the interval's lower end
 * @param upper the interval's upper end
 */
public record EloInterval(double elo, double lower, double upper) {
    /** Elo difference of a side scoring {@code score} per game (logistic model). */
    public static double fromScore(double score) {
        if (Double.isNaN(score)) {
            return Double.NaN;
        }
        if (score <= 0) {
            return Double.NEGATIVE_INFINITY;
        }
        if (score >= 1) {
            return Double.POSITIVE_INFINITY;
        }
        return -400 * Math.log10(1 / score - 1) + 0.0; // + 0.0: an even score is 0.0, not -0.0
    }

    /**
     * From wins, draws and losses, treating the games as independent: the score's standard error is
     * √(Σ p_i (x_i − s)² / N), and the interval maps s ± 1.96 standard errors to Elo.
     */
    public static EloInterval of(Wdl wdl) {
        long n = wdl.games();
        if (n == 0) {
            return new EloInterval(Double.NaN, Double.NaN, Double.NaN);
        }
        double s = wdl.score();
        double variance = (wdl.wins() * sq(1 - s) + wdl.draws() * sq(0.5 - s) + wdl.losses() * sq(s)) / n;
        return around(s, Math.sqrt(variance / n));
    }

    /** From pentanomial pair counts: each pair's mean score is one sample (see {@link Pentanomial}). */
    public static EloInterval of(Pentanomial pairs) {
        long n = pairs.pairs();
        if (n == 0) {
            return new EloInterval(Double.NaN, Double.NaN, Double.NaN);
        }
        return around(pairs.meanScore(), Math.sqrt(pairs.pairVariance() / n));
    }

    private static EloInterval around(double score, double standardError) {
        return new EloInterval(
                fromScore(score),
                fromScore(score - Normal.Z95 * standardError),
                fromScore(score + Normal.Z95 * standardError));
    }

    /**
     * Whether the interval says anything: {@code count} results (games or pairs) that varied. One result,
     * or results all alike, leave a standard error of 0 and an interval of no width, which would claim
     * certainty.
     */
    public boolean defined(long count) {
        return count >= 2 && !Double.isNaN(lower) && lower != upper;
    }

    /** Half the interval's width: the "±" of "21.6 ± 18.1". */
    public double error() {
        return (upper - lower) / 2;
    }

    private static double sq(double x) {
        return x * x;
    }
}
