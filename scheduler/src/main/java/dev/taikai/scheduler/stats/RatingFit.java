package dev.taikai.scheduler.stats;

import java.util.ArrayList;
import java.util.List;

/**
 * Maximum-likelihood ratings over all games of a tournament, as Ordo computes them: the logistic
 * (Bradley–Terry) model {@code E = 1 / (1 + 10^((R_j − R_i)/400))}, a draw counting as half a win and
 * half a loss, ratings centred on an average of 0. The 95% intervals come from the inverse of the
 * Fisher information under that centring. Solved by Newton's method.
 */
public final class RatingFit {
    /** One game between players {@code first} and {@code second}; {@code firstScore} is 0, ½ or 1. */
    public record Game(int first, int second, double firstScore) {}

    /** A player's rating and the half-width of its 95% interval (infinite when unbounded). */
    public record Rating(double elo, double error) {}

    private static final double SCALE = Math.log(10) / 400;
    /** Beyond this a rating is unbounded by the games (a perfect score against the field). */
    private static final double DIVERGED = 3000;

    private RatingFit() {}

    public static List<Rating> fit(int players, List<Game> games) {
        double[] r = new double[players];
        double[][] fisher = new double[players][players];
        boolean converged = false;
        for (int iteration = 0; iteration < 100 && !converged; iteration++) {
            double[] gradient = new double[players];
            fisher = new double[players][players];
            for (Game game : games) {
                double e = 1 / (1 + Math.pow(10, (r[game.second()] - r[game.first()]) / 400));
                double g = SCALE * (game.firstScore() - e);
                gradient[game.first()] += g;
                gradient[game.second()] -= g;
                double w = SCALE * SCALE * e * (1 - e);
                fisher[game.first()][game.first()] += w;
                fisher[game.second()][game.second()] += w;
                fisher[game.first()][game.second()] -= w;
                fisher[game.second()][game.first()] -= w;
            }
            double[] step = solveCentred(fisher, gradient);
            if (step == null) {
                break;
            }
            double largest = 0;
            for (int i = 0; i < players; i++) {
                double limited = Math.max(-400, Math.min(400, step[i])); // keep Newton steady far from the optimum
                r[i] += limited;
                largest = Math.max(largest, Math.abs(limited));
            }
            converged = largest < 1e-9;
            if (maxAbs(r) > DIVERGED) {
                break;
            }
        }
        double[][] covariance = covarianceCentred(fisher);
        List<Rating> ratings = new ArrayList<>();
        for (int i = 0; i < players; i++) {
            boolean unbounded = !converged || covariance == null;
            double elo =
                    unbounded && Math.abs(r[i]) > DIVERGED / 2 ? Math.signum(r[i]) * Double.POSITIVE_INFINITY : r[i];
            double error = unbounded ? Double.POSITIVE_INFINITY : Normal.Z95 * Math.sqrt(Math.max(0, covariance[i][i]));
            ratings.add(new Rating(elo, error));
        }
        return ratings;
    }

    /** Solves F x = g for x with Σ x = 0 (F is singular along the all-ones direction); null when impossible. */
    private static double[] solveCentred(double[][] fisher, double[] gradient) {
        double[][] inverse = covarianceCentred(fisher);
        if (inverse == null) {
            return null;
        }
        int n = gradient.length;
        double[] x = new double[n];
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < n; j++) {
                x[i] += inverse[i][j] * gradient[j];
            }
        }
        return x;
    }

    /**
     * The covariance of ratings centred on 0: the inverse of F restricted to Σ x = 0, computed as
     * (F + J/n)⁻¹ − J/n with J the all-ones matrix; null when singular (players never compared).
     */
    private static double[][] covarianceCentred(double[][] fisher) {
        int n = fisher.length;
        double[][] a = new double[n][2 * n];
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < n; j++) {
                a[i][j] = fisher[i][j] + 1.0 / n;
            }
            a[i][n + i] = 1;
        }
        for (int col = 0; col < n; col++) {
            int pivot = col;
            for (int row = col + 1; row < n; row++) {
                if (Math.abs(a[row][col]) > Math.abs(a[pivot][col])) {
                    pivot = row;
                }
            }
            if (Math.abs(a[pivot][col]) < 1e-18) {
                return null;
            }
            double[] swap = a[col];
            a[col] = a[pivot];
            a[pivot] = swap;
            double d = a[col][col];
            for (int j = 0; j < 2 * n; j++) {
                a[col][j] /= d;
            }
            for (int row = 0; row < n; row++) {
                if (row != col && a[row][col] != 0) {
                    double f = a[row][col];
                    for (int j = 0; j < 2 * n; j++) {
                        a[row][j] -= f * a[col][j];
                    }
                }
            }
        }
        double[][] inverse = new double[n][n];
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < n; j++) {
                inverse[i][j] = a[i][n + j] - 1.0 / n;
            }
        }
        return inverse;
    }

    private static double maxAbs(double[] values) {
        double max = 0;
        for (double v : values) {
            max = Math.max(max, Math.abs(v));
        }
        return max;
    }
}
