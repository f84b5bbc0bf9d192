package dev.taikai.referee.game;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.taikai.enginehost.catalog.EngineSpec;
import dev.taikai.enginehost.session.Score;
import dev.taikai.enginehost.session.Timeouts;
import dev.taikai.enginehost.usi.UsiEngine;
import dev.taikai.rules.Color;
import dev.taikai.rules.Game;
import dev.taikai.rules.Position;
import dev.taikai.rules.Result;
import dev.taikai.rules.Sfen;
import dev.taikai.rules.Termination;
import dev.taikai.rules.Variant;
import dev.taikai.testkit.FakeEngines;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The referee with real fake-engine processes: every way a game can end, and honest records. */
@Timeout(value = 300, unit = TimeUnit.SECONDS) // a hang guard: a loaded machine is slow, not wrong
class RefereeTest {
    /**
     * Deadlines after which an engine counts as stalled. The move margin is generous, so that only the
     * engines that are meant to be late or silent ever reach it, however loaded the machine.
     */
    private static final Timeouts QUICK = new Timeouts(10_000, 10_000, 2_000, 5_000, 2_000, 500);
    /** The clock of a side that is meant to lose on time. */
    private static final TimeControl FAST = TimeControl.byoyomi(0, 200);
    /** The clock of a side that answers at once and must not lose on time, however loaded the machine. */
    private static final TimeControl AMPLE = TimeControl.byoyomi(0, 2_000);

    @Test
    void randomEnginesPlayToAnEndTheRulesJudge() throws Exception {
        GameRecord record = play(
                Variant.MINISHOGI,
                List.of("--think-ms", "0"),
                List.of("--think-ms", "0", "--seed", "7"),
                TimeControl.nodes(1),
                Adjudication.DEFAULT.withMoveLimit(0));
        assertTrue(record.outcome().termination().byRules(), record.outcome().toString());
        assertReplays(record);
        assertTrue(record.moves().stream().allMatch(m -> m.depth() == 1 && m.nodes() > 0 && m.score() != null));
    }

    @Test
    void recordsAsKif() throws Exception {
        Opening opening = Opening.of(Sfen.parse(Variant.MINISHOGI, "4k/5/5/5/K3r b - 1"), List.of());
        GameRecord record = play(
                opening,
                List.of("--script", "5e5d,5d5e,5e5d,5d5e,5e5d,5d5e"),
                List.of("--script", "1e1d,1d1e,1e1d,1d1e,1e1d,1d1e"),
                TimeControl.nodes(1),
                Adjudication.DEFAULT);
        String kif = Kif.write(record, "test");
        assertEquals(
                Kif.write(withTimes(record, 1_000_000_000), "test"),
                Kif.write(withTimes(record, 999_999_600), "test"),
                "the KIF's times are whole microseconds");
        assertEquals(
                Kif.write(withTimes(record, 52_499_600), "test"),
                Kif.write(withTimes(record, 52_500_000), "test"),
                "a record read back from the journal (microseconds) writes the same KIF");
        assertTrue(Kif.write(withTimes(record, 999_999_600), "test").contains("*time 1000 ms"));
        // the total is the charged time summed, then rounded down: two moves of 0.6 s are 1 s, not 0 + 0
        String charged = Kif.write(withCharged(record, 600_000_000), "test");
        assertTrue(charged.contains("   1 ５四玉(55)     ( 0:00/00:00:00)"), charged);
        assertTrue(charged.contains("   3 ５五玉(54)     ( 0:00/00:00:01)"), charged);
        assertTrue(charged.contains("   7 ５五玉(54)     ( 0:00/00:00:02)"), charged);
        assertTrue(kif.contains("手合割：5五将棋\n"), kif);
        assertTrue(kif.contains("先手：sente\n後手：gote\n"), kif);
        assertTrue(kif.contains("|v飛 ・ ・ ・ ・|一") || kif.contains("| ・ ・ ・ ・v玉|一"), kif);
        assertTrue(kif.contains("   1 ５四玉(55)"), kif);
        assertTrue(kif.contains("   2 １四飛不成(15)"), kif);
        assertTrue(kif.contains("  13 反則勝ち"), "gote's perpetual check: sente, to move, wins\n" + kif);
        assertTrue(kif.contains("( 0:00/00:00:00)\n*time "), "each move has its comment: " + kif);
        assertTrue(kif.trim().endsWith("まで12手で先手の勝ち"), kif);

        GameRecord kyoto = play(
                Variant.KYOTOSHOGI,
                List.of("--script", "5e4d-,4d4c+"),
                List.of("--script", "1a2b-"),
                TimeControl.nodes(1),
                Adjudication.DEFAULT.withMoveLimit(3));
        String kyotoKif = Kif.write(kyoto, "test");
        assertTrue(kyotoKif.contains("手合割：京都将棋\n"), kyotoKif);
        assertTrue(kyotoKif.contains("   1 ４四と成(55)"), kyotoKif);
        assertTrue(kyotoKif.contains("   2 ２二と成(11)"), kyotoKif);
        assertTrue(kyotoKif.contains("   3 ４三香成(44)"), kyotoKif);
        assertTrue(kyotoKif.contains("   4 持将棋\n"), "a draw by the move limit: " + kyotoKif);
        assertTrue(kyotoKif.trim().endsWith("まで3手で引き分け"), kyotoKif);
    }

