package dev.taikai.cli.run;

import dev.taikai.rules.Termination;
import dev.taikai.tournament.ClockUse;
import dev.taikai.tournament.Entrant;
import dev.taikai.tournament.Standings;
import dev.taikai.tournament.TournamentSpec;
import dev.taikai.tournament.stats.EloInterval;
import dev.taikai.tournament.stats.Pentanomial;
import dev.taikai.tournament.stats.RatingFit;
import dev.taikai.tournament.stats.Sprt;
import dev.taikai.tournament.stats.Wdl;
import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/** The text a run ends with: standings, pairings, the match statistics and SPRT, terminations. */
public final class Report {
    private static final List<Termination> FAILURES = List.of(
            Termination.TIME_FORFEIT,
            Termination.ILLEGAL_MOVE,
            Termination.DISCONNECT,
            Termination.STALL,
            Termination.RESIGNATION,
            Termination.ADJUDICATION);

    private Report() {}

    public static void print(PrintWriter out, TournamentSpec spec, Standings standings) {
        standings(out, spec, standings);
        out.printf("%nPairings%n");
        List<Entrant> entrants = spec.entrants();
        for (Standings.PairingScore pairing : standings.pairings()) {
            Wdl wdl = pairing.wdl();
            out.printf(
                    Locale.ROOT,
                    "  %s vs %s: %.1f - %.1f (+%d =%d -%d)%n",
                    pairing.first(),
                    pairing.second(),
                    wdl.points(),
                    wdl.games() - wdl.points(),
                    wdl.wins(),
                    wdl.draws(),
                    wdl.losses());
        }
        if (entrants.size() == 2) {
            match(out, spec, standings, entrants.get(0).name(), entrants.get(1).name());
        }
        out.printf("%nTerminations (failures and resignations count the games an engine lost that way)%n");
        out.printf(
                Locale.ROOT,
                "  %-20s %8s %8s %10s %6s %8s %11s%n",
                "Engine",
                "time",
                "illegal",
                "disconnect",
                "stall",
                "resigned",
                "adjudicated");
        // every engine with games: a league's later joins too, not only the file's
        for (String engine : standings.engines()) {
            Map<Termination, Integer> counts = standings.terminations(engine);
            out.printf(Locale.ROOT, "  %-20s", engine);
            int[] widths = {8, 8, 10, 6, 8, 11};
            for (int k = 0; k < FAILURES.size(); k++) {
                out.printf(Locale.ROOT, " %" + widths[k] + "d", counts.getOrDefault(FAILURES.get(k), 0));
            }
            out.println();
        }
        clocks(out, standings.engines(), standings);
    }

    /** The standings table with its Elo note, as the report begins and {@code -ratinginterval} shows it. */
    static void standings(PrintWriter out, TournamentSpec spec, Standings standings) {
        out.printf(
                Locale.ROOT,
                "%nStandings of %s (%s, %s, %s)%n",
                spec.name(),
                spec.variant().name(),
                spec.format().id(),
                Plural.games(standings.gamesPlayed()));
        out.printf(
                Locale.ROOT,
                "%4s  %-20s %6s %7s %5s %5s %5s %8s %7s%n",
                "Rank",
                "Engine",
                "Games",
                "Points",
                "W",
                "D",
                "L",
                "Elo",
                "±95%");
        List<Standings.Row> table = standings.table();
        for (Standings.Row row : table) {
            out.printf(
                    Locale.ROOT,
                    "%4d  %-20s %6d %7.1f %5d %5d %5d %8s %7s%n",
                    row.rank(),
                    row.engine(),
                    row.games(),
                    row.points(),
                    row.wdl().wins(),
                    row.wdl().draws(),
                    row.wdl().losses(),
                    elo(row.elo(), true),
                    elo(row.eloError(), false));
        }
        Optional<RatingFit.Fit> fit = standings.ratingFit();
        out.println("  Elo: maximum-likelihood fit over all games (Bradley-Terry, draws as half points), 95% intervals"
                + " of the fit"
                + (fit.isPresent() && fit.get().disconnected()
                        ? "; some engines never met, not even through others, so a light virtual draw links them"
                        : "")
                + (fit.isPresent() && fit.get().separated()
                        ? "; the games separate the field, so one virtual draw per pairing keeps the ratings finite"
                        : "")
                + (table.stream().anyMatch(row -> row.games() == 0) ? "; an engine without a game has none" : ""));
    }

