package dev.taikai.tournament.stats;

/**
 * The generalized sequential probability ratio test on game pairs in normalized Elo, as Fishtest and
 * fastchess run it (M. Van den Bergh, "Comments on Normalized Elo", section 4.1). H0: normalized Elo
 * {@code elo0}; H1: {@code elo1}. The log-likelihood ratio compares the maximum-likelihood pentanomial
 * distributions under each hypothesis, given the observed one; the test stops when it leaves
 * (ln(β/(1−α)), ln((1−β)/α)).
 */
public record Sprt(double elo0, double elo1, double alpha, double beta) {
    public enum Status {
        /** Neither bound crossed yet. */
        CONTINUE,
        /** The lower bound was crossed: H0 accepted. */
        H0,
        /** The upper bound was crossed: H1 accepted. */
        H1
    }

    /** Zero counts become this many, so every outcome keeps a positive probability (as fastchess does). */
    private static final double REGULARIZED_ZERO = 1e-3;

    private static final double NORMALIZED_ELO_PER_T = 800 / Math.log(10);

    public Sprt {
        if (!(elo0 < elo1)) {
            throw new IllegalArgumentException("SPRT needs elo0 < elo1, got " + elo0 + " and " + elo1);
        }
        if (!(alpha > 0 && alpha < 1 && beta > 0 && beta < 1 && alpha + beta < 1)) {
            throw new IllegalArgumentException("SPRT needs 0 < alpha, beta and alpha + beta < 1");
        }
    }

    public double lowerBound() {
        return Math.log(beta / (1 - alpha));
    }

    public double upperBound() {
        return Math.log((1 - beta) / alpha);
    }

    public Status status(double llr) {
        return llr >= upperBound() ? Status.H1 : llr <= lowerBound() ? Status.H0 : Status.CONTINUE;
    }

    /**
     * The verdict along an SPRT's path (the pentanomial after each pair, in the order the pairs were
     * completed): the status at the first pair whose LLR crossed a bound, the run's one decision, which the
     * pairs played out after it do not change; CONTINUE while no pair has crossed.
     */
    public Verdict verdict(java.util.List<Pentanomial> path) {
        return verdict(path, null);
    }

    /**
     * {@link #verdict(java.util.List)} of a path that has grown since {@code earlier}, the verdict of its
     * first {@code earlier.pairs()} pairs (null: none): a verdict taken stands, and only the pairs since are
     * read, so a caller that asks after every game does not compute the whole path's LLRs again each time.
     */
    public Verdict verdict(java.util.List<Pentanomial> path, Verdict earlier) {
        if (earlier != null && earlier.status() != Status.CONTINUE) {
            return earlier;
        }
        for (int i = earlier == null ? 0 : earlier.pairs(); i < path.size(); i++) {
            double llr = llr(path.get(i));
            if (status(llr) != Status.CONTINUE) {
                return new Verdict(status(llr), i + 1, llr);
            }
        }
        return new Verdict(Status.CONTINUE, path.size(), path.isEmpty() ? 0 : llr(path.get(path.size() - 1)));
    }

    /** An LLR as the reports print it: two places, and never "-0.00" for a ratio that rounds to nothing. */
    public static String format(double llr) {
        return String.format(java.util.Locale.ROOT, "%.2f", Math.round(llr * 100) / 100.0 + 0.0);
    }

    /** A verdict, the pairs after which it was taken and the LLR then. */
    public record Verdict(Status status, int pairs, double llr) {}

    /** The log-likelihood ratio of H1 against H0 after these pairs (0 without pairs). */
    public double llr(Pentanomial pairs) {
        if (pairs.pairs() == 0) {
            return 0;
        }
        long[] counts = pairs.counts();
        double total = 0;
        double[] observed = new double[5];
        for (int i = 0; i < 5; i++) {
            observed[i] = counts[i] == 0 ? REGULARIZED_ZERO : counts[i];
            total += observed[i];
        }
        for (int i = 0; i < 5; i++) {
            observed[i] /= total;
        }
        double[] scores = Pentanomial.scores();
        double[] p0 = maximumLikelihood(scores, observed, perPairT(elo0));
        double[] p1 = maximumLikelihood(scores, observed, perPairT(elo1));
        double sum = 0;
        for (int i = 0; i < 5; i++) {
            sum += observed[i] * (Math.log(p1[i]) - Math.log(p0[i]));
        }
        return total * sum;
    }

    /** A normalized Elo as t = (μ − ½)/σ of one pair's mean score. */
    static double perPairT(double normalizedElo) {
        return Math.sqrt(2) * normalizedElo / NORMALIZED_ELO_PER_T;
    }