    @Test
    void aKifFromAnOpeningHasTheBookMovesFirstAndNumbersTheGameOnFromThem() throws Exception {
        Opening book = Opening.of(Position.start(Variant.KYOTOSHOGI), List.of("5e4d-", "1a2b-"));
        GameRecord record = play(
                book,
                List.of("--script", "4d4c+"),
                List.of("--script", "2b2c"),
                TimeControl.nodes(1),
                Adjudication.DEFAULT.withMoveLimit(1));
        assertEquals(1, record.moves().size(), record.toString());
        String kif = Kif.write(record, "test");
        assertFalse(kif.contains("+---------------+"), "the variant's start needs no board: " + kif);
        List<String> lines = kif.lines().toList();
        int first = lines.indexOf("手数----指手---------消費時間--") + 1;
        assertEquals("   1 ４四と成(55)    ( 0:00/00:00:00)", lines.get(first), kif);
        assertEquals("*book", lines.get(first + 1), kif);
        assertEquals("   2 ２二と成(11)    ( 0:00/00:00:00)", lines.get(first + 2), kif);
        assertEquals("*book", lines.get(first + 3), kif);
        assertTrue(lines.get(first + 4).startsWith("   3 ４三香成(44)"), kif);
        assertTrue(lines.get(first + 5).startsWith("*time "), kif);
        assertTrue(kif.contains("   4 持将棋\n"), kif);
        assertTrue(kif.contains("*Taikai: adjudication — move limit: 1 ply\n"), "not '1 plies': " + kif);
        assertTrue(kif.trim().endsWith("まで3手で引き分け"), kif);

        // an opening that does not lead to where the engines started: the record's start wins, as a board
        GameAssignment a = record.assignment();
        GameAssignment astray = new GameAssignment(
                a.gameId(),
                a.round(),
                a.pairing(),
                a.gameInPairing(),
                a.variant(),
                a.sente(),
                a.gote(),
                Opening.start(Position.start(Variant.KYOTOSHOGI)),
                a.senteTimeControl(),
                a.goteTimeControl(),
                a.senteMarginMillis(),
                a.goteMarginMillis(),
                a.adjudication());
        String fromItsStart = Kif.write(
                new GameRecord(
                        astray,
                        record.startSfen(),
                        record.moves(),
                        record.outcome(),
                        record.startedEpochMillis(),
                        record.finishedEpochMillis(),
                        record.timeLossOverrunNanos()),
                "test");
        assertTrue(fromItsStart.contains("+---------------+"), fromItsStart);
        assertFalse(fromItsStart.contains("*book"), fromItsStart);
        assertTrue(fromItsStart.contains("   1 ４三香成(44)"), fromItsStart);
        assertTrue(fromItsStart.trim().endsWith("まで1手で引き分け"), fromItsStart);
    }

