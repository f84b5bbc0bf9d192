package dev.taikai.tournament.stats;

/** The standard normal distribution, as the statistics need it. */
final class Normal {
    /** The two-sided 95% quantile. */
    static final double Z95 = 1.959963984540054;

    private Normal() {}

    /** Cumulative distribution function. */
    static double cdf(double x) {
        return 0.5 * (1 + erf(x / Math.sqrt(2)));
    }

    /**
     * The error function, from its Maclaurin series for |x| < 3 and its asymptotic continued fraction
     * beyond; accurate to about 1e-14 everywhere.
     */
    static double erf(double x) {
        double a = Math.abs(x);
        double result;
        if (a < 3) {
            double term = a;
            double sum = a;
            for (int n = 1; n < 200 && Math.abs(term) > 1e-17 * Math.abs(sum); n++) {
                term *= -a * a / n;
                sum += term / (2 * n + 1);
            }
            result = 2 / Math.sqrt(Math.PI) * sum;
        } else {
            // erfc(a) = exp(-a^2)/sqrt(pi) * 1/(a + 1/2/(a + 1/(a + 3/2/(a + ...)))), evaluated from the tail
            double fraction = 0;
            for (int k = 60; k >= 1; k--) {
                fraction = (k / 2.0) / (a + fraction);
            }
            result = 1 - Math.exp(-a * a) / Math.sqrt(Math.PI) / (a + fraction);
        }
        return x < 0 ? -result : result;
    }
}