    /**
     * Per engine: its moves, those past their allowance (kept by the overrun margin), the largest overrun,
     * and its time losses; an engine that lost more than a few percent of its games on time is named, with
     * the margin that would have saved them.
     */
    private static void clocks(PrintWriter out, List<String> engines, Standings standings) {
        out.printf("%nClocks (a move's overrun: time used past what its clock allowed; a move that lost on time is"
                + " counted under time losses, not among the moves)%n");
        out.printf(
                Locale.ROOT,
                "  %-20s %8s %10s %14s %12s %11s%n",
                "Engine",
                "moves",
                "over time",
                "max overrun ms",
                "cpu-excused",
                "time losses");
        List<ClockUse> uses = engines.stream().map(standings::clockUse).toList();
        for (ClockUse use : uses) {
            out.printf(
                    Locale.ROOT,
                    "  %-20s %8d %10d %14.1f %12d %11d%n",
                    use.engine(),
                    use.moves(),
                    use.movesOver(),
                    use.largestOverrunNanos() / 1e6,
                    use.movesExcused(),
                    use.timeLosses());
        }
        int excused = uses.stream().mapToInt(ClockUse::movesExcused).sum();
        if (excused > 0) {
            out.printf(
                    Locale.ROOT,
                    "Note: %s went past the overrun margin only while the engine or the manager waited for a CPU,"
                            + " and did not lose (cpu-excused): the machine was busier than the games; fewer games at once"
                            + " measure engines more evenly%n",
                    Plural.of(excused, "move", "moves"));
        }
        for (ClockUse use : uses) {
            if (use.losesTooOften()) {
                String lost = String.format(
                        Locale.ROOT,
                        "Warning: %s lost %d of %d games on time (%.1f%%)",
                        use.engine(),
                        use.timeLosses(),
                        use.games(),
                        100.0 * use.timeLosses() / use.games());
                String silent = use.silentTimeLosses() == use.timeLosses()
                        ? "it made no move in any of them, so no overrun margin would have saved them"
                        : use.silentTimeLosses() + " of them without making a move, which no margin saves";
                out.println(
                        use.aMarginWouldHelp()
                                ? lost
                                        + String.format(
                                                Locale.ROOT,
                                                "; under an overrun margin of %d ms (timemargin=%d) none of the moves that came"
                                                        + " late would have lost",
                                                use.savingMarginMillis(),
                                                use.savingMarginMillis())
                                        + (use.silentTimeLosses() > 0 ? "; " + silent : "")
                                : lost + "; " + silent);
            }
        }
    }

    private static void match(PrintWriter out, TournamentSpec spec, Standings standings, String a, String b) {
        Wdl wdl = standings.between(a, b);
        EloInterval elo = EloInterval.of(wdl);
        Pentanomial pairs = standings.pentanomial(a, b);
        if (wdl.games() == 0) {
            out.printf(Locale.ROOT, "%nMatch %s vs %s: no game played%n", a, b);
            return;
        }
        out.printf(
                Locale.ROOT,
                "%nMatch %s vs %s: %s, score %.1f%%%n",
                a,
                b,
                Plural.games(wdl.games()),
                100 * wdl.score());
        out.printf(
                Locale.ROOT,
                "  Elo difference: %s %s, LOS: %.1f %%, draw ratio: %.1f %%%n",
                elo(elo.elo(), true),
                interval(elo, "games", wdl.games()),
                100 * wdl.los(),
                100 * wdl.drawRatio());
        if (spec.gamesPerPairing() == 1) { // never a pair: an empty pentanomial would look like a count
            out.printf(
                    Locale.ROOT,
                    "  Pentanomial: no pairs (one game a pairing; -games 2 plays each opening with colours swapped)%n");
        } else {
            pentanomial(out, spec, pairs);
        }
        Sprt sprt = spec.sprt();
        if (sprt != null) {
            double llr = sprt.llr(pairs);
            Sprt.Verdict verdict = sprt.verdict(standings.pentanomialPath(a, b));
            out.printf(
                    Locale.ROOT,
                    "  SPRT [%s, %s] (normalized Elo, alpha %s, beta %s): LLR %s (%.2f, %.2f) — %s%s%n",
                    // as given: rounded, [-1.75, 0.25] with alpha 0.005 read [-1.8, 0.3] and 0.01
                    sprt.elo0(),
                    sprt.elo1(),
                    sprt.alpha(),
                    sprt.beta(),
                    Sprt.format(llr),
                    sprt.lowerBound(),
                    sprt.upperBound(),
                    switch (verdict.status()) {
                        case H1 -> "H1 accepted: " + a + " is stronger by at least elo1";
                        case H0 -> "H0 accepted: " + a + " is not stronger by elo1";
                        case CONTINUE -> "no bound crossed yet";
                    },
                    verdict.status() == Sprt.Status.CONTINUE || verdict.pairs() == pairs.pairs()
                            ? ""
                            : " (the bound was crossed after " + Plural.of(verdict.pairs(), "pair", "pairs") + ", LLR "
                                    + Sprt.format(verdict.llr()) + "; the pairs in play then were played out)");
        }
    }