    @Test
    void overstepTheByoyomiAndLose() throws Exception {
        GameRecord record = play(
                Opening.start(Position.start(Variant.MINISHOGI)),
                List.of("--think-ms", "0"),
                List.of("--think-ms", "400"),
                AMPLE,
                FAST,
                Adjudication.DEFAULT);
        assertEquals(
                Termination.TIME_FORFEIT,
                record.outcome().termination(),
                record.outcome().toString());
        assertEquals(Result.SENTE_WINS, record.outcome().result());
        Matcher used = Pattern.compile("gote \\(gote\\) used (\\d+\\.\\d) ms of 200 ms allowed \\(and a margin of 0 ms"
                        // the manager's own wait for a CPU, if any, is named but saves nothing
                        + "(, with \\d+\\.\\d ms waiting for a CPU not counted)?\\)")
                .matcher(record.outcome().detail());
        assertTrue(used.matches(), record.outcome().detail());
        // the engine waits 400 ms by its own millisecond clock: at most 1 ms less by the referee's
        assertTrue(Double.parseDouble(used.group(1)) >= 399, record.outcome().detail());
        assertEquals(1, record.plies(), "the late move is not played");
        assertReplays(record);
    }

    @Test
    void engineMisdeedsLose() throws Exception {
        assertEnds(List.of("--illegal-move"), Termination.ILLEGAL_MOVE, "illegal move");
        assertEnds(List.of("--win"), Termination.ILLEGAL_MOVE, "'bestmove win'");
        assertEnds(List.of("--malformed-bestmove"), Termination.ILLEGAL_MOVE, "does not name a move");
        assertEnds(List.of("--resign"), Termination.RESIGNATION, "sente (sente) resigned");
        assertEnds(List.of("--crash-after", "2"), Termination.DISCONNECT, "exited with code 3");
        assertEnds(List.of("--stall-after-go"), Termination.TIME_FORFEIT, "made no move within 2000 ms allowed");
    }

    /** A silent engine under a clock loses on time; under a node or depth limit, which sets no time, it stalls. */
    @Test
    void aSilentEngineStallsWhereItsSearchHasNoTime() throws Exception {
        GameRecord record = play(
                Variant.MINISHOGI, List.of("--stall-after-go"), List.of(), TimeControl.nodes(1), Adjudication.DEFAULT);
        assertEquals(
                Termination.STALL,
                record.outcome().termination(),
                record.outcome().toString());
        assertTrue(
                record.outcome().detail().contains("no bestmove"),
                record.outcome().detail());
    }

    @Test
    void adjudication() throws Exception {
        GameRecord limited = play(
                Variant.KYOTOSHOGI, List.of(), List.of(), TimeControl.nodes(1), Adjudication.DEFAULT.withMoveLimit(6));
        assertEquals(Termination.ADJUDICATION, limited.outcome().termination());
        assertEquals(Result.DRAW, limited.outcome().result());
        assertEquals("move limit: 6 plies", limited.outcome().detail());
        assertEquals(6, limited.plies());

        GameRecord resigned = play(
                Variant.MINISHOGI,
                List.of("--score", "-500"),
                List.of("--score", "400"),
                TimeControl.nodes(1),
                Adjudication.DEFAULT.withResign(300, 3));
        assertEquals(Termination.ADJUDICATION, resigned.outcome().termination());
        assertEquals(Result.GOTE_WINS, resigned.outcome().result());
        assertEquals(6, resigned.plies(), "three moves each");
        assertEquals(
                new Score(false, -500, Score.Bound.EXACT),
                resigned.moves().get(0).score());

        GameRecord drawn = play(
                Variant.MINISHOGI,
                List.of("--score", "3"),
                List.of("--score", "-2"),
                TimeControl.nodes(1),
                Adjudication.DEFAULT.withDraw(10, 4, 10));
        assertEquals(Result.DRAW, drawn.outcome().result());
        assertEquals(10, drawn.plies(), "not before ply 10");
    }

    @Test
    void theRulesDecideRepetitionNotTheEngines() throws Exception {
        // Gote checks perpetually from the start position of the golden game; the scripts make both sides
        // play it, and gote loses although it also reports a winning score.
        Opening opening = Opening.of(Sfen.parse(Variant.MINISHOGI, "4k/5/5/5/K3r b - 1"), List.of());
        GameRecord record = play(
                opening,
                List.of("--script", "5e5d,5d5e,5e5d,5d5e,5e5d,5d5e"),
                List.of("--script", "1e1d,1d1e,1e1d,1d1e,1e1d,1d1e", "--score", "900"),
                TimeControl.nodes(1),
                Adjudication.DEFAULT.withResign(300, 2));
        assertEquals(Termination.PERPETUAL_CHECK, record.outcome().termination());
        assertEquals(Result.SENTE_WINS, record.outcome().result());
        assertReplays(record);
    }

