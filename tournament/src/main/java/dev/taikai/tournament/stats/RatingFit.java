package dev.taikai.tournament.stats;

import java.util.ArrayList;
import java.util.List;

/**
 * Maximum-likelihood ratings over all games of a tournament, as Ordo computes them: the logistic
 * (Bradley–Terry) model {@code E = 1 / (1 + 10^((R_j − R_i)/400))}, a draw counting as half a win and
 * half a loss, ratings centred on an average of 0. The 95% intervals come from the inverse of the
 * Fisher information under that centring. Solved by Newton's method.
 *
 * <p>A player without a game is rated by nothing: the fit leaves it out and gives it no rating (NaN).
 * Where the games leave groups of players that never met, not even through others, the fit adds a light
 * virtual draw (1/players of a game) between every two players of different groups, so that every
 * rating is a number with a finite error ({@link Fit#disconnected()}). When the games separate the field
 * (some group won every game against the rest), the maximum lies at infinity; the fit then adds one
 * virtual draw to every pairing that met, the prior BayesElo uses ({@link Fit#separated()}).
 */
public final class RatingFit {
    /**
     * One game between players {@code first} and {@code second}; {@code firstScore} is 0, ½ or 1;
     * {@code weight} (1 normally, less for an older game in a league) scales its part in the likelihood.
     */
    public record Game(int first, int second, double firstScore, double weight) {
        public Game(int first, int second, double firstScore) {
            this(first, second, firstScore, 1);
        }

        public Game {
            if (!(weight > 0 && weight <= 1)) {
                throw new IllegalArgumentException("a game's weight is in (0, 1], not " + weight);
            }
        }
    }

    /** A player's rating and the half-width of its 95% interval. */
    public record Rating(double elo, double error) {}

    /** No rating: a player without a game. */
    public static final Rating UNRATED = new Rating(Double.NaN, Double.NaN);

    /**
     * The ratings, in player order; whether the groups that never met were linked by light virtual draws,
     * and whether the games separated the field so that every pairing took a virtual draw.
     */
    public record Fit(List<Rating> ratings, boolean disconnected, boolean separated) {
        /** Whether the fit needed any virtual draw. */
        public boolean prior() {
            return disconnected || separated;
        }
    }

    private static final double SCALE = Math.log(10) / 400;
    /**
     * A spread of ratings beyond this means the maximum is at infinity (the expected scores have rounded to
     * 0 and 1, so Newton's steps vanish without a true optimum).
     */
    private static final double DIVERGED = 2400;

    private RatingFit() {}

    public static Fit fit(int players, List<Game> games) {
        // only the players with a game are fitted: one without any would leave the information singular
        int[] index = new int[players];
        java.util.Arrays.fill(index, -1);
        List<Integer> rated = new ArrayList<>();
        for (Game game : games) {
            for (int p : new int[] {game.first(), game.second()}) {
                if (index[p] < 0) {
                    index[p] = rated.size();
                    rated.add(p);
                }
            }
        }
        List<Game> compact = new ArrayList<>();
        for (Game game : games) {
            compact.add(new Game(index[game.first()], index[game.second()], game.firstScore(), game.weight()));
        }
        Fit fit = rated.isEmpty() ? new Fit(List.of(), false, false) : fitPlayed(rated.size(), compact);
        List<Rating> ratings = new ArrayList<>();
        for (int p = 0; p < players; p++) {
            ratings.add(index[p] < 0 ? UNRATED : fit.ratings().get(index[p]));
        }
        return new Fit(ratings, fit.disconnected(), fit.separated());
    }

    /** The fit of players who have each played at least one game. */
    private static Fit fitPlayed(int players, List<Game> games) {
        boolean[][] met = new boolean[players][players];
        for (Game game : games) {
            met[game.first()][game.second()] = true;
            met[game.second()][game.first()] = true;
        }
        int[] group = groups(players, met);
        List<Game> linked = new ArrayList<>(games);
        // players in groups that never met one another (directly or through others) cannot be compared
        // by the games at all: a light virtual draw (1/players of a game) between every two players of
        // different groups states where the data cannot separate them
        for (int a = 0; a < players; a++) {
            for (int b = a + 1; b < players; b++) {
                if (group[a] != group[b]) {
                    linked.add(new Game(a, b, 0.5, 1.0 / players));
                }
            }
        }
        boolean disconnected = linked.size() > games.size();
        List<Rating> plain = maximumLikelihood(players, linked);
        if (plain != null) {
            return new Fit(plain, disconnected, false);
        }
        List<Game> withPrior = new ArrayList<>(linked);
        for (int a = 0; a < players; a++) {
            for (int b = a + 1; b < players; b++) {
                if (met[a][b]) {
                    withPrior.add(new Game(a, b, 0.5, 1));
                }
            }
        }
        List<Rating> regularized = maximumLikelihood(players, withPrior);
        if (regularized == null) {
            throw new IllegalStateException("the rating fit did not converge even with its prior");
        }
        return new Fit(regularized, disconnected, true);
    }

    /** Each player's connected group in the graph of pairings that met (a group's smallest player). */
    private static int[] groups(int players, boolean[][] met) {
        int[] group = new int[players];
        java.util.Arrays.fill(group, -1);
        for (int start = 0; start < players; start++) {
            if (group[start] >= 0) {
                continue;
            }
            java.util.ArrayDeque<Integer> queue = new java.util.ArrayDeque<>(List.of(start));
            group[start] = start;
            while (!queue.isEmpty()) {
                int p = queue.poll();
                for (int q = 0; q < players; q++) {
                    if (met[p][q] && group[q] < 0) {
                        group[q] = start;
                        queue.add(q);
                    }
                }
            }
        }
        return group;
    }

    /** The plain maximum-likelihood ratings, or null when they do not exist (separated field, never compared). */
    private static List<Rating> maximumLikelihood(int players, List<Game> games) {
        double[] r = new double[players];
        double[][] fisher = new double[players][players];
        boolean converged = false;
        for (int iteration = 0; iteration < 100 && !converged; iteration++) {
            double[] gradient = new double[players];
            fisher = new double[players][players];
            for (Game game : games) {
                double e = 1 / (1 + Math.pow(10, (r[game.second()] - r[game.first()]) / 400));
                double g = game.weight() * SCALE * (game.firstScore() - e);
                gradient[game.first()] += g;
                gradient[game.second()] -= g;
                double w = game.weight() * SCALE * SCALE * e * (1 - e);
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
            if (spread(r) > DIVERGED) {
                return null;
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

    private static double spread(double[] values) {
        double min = Double.POSITIVE_INFINITY;
        double max = Double.NEGATIVE_INFINITY;
        for (double v : values) {
            min = Math.min(min, v);
            max = Math.max(max, v);
        }
        return max - min;
    }
}
