package dev.taikai.cli.run;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.taikai.tournament.stats.EloInterval;
import dev.taikai.tournament.stats.Pentanomial;
import dev.taikai.tournament.stats.Wdl;
import org.junit.jupiter.api.Test;

/** The match block's intervals say what they are, and none is claimed where the results did not vary. */
class ReportIntervalTest {
    @Test
    void resultsThatVaryGiveAnIntervalAndResultsThatDoNotSaySo() {
        assertEquals(
                "(no interval: every one of the 4 games ended alike)",
                Report.interval(EloInterval.of(new Wdl(0, 4, 0)), "games", 4));
        assertEquals(
                "(no interval: every one of the 3 games ended alike)",
                Report.interval(EloInterval.of(new Wdl(3, 0, 0)), "games", 3));
        assertEquals(
                "(no interval: one of the games only)", Report.interval(EloInterval.of(new Wdl(1, 0, 0)), "games", 1));
        // 3 wins and a loss: the score's 95% range passes 100%, so the interval is open above
        EloInterval wonThreeOfFour = EloInterval.of(new Wdl(3, 0, 1));
        assertEquals(
                "(95%, from the spread of 4 games: " + Report.elo(wonThreeOfFour.lower(), true) + " to +inf)",
                Report.interval(wonThreeOfFour, "games", 4));
        // a pair drawn 1-1 and a pair won 2-0 differ: not "alike"
        Pentanomial pairs = new Pentanomial(0, 0, 1, 0, 0, 1);
        assertEquals(
                "(95%, from the spread of 2 pairs: "
                        + Report.elo(EloInterval.of(pairs).lower(), true) + " to +inf)",
                Report.interval(EloInterval.of(pairs), "pairs", 2));
        EloInterval even = EloInterval.of(new Wdl(40, 20, 40));
        assertEquals(
                "± " + Report.elo(even.error(), false) + " (95%, from the spread of 100 games)",
                Report.interval(even, "games", 100));
        // pairs [2, 0, 2, 0, 0]: lopsided, -190.8 ± 458.0 read as holding 0, where its ends do not
        Pentanomial lopsided = new Pentanomial(2, 0, 2, 0, 0, 0);
        EloInterval ends = EloInterval.of(lopsided);
        assertEquals(true, ends.upper() < 0, ends.toString());
        assertEquals(
                "(95%, from the spread of 4 pairs: " + Report.elo(ends.lower(), true) + " to "
                        + Report.elo(ends.upper(), true) + ")",
                Report.interval(ends, "pairs", 4));
    }
}