    @Test
    void clocksFollowTheirControl() {
        Clock fischer = new Clock(TimeControl.fischer(1000, 100), TimeControl.suddenDeath(500), 0, 0);
        assertEquals(
                "go btime 1000 wtime 500 binc 100 winc 0",
                fischer.limitsFor(Color.SENTE).goCommand(false));
        assertEquals(1000 - 250 + 100, fischer.charge(Color.SENTE, 250_000_000).remainingMillis());
        assertTrue(fischer.charge(Color.GOTE, 500_000_001).forfeit(), "sudden death: over the main time");

        Clock byoyomi = new Clock(TimeControl.byoyomi(300, 100), TimeControl.byoyomi(300, 100), 20, 0);
        assertEquals(
                "go btime 300 wtime 300 byoyomi 100",
                byoyomi.limitsFor(Color.GOTE).goCommand(false));
        assertEquals(0, byoyomi.charge(Color.SENTE, 350_000_000).remainingMillis(), "byoyomi covered the rest");
        assertTrue(!byoyomi.charge(Color.SENTE, 115_000_000).forfeit(), "within the overrun margin");
        assertTrue(byoyomi.charge(Color.SENTE, 121_000_000).forfeit(), "beyond byoyomi plus margin");
        assertTrue(byoyomi.charge(Color.GOTE, 400_000_001).forfeit(), "gote's margin is its own: none");
        assertEquals(15_000_000, byoyomi.charge(Color.SENTE, 115_000_000).overrunNanos(), "the overrun is kept");
        assertEquals(0, byoyomi.charge(Color.SENTE, 99_000_000).overrunNanos());

        Clock fixed = new Clock(TimeControl.moveTime(50), TimeControl.nodes(10), 0, 0);
        assertEquals("go movetime 50", fixed.limitsFor(Color.SENTE).goCommand(false));
        assertEquals("go nodes 10", fixed.limitsFor(Color.GOTE).goCommand(false));
        assertTrue(!fixed.charge(Color.GOTE, 60_000_000_000L).forfeit(), "nodes: no time limit");
        assertEquals(0, fixed.charge(Color.GOTE, 60_000_000_000L).overrunNanos(), "nodes: nothing to overrun");
    }

    @Test
    void timeSpentWaitingForACpuDoesNotCountAgainstTheMarginButIsCharged() {
        Clock clock = new Clock(TimeControl.moveTime(50), TimeControl.fischer(1000, 0), 45, 100);
        assertTrue(clock.charge(Color.SENTE, 150_000_000, 0).forfeit(), "100 ms over a 45 ms margin");
        Clock.Charge waited = clock.charge(Color.SENTE, 150_000_000, 80_000_000);
        assertFalse(waited.forfeit(), "80 ms of the 100 waiting for a CPU: 20 ms counted");
        assertEquals(100_000_000, waited.overrunNanos(), "the overrun is kept whole");
        assertEquals(80_000_000, waited.excusedNanos());
        assertEquals(20_000_000, waited.countedOverrunNanos());
        assertTrue(
                clock.charge(Color.SENTE, 500_000_000, 500_000_000).forfeit(),
                "at most the allowance and margin (95 ms) is excused");
        Clock.Charge fischer = clock.charge(Color.GOTE, 900_000_000, 400_000_000);
        assertEquals(100, fischer.remainingMillis(), "the clock is charged every nanosecond used");
    }