    /** The match's game pairs: their counts and Elo; the odd game of each pairing is in none. */
    private static void pentanomial(PrintWriter out, TournamentSpec spec, Pentanomial pairs) {
        long[] counts = pairs.counts();
        out.printf(
                Locale.ROOT,
                "  Pentanomial [0, 0.5, 1, 1.5, 2]: [%d, %d, %d, %d, %d] over %s (WL %d, DD %d)%s%n",
                counts[0],
                counts[1],
                counts[2],
                counts[3],
                counts[4],
                Plural.of(pairs.pairs(), "pair", "pairs"),
                pairs.wl(),
                pairs.dd(),
                spec.gamesPerPairing() % 2 == 1 ? "; the last game of each pairing is in no pair" : "");
        if (pairs.pairs() > 0) {
            EloInterval pairElo = EloInterval.of(pairs);
            out.printf(
                    Locale.ROOT,
                    "  Pentanomial Elo: %s %s, normalized Elo: %s%n",
                    elo(pairElo.elo(), true),
                    interval(pairElo, "pairs", pairs.pairs()),
                    elo(pairs.normalizedElo(), true));
        }
    }

    /**
     * {@code ± 12.3 (95%, from the spread of N games)}, or why there is none: the match block's intervals
     * come from how the results varied, and results that did not vary give none (the standings' come
     * from the rating fit, which treats every game as a score of its own). An interval that reaches a
     * score of 0% or 100% is infinite on that side, and is given by its ends; so is one lopsided by more
     * than a tenth of its half-width (a few pairs: -190.8 ± 458.0 read as holding 0, its ends are -919.4 and
     * -3.5).
     */
    static String interval(EloInterval elo, String what, long count) {
        if (count < 2) {
            return "(no interval: one of the " + what + " only)";
        }
        if (!elo.defined(count)) {
            return "(no interval: every one of the " + count + " " + what + " ended alike)";
        }
        String spread = "95%, from the spread of " + count + " " + what;
        boolean lopsided = Math.abs((elo.upper() - elo.elo()) - (elo.elo() - elo.lower())) > 0.1 * elo.error();
        if (Double.isInfinite(elo.lower()) || Double.isInfinite(elo.upper()) || lopsided) {
            return "(" + spread + ": " + elo(elo.lower(), true) + " to " + elo(elo.upper(), true) + ")";
        }
        return "± " + elo(elo.error(), false) + " (" + spread + ")";
    }

    static String elo(double value, boolean signed) {
        if (Double.isNaN(value)) {
            return "-";
        }
        if (Double.isInfinite(value)) {
            return value > 0 ? (signed ? "+inf" : "inf") : "-inf";
        }
        double rounded = Math.round(value * 10) / 10.0 + 0.0; // no "-0.0"
        return String.format(Locale.ROOT, signed && rounded != 0 ? "%+.1f" : "%.1f", rounded);
    }
}
