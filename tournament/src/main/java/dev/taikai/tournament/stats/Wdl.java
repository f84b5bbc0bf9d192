package dev.taikai.tournament.stats;

/** Wins, draws and losses of one side. */
public record Wdl(long wins, long draws, long losses) {
    public Wdl {
        if (wins < 0 || draws < 0 || losses < 0) {
            throw new IllegalArgumentException("negative counts: " + wins + "/" + draws + "/" + losses);
        }
    }

    public long games() {
        return wins + draws + losses;
    }

    public double points() {
        return wins + draws / 2.0;
    }

    /** Points per game, or NaN without games. */
    public double score() {
        return games() == 0 ? Double.NaN : points() / games();
    }

    public double drawRatio() {
        return games() == 0 ? Double.NaN : (double) draws / games();
    }

    /** The same games seen from the other side. */
    public Wdl reversed() {
        return new Wdl(losses, draws, wins);
    }

    public Wdl plus(Wdl other) {
        return new Wdl(wins + other.wins, draws + other.draws, losses + other.losses);
    }

    /**
     * Likelihood of superiority: the probability that this side is the stronger one, from wins and
     * losses alone (draws carry no information here): {@code Φ((W − L) / √(W + L))}.
     */
    public double los() {
        if (wins + losses == 0) {
            return 0.5;
        }
        return Normal.cdf((wins - losses) / Math.sqrt(wins + losses));
    }
}