    @Test
    void theDefaultMarginFollowsTheControl() {
        assertEquals(45, OverrunMargin.rule(TimeControl.moveTime(50)), "nine tenths of a short move time");
        assertEquals(90, OverrunMargin.rule(TimeControl.moveTime(100)));
        assertEquals(100, OverrunMargin.rule(TimeControl.moveTime(500)), "the floor");
        assertEquals(300, OverrunMargin.rule(TimeControl.moveTime(3000)), "a tenth");
        assertEquals(90, OverrunMargin.rule(TimeControl.byoyomi(0, 100)));
        assertEquals(90, OverrunMargin.rule(TimeControl.byoyomi(10_000, 100)), "byoyomi, not the main time");
        assertEquals(100, OverrunMargin.rule(TimeControl.fischer(1000, 10)));
        assertEquals(200, OverrunMargin.rule(TimeControl.fischer(60_000, 2000)));
        assertEquals(0, OverrunMargin.rule(TimeControl.depth(5)));
        assertEquals(0, OverrunMargin.of(0).millisFor(TimeControl.moveTime(50)), "0 stays 0");
        assertEquals(30, OverrunMargin.of(30).millisFor(TimeControl.moveTime(1000)));
        for (long t : new long[] {1, 2, 10, 50, 99, 100, 1000, 60_000}) {
            TimeControl control = TimeControl.moveTime(t);
            Clock clock = new Clock(control, control, OverrunMargin.rule(control), OverrunMargin.rule(control));
            assertTrue(clock.charge(Color.SENTE, 2 * t * 1_000_000).forfeit(), "twice the time loses at " + t);
        }
        IllegalArgumentException tooMuch = assertThrows(IllegalArgumentException.class, () -> OverrunMargin.of(60_001));
        assertEquals("an overrun margin is 0 to 60000 ms, not 60001", tooMuch.getMessage());
    }

    @Test
    void timeControlText() {
        for (String text :
                List.of("60", "60+0.5", "10 byoyomi 1", "byoyomi 0.1", "movetime 0.2", "nodes 1000", "depth 5")) {
            assertEquals(text, TimeControl.parse(text).toString());
        }
        assertEquals(TimeControl.fischer(1500, 20), TimeControl.parse("1.5+0.02"));
        assertEquals(TimeControl.suddenDeath(60_000), TimeControl.parse("60+0"));
        for (String bad : List.of("", "fast", "-1", "60+", "movetime 0", "nodes x", "1.0001", "10 byoyomi")) {
            IllegalArgumentException e = org.junit.jupiter.api.Assertions.assertThrows(
                    IllegalArgumentException.class, () -> TimeControl.parse(bad), bad);
            assertTrue(e.getMessage().startsWith("time control '" + bad + "'"), e.getMessage());
        }
        // each refusal says what is wrong, where all of these once said "not a number where one is expected"
        Map<String, String> said = Map.of(
                "1.0005", "time control '1.0005': '1.0005' has more than three decimals (times are whole milliseconds)",
                "9300000000", "time control '9300000000': '9300000000' seconds is more than a day (at most 86400)",
                "1+9300000000", "time control '1+9300000000': '9300000000' seconds is more than a day (at most 86400)",
                "depth 99999999999",
                        "time control 'depth 99999999999': '99999999999' is not a whole number from 1 to 1000",
                "60+1 byoyomi 1",
                        "time control '60+1 byoyomi 1': an increment and a byoyomi are two time controls; give one",
                "40/60", "time control '40/60': moves/time controls are not supported; use 60, 60+0.5 or 60 byoyomi 1",
                "60++1", "time control '60++1': '+1' is not a number of seconds");
        said.forEach((text, message) -> assertEquals(
                message,
                org.junit.jupiter.api.Assertions.assertThrows(
                                IllegalArgumentException.class, () -> TimeControl.parse(text))
                        .getMessage()));
        assertEquals(TimeControl.moveTime(500), TimeControl.parse("movetime .5"));
        // cutechess-cli's minutes:seconds for the main time
        assertEquals(TimeControl.fischer(90_000, 500), TimeControl.parse("1:30+0.5"));
        assertEquals(TimeControl.suddenDeath(10_500), TimeControl.parse("0:10.5"));
        assertEquals(TimeControl.byoyomi(120_000, 1000), TimeControl.parse("2:00 byoyomi 1"));
        assertEquals(
                "time control '1:60': '1:60' is not minutes:seconds (1:30, 0:10.5)",
                org.junit.jupiter.api.Assertions.assertThrows(
                                IllegalArgumentException.class, () -> TimeControl.parse("1:60"))
                        .getMessage());
        assertEquals(
                "time control 'inf': a search without a clock is 'nodes N' or 'depth N' here",
                org.junit.jupiter.api.Assertions.assertThrows(
                                IllegalArgumentException.class, () -> TimeControl.parse("inf"))
                        .getMessage());
        assertEquals(TimeControl.suddenDeath(86_400_000), TimeControl.parse("86400"), "a day is the longest");
    }