    /**
     * The distribution on {@code scores} closest to {@code observed} in likelihood among those with
     * (μ − ½)/σ = {@code t}, by the fixed-point iteration of Van den Bergh's section 4.1.
     */
    static double[] maximumLikelihood(double[] scores, double[] observed, double t) {
        double[] uniform = new double[scores.length];
        java.util.Arrays.fill(uniform, 1.0 / scores.length);
        double[] p = iterate(scores, observed, t, uniform);
        if (p != null) {
            return p;
        }
        // From the uniform start a large t (a bound beyond about 230 normalized Elo) leaves no step at all.
        // A start that meets the constraint always has one: there Σ p φ = 0, so φ changes sign.
        double[] feasible = meeting(scores, t);
        return java.util.Objects.requireNonNullElse(iterate(scores, observed, t, feasible), feasible);
    }

    /**
     * A distribution with (μ − ½)/σ = {@code t} on {@code scores} (ascending, symmetric about ½): the
     * uniform one mixed with the best score (t &gt; 0) or the worst, in the share bisection finds; t grows
     * with that share from 0 towards infinity.
     */
    static double[] meeting(double[] scores, double t) {
        int end = t > 0 ? scores.length - 1 : 0;
        double low = 0;
        double high = 1;
        for (int i = 0; i < 200; i++) {
            double share = (low + high) / 2;
            if (Math.abs(tOf(scores, mixed(scores.length, end, share))) < Math.abs(t)) {
                low = share;
            } else {
                high = share;
            }
        }
        return mixed(scores.length, end, (low + high) / 2);
    }

    private static double[] mixed(int n, int end, double share) {
        double[] p = new double[n];
        for (int i = 0; i < n; i++) {
            p[i] = (1 - share) / n + (i == end ? share : 0);
        }
        return p;
    }

    /** (μ − ½)/σ of the distribution {@code p} on {@code scores}. */
    static double tOf(double[] scores, double[] p) {
        double mu = 0;
        for (int i = 0; i < p.length; i++) {
            mu += p[i] * scores[i];
        }
        double variance = 0;
        for (int i = 0; i < p.length; i++) {
            variance += p[i] * (scores[i] - mu) * (scores[i] - mu);
        }
        return (mu - 0.5) / Math.sqrt(variance);
    }

    /** The fixed-point iteration from {@code start}; null when its first step cannot be taken. */
    private static double[] iterate(double[] scores, double[] observed, double t, double[] start) {
        int n = scores.length;
        double[] p = start.clone();
        for (int iteration = 0; iteration < 100; iteration++) {
            double mu = 0;
            for (int i = 0; i < n; i++) {
                mu += p[i] * scores[i];
            }
            double variance = 0;
            for (int i = 0; i < n; i++) {
                variance += p[i] * (scores[i] - mu) * (scores[i] - mu);
            }
            double sigma = Math.sqrt(variance);
            double[] phi = new double[n];
            double min = Double.POSITIVE_INFINITY;
            double max = Double.NEGATIVE_INFINITY;
            for (int i = 0; i < n; i++) {
                double z = (scores[i] - mu) / sigma;
                phi[i] = scores[i] - 0.5 - 0.5 * t * sigma * (1 + z * z);
                min = Math.min(min, phi[i]);
                max = Math.max(max, phi[i]);
            }
            if (!(min < 0 && max > 0)) {
                return iteration == 0 ? null : p; // the constraint cannot move further
            }
            double theta = root(phi, observed, -1 / max, -1 / min);
            double change = 0;
            for (int i = 0; i < n; i++) {
                double next = observed[i] / (1 + theta * phi[i]);
                change = Math.max(change, Math.abs(next - p[i]));
                p[i] = next;
            }
            if (change < 1e-12) {
                break;
            }
        }
        return p;
    }

    /** The θ in (low, high) with Σ p̂_i φ_i / (1 + θ φ_i) = 0; the sum falls from +∞ to −∞ there. */
    private static double root(double[] phi, double[] observed, double low, double high) {
        for (int i = 0; i < 200 && high - low > 1e-15 * Math.max(1, Math.abs(low)); i++) {
            double mid = (low + high) / 2;
            double sum = 0;
            for (int k = 0; k < phi.length; k++) {
                sum += observed[k] * phi[k] / (1 + mid * phi[k]);
            }
            if (sum > 0) {
                low = mid;
            } else {
                high = mid;
            }
        }
        return (low + high) / 2;
    }
}