    /** Sente, with {@code senteSwitches}, loses by {@code termination}; both sides answer at once. */
    private static void assertEnds(List<String> senteSwitches, Termination termination, String detail)
            throws Exception {
        List<String> sente = new ArrayList<>(List.of("--think-ms", "0"));
        sente.addAll(senteSwitches);
        GameRecord record = play(
                Opening.start(Position.start(Variant.MINISHOGI)),
                sente,
                List.of("--think-ms", "0"),
                AMPLE,
                AMPLE,
                Adjudication.DEFAULT);
        assertEquals(
                termination, record.outcome().termination(), record.outcome().toString());
        assertEquals(Result.GOTE_WINS, record.outcome().result());
        assertTrue(record.outcome().detail().contains(detail), record.outcome().detail());
        assertReplays(record);
    }

    /** {@code record} with every move's engine time {@code nanos}, except where it is already that. */
    private static GameRecord withCharged(GameRecord record, long nanos) {
        return withEachMove(
                record,
                m -> new MoveRecord(
                        m.move(),
                        m.timeNanos(),
                        m.refereeNanos(),
                        m.remainingMillis(),
                        m.score(),
                        m.depth(),
                        m.nodes(),
                        nanos,
                        m.allowedNanos(),
                        m.overrunNanos(),
                        m.cpuWaitNanos()));
    }

    private static GameRecord withTimes(GameRecord record, long nanos) {
        return withEachMove(
                record,
                m -> new MoveRecord(
                        m.move(),
                        nanos,
                        m.refereeNanos(),
                        m.remainingMillis(),
                        m.score(),
                        m.depth(),
                        m.nodes(),
                        m.chargedNanos(),
                        m.allowedNanos(),
                        m.overrunNanos(),
                        m.cpuWaitNanos()));
    }

    private static GameRecord withEachMove(GameRecord record, java.util.function.UnaryOperator<MoveRecord> change) {
        return new GameRecord(
                record.assignment(),
                record.startSfen(),
                record.moves().stream().map(change).toList(),
                record.outcome(),
                record.startedEpochMillis(),
                record.finishedEpochMillis(),
                record.timeLossOverrunNanos());
    }

    private static GameRecord play(
            Variant variant, List<String> sente, List<String> gote, TimeControl tc, Adjudication adjudication)
            throws Exception {
        return play(Opening.start(Position.start(variant)), sente, gote, tc, adjudication);
    }

    private static GameRecord play(
            Opening opening, List<String> sente, List<String> gote, TimeControl tc, Adjudication adjudication) {
        return play(opening, sente, gote, tc, tc, adjudication);
    }

    private static GameRecord play(
            Opening opening,
            List<String> sente,
            List<String> gote,
            TimeControl senteTc,
            TimeControl goteTc,
            Adjudication adjudication) {
        Variant variant = opening.position().variant();
        UsiEngine senteEngine = start(sente, variant);
        try {
            UsiEngine goteEngine = start(gote, variant);
            try {
                senteEngine.newGame();
                goteEngine.newGame();
                GameAssignment assignment = new GameAssignment(
                        "test", 1, 1, 1, variant, "sente", "gote", opening, senteTc, goteTc, 0, 0, adjudication);
                GameRecord record = Referee.play(
                        assignment, new SessionPlayer("sente", senteEngine), new SessionPlayer("gote", goteEngine));
                // every honest record, whatever ended it, holds up when replayed as the scheduler replays it
                assertEquals(java.util.Optional.empty(), RecordCheck.problem(record, assignment), record.toString());
                return record;
            } finally {
                goteEngine.close();
            }
        } finally {
            senteEngine.close();
        }
    }

    private static UsiEngine start(List<String> switches, Variant variant) {
        return assertInstanceOf(
                UsiEngine.class,
                UsiEngine.start(
                        EngineSpec.of("fake", FakeEngines.command(switches.toArray(new String[0]))), variant, QUICK));
    }

    /** The record's moves are legal, one after another, from its start position. */
    private static void assertReplays(GameRecord record) throws Exception {
        Game replay = new Game(Sfen.parse(record.assignment().variant(), record.startSfen()));
        for (MoveRecord move : record.moves()) {
            replay.play(move.move(), dev.taikai.rules.Notation.FAIRY_STOCKFISH);
        }
        if (record.outcome().termination().byRules()) {
            assertEquals(record.outcome(), replay.outcome().orElseThrow());
        }
    }
}
