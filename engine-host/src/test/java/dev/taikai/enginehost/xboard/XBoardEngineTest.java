package dev.taikai.enginehost.xboard;

import static dev.taikai.enginehost.xboard.XBoardSessions.QUICK;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.taikai.enginehost.session.BestMove;
import dev.taikai.enginehost.session.EngineFailure;
import dev.taikai.enginehost.session.EngineSession;
import dev.taikai.enginehost.session.GameEnd;
import dev.taikai.enginehost.session.MoveReply;
import dev.taikai.enginehost.session.PositionCommand;
import dev.taikai.enginehost.session.SearchLimits;
import dev.taikai.rules.Notation;
import dev.taikai.rules.Position;
import dev.taikai.rules.Sfen;
import dev.taikai.rules.Usi;
import dev.taikai.rules.Variant;
import dev.taikai.testkit.Leaks;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The XBoard driver against the XBoard fake of the testkit: real processes, real pipes, one switch each.
 * Every test ends with no process of its engines left.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
@ExtendWith(XBoardSessions.CloseLeftovers.class)
class XBoardEngineTest {
    /** A Minishogi game begun with a capture each and a promotion: hands on both sides, a promoted piece. */
    static final String MINISHOGI_MIDGAME = "rb1k1/1s2p/5/P4/KGS1R b Gb 5";
    /** A Kyoto shogi game with gote's silver in hand, sente to move. */
    static final String KYOTO_MIDGAME = "pgk1t/5/3s1/5/T1KGP b s 5";

    @Test
    void aGameIsPlayedWithEveryMoveTranslatedAndTimedAtThePipe() throws Exception {
        Leaks before = Leaks.snapshot();
        for (Variant variant : Variant.all()) {
            XBoardEngine sente = XBoardSessions.startFake(variant, "--seed", "1");
            XBoardEngine gote = XBoardSessions.startFake(variant, "--seed", "2", "--score", "-37");
            assertEquals("Taikai fake engine", sente.identity().name());
            assertTrue(sente.identity().option("Skill Level").isPresent(), "its option features");
            List<BestMove> moves = play(List.of(sente, gote), variant, null, 40, SearchLimits.byoyomi(1000, 1000, 100));
            BestMove goteMove = moves.get(1);
            assertTrue(goteMove.engineNanos() > 0, "timed at the pipe");
            assertNotNull(goteMove.info(), "thinking output is the move's telemetry");
            assertEquals(-37, goteMove.info().score().value());
            assertEquals(List.of(goteMove.move()), goteMove.info().pv(), "the pv in USI");
            XBoardSessions.closeAndAssertGone(sente);
            XBoardSessions.closeAndAssertGone(gote);
        }
        before.assertNoneLeft(java.time.Duration.ofSeconds(10)); // threads, processes and descriptors
    }

    @Test
    void aGameFromAnOpeningPositionIsSetUpWithSetboard(@TempDir Path dir) throws Exception {
        for (Variant variant : Variant.all()) {
            String start = variant == Variant.MINISHOGI ? MINISHOGI_MIDGAME : KYOTO_MIDGAME;
            Path input = dir.resolve(variant.name() + ".log");
            XBoardEngine sente = XBoardSessions.startFake(variant, "--log-input", input.toString());
            XBoardEngine gote = XBoardSessions.startFake(variant, "--seed", "5");
            play(List.of(sente, gote), variant, start, 20, SearchLimits.movetime(50));
            String fen = XBoardText.fen(start);
            assertTrue(Files.readString(input).contains("setboard " + fen + "\n"), Files.readString(input));
            sente.close();
            gote.close();
        }
    }

    @Test
    void eachTimeControlIsSentAsCecpHasIt(@TempDir Path dir) throws Exception {
        Path input = dir.resolve("input.log");
        XBoardEngine engine = XBoardSessions.startFake(Variant.MINISHOGI, "--log-input", input.toString());
        String start = Position.start(Variant.MINISHOGI).toSfen(Notation.LISHOGI);
        List<SearchLimits> forms = List.of(
                SearchLimits.movetime(150),
                SearchLimits.byoyomi(10_000, 9_000, 100),
                SearchLimits.fischer(61_000, 60_500, 10, 10),
                SearchLimits.byoyomi(0, 0, 250),
                SearchLimits.fischer(500, 400, 100, 100),
                SearchLimits.depth(3),
                SearchLimits.nodes(500));
        for (SearchLimits limits : forms) {
            assertTrue(engine.newGame().isEmpty());
            MoveReply reply = engine.go(new PositionCommand(start, List.of()), limits);
            assertInstanceOf(BestMove.class, reply, limits + ": " + reply);
        }
        String sent = Files.readString(input);
        for (String expected : List.of(
                "st 0.15\n",
                "time 15\notim 15\ngo\n",
                "level 0 0:10 0.1\n",
                "time 1010\notim 910\ngo\n", // the main time left and the byoyomi: what the move may take
                "level 0 1:01 0.01\n",
                "time 6100\notim 6050\ngo\n", // the main time left: the increment comes after the move
                "level 0 0 0.25\n",
                "time 25\notim 25\ngo\n",
                "level 0 0:01 0.1\n", // half a second of main time: level has whole seconds (it said 0, none)
                "sd 3\nst 3600\n",
                "nps 500\nst 1\n")) {
            assertTrue(sent.contains(expected), "sent " + expected + " in:\n" + sent);
        }
        assertTrue(sent.contains("ping "), "synchronised before each move");
        XBoardSessions.closeAndAssertGone(engine);
    }

    /**
     * An engine's level is its own control, sent once a game: it was built from the larger of both clocks
     * and increments, so Sjaak II at 5+0.1 against an engine at 5+3 was told an increment of 3 s and ran
     * out of time, and the level was sent again as the clocks ran down.
     */
    @Test
    void theLevelIsTheEnginesOwnControlSentOnceAGame(@TempDir Path dir) throws Exception {
        Path senteInput = dir.resolve("sente.log");
        Path goteInput = dir.resolve("gote.log");
        List<XBoardEngine> sides = List.of(
                XBoardSessions.startFake(Variant.MINISHOGI, "--log-input", senteInput.toString()),
                XBoardSessions.startFake(Variant.MINISHOGI, "--seed", "5", "--log-input", goteInput.toString()));
        Position position = Position.start(Variant.MINISHOGI);
        String start = position.toSfen(Notation.LISHOGI);
        for (XBoardEngine side : sides) {
            assertTrue(side.newGame().isEmpty());
        }
        // sente at 5 s + 0.1 s against gote at 4 s + 3 s, the clocks running down move by move
        List<String> moves = new ArrayList<>();
        for (int ply = 0; ply < 6 && position.legalMoves().length > 0; ply++) {
            SearchLimits limits = SearchLimits.fischer(5_000 - 100 * ply, 4_000 - 100 * ply, 100, 3_000);
            XBoardEngine mover = sides.get(ply % 2);
            BestMove best = assertInstanceOf(
                    BestMove.class, mover.go(new PositionCommand(start, moves), limits.withGrace(1000)));
            position = position.play(Usi.parse(position, best.move(), mover.notation()));
            moves.add(best.move());
        }
        String sente = Files.readString(senteInput);
        String gote = Files.readString(goteInput);
        assertTrue(sente.contains("level 0 0:05 0.1\n"), sente);
        // 3.9 s at its first move: the nearest whole second
        assertTrue(gote.contains("level 0 0:04 3\n"), "its own main time and increment: " + gote);
        assertTrue(gote.contains("time 370\notim 470\ngo\n"), "the main time left, no increment: " + gote);
        assertEquals(1, sente.split("level ", -1).length - 1, "once a game: " + sente);
        assertEquals(1, gote.split("level ", -1).length - 1, "once a game: " + gote);
        for (XBoardEngine side : sides) {
            XBoardSessions.closeAndAssertGone(side);
        }
    }

    @Test
    void aFalseClaimLosesWhetherInsteadOfAMoveOrAfterIt() throws Exception {
        XBoardEngine instead = XBoardSessions.startFake(Variant.MINISHOGI, "--false-claim");
        EngineFailure failure = failOnFirstMove(instead);
        assertEquals(EngineFailure.Kind.PROTOCOL_ERROR, failure.kind());
        assertTrue(failure.detail().contains("false claim '1-0 {White mates}' instead of a move"), failure.detail());
        XBoardSessions.closeAndAssertGone(instead);

        XBoardEngine after = XBoardSessions.startFake(Variant.MINISHOGI, "--claim-after-move");
        XBoardEngine other = XBoardSessions.startFake(Variant.MINISHOGI);
        MoveReply claimed = playUntilFailure(List.of(after, other), Variant.MINISHOGI);
        EngineFailure late = assertInstanceOf(EngineFailure.class, claimed);
        assertTrue(late.detail().contains("false claim '1/2-1/2 {claimed after the move}'"), late.detail());
        after.close();
        other.close();
    }

    @Test
    void everyFailureSwitchEndsTheSessionWithItsKind() throws Exception {
        record Case(String[] switches, EngineFailure.Kind kind, String detail) {}
        List<Case> cases = List.of(
                new Case(
                        new String[] {"--crash-on-go"},
                        EngineFailure.Kind.DISCONNECT,
                        "exited with code 3 during a search"),
                new Case(new String[] {"--stall-after-go"}, EngineFailure.Kind.STALL, "no move"),
                new Case(
                        new String[] {"--malformed-bestmove"},
                        EngineFailure.Kind.PROTOCOL_ERROR,
                        "'move xyzzy' does not name a move"),
                new Case(
                        new String[] {"--refuse-moves"},
                        EngineFailure.Kind.PROTOCOL_ERROR,
                        "the engine refused a move the rules allow ('Illegal move: "));
        for (Case c : cases) {
            XBoardEngine engine = XBoardSessions.startFake(Variant.MINISHOGI, c.switches());
            long pid = engine.pid();
            MoveReply reply = c.switches()[0].equals("--refuse-moves")
                    ? goFrom(engine, List.of("3e2d"))
                    : goFrom(engine, List.of());
            EngineFailure failure = assertInstanceOf(EngineFailure.class, reply, String.join(" ", c.switches()));
            assertEquals(c.kind(), failure.kind(), failure.toString());
            assertTrue(failure.detail().contains(c.detail()), failure.detail());
            assertEquals(failure, engine.failure().orElseThrow(), "a failed session stays failed");
            engine.close();
            assertEquals(List.of(), dev.taikai.enginehost.session.ProcessTable.liveProcessesOf(pid, pid));
        }
    }

    @Test
    void resignationsAreMovesIllegalMovesLoseWithTheEnginesTextAndDrawOffersAreKeptOnly() throws Exception {
        XBoardEngine resigning = XBoardSessions.startFake(Variant.KYOTOSHOGI, "--resign");
        assertEquals(
                "resign",
                assertInstanceOf(BestMove.class, goFrom(resigning, List.of())).move());
        resigning.close();
        // CECP's other resignation, a result with "resign" in its comment, from sente (XBoard's white) and gote
        XBoardEngine resultResigning = XBoardSessions.startFake(Variant.MINISHOGI, "--resign-as-result");
        assertEquals(
                "resign",
                assertInstanceOf(BestMove.class, goFrom(resultResigning, List.of()))
                        .move());
        assertEquals(
                "resign",
                assertInstanceOf(BestMove.class, goFrom(resultResigning, List.of("3e2d")))
                        .move());
        resultResigning.close();
        XBoardEngine illegal = XBoardSessions.startFake(Variant.MINISHOGI, "--illegal-move");
        EngineFailure refused = assertInstanceOf(EngineFailure.class, goFrom(illegal, List.of()));
        assertEquals(EngineFailure.Kind.PROTOCOL_ERROR, refused.kind(), "an illegal move loses as one");
        assertTrue(
                refused.detail().matches("illegal move 'move [a-e][1-5][a-e][1-5]' \\(.* in USI\\): .*"),
                refused.detail());
        illegal.close();
        XBoardEngine offering = XBoardSessions.startFake(Variant.MINISHOGI, "--offer-draw");
        XBoardEngine other = XBoardSessions.startFake(Variant.MINISHOGI);
        play(List.of(offering, other), Variant.MINISHOGI, null, 10, SearchLimits.movetime(20));
        offering.close();
        other.close();
    }

    /**
     * Without ping nothing reads what an engine says after its last move, such as the result claim CECP asks
     * for after a mating move; the next game took it for the first move's answer, a false claim.
     */
    @Test
    void whatTheLastGameLeftIsNoAnswerInTheNext() throws Exception {
        XBoardEngine engine = XBoardSessions.startFake(Variant.MINISHOGI, "--no-ping", "--claim-after-move");
        assertInstanceOf(BestMove.class, goFrom(engine, List.of())); // the fake's claim comes in the same write
        engine.gameOver(GameEnd.DRAW);
        MoveReply next = goFrom(engine, List.of());
        assertInstanceOf(BestMove.class, next, "the next game's first move: " + next);
        assertTrue(engine.outputOddities().contains(" answer(s) nobody asked for dropped"), engine.outputOddities());
        engine.close();
    }

    @Test
    void startsThatCannotPlayAreRefusedWithTheReason() {
        EngineFailure noVariant = XBoardSessions.startFailure(XBoardSessions.fake("--no-variant"), Variant.KYOTOSHOGI);
        assertEquals(EngineFailure.Kind.VARIANT_UNSUPPORTED, noVariant.kind());
        assertTrue(noVariant.detail().contains("include neither kyotoshogi nor 5x5+4_shogi"), noVariant.detail());
        EngineFailure wrong = XBoardSessions.startFailure(XBoardSessions.fake("--wrong-setup"), Variant.MINISHOGI);
        assertEquals(EngineFailure.Kind.VARIANT_UNSUPPORTED, wrong.kind());
        assertTrue(wrong.detail().contains("not the rules' rbsgk/4p/5/P4/KGSBR b - 1"), wrong.detail());
        EngineFailure noPong = XBoardSessions.startFailure(XBoardSessions.fake("--no-readyok"), Variant.MINISHOGI);
        assertEquals(EngineFailure.Kind.STALL, noPong.kind());
        assertTrue(noPong.detail().contains("no pong 1 within"), noPong.detail());
    }

    @Test
    void anEngineThatNeverSaysDoneIsTakenAfterTwoSecondsAsXBoardTakesIt() throws Exception {
        long started = System.nanoTime();
        XBoardEngine engine = XBoardSessions.startFake(Variant.MINISHOGI, "--no-usiok");
        long waited = (System.nanoTime() - started) / 1_000_000;
        assertTrue(waited >= XBoardEngine.FEATURE_WAIT_MILLIS, "waited " + waited + " ms");
        assertTrue(
                engine.warnings().get(0).contains("did not say feature done=1"),
                engine.warnings().toString());
        assertInstanceOf(BestMove.class, goFrom(engine, List.of()));
        engine.close();
    }

    @Test
    void anEngineWithoutSetboardPlaysFromTheStartAndIsRefusedAPosition() throws Exception {
        XBoardEngine engine = XBoardSessions.startFake(Variant.MINISHOGI, "--no-setboard", "--no-ping");
        assertInstanceOf(BestMove.class, goFrom(engine, List.of("3e2d")));
        assertTrue(engine.newGame().isEmpty());
        MoveReply reply = engine.go(new PositionCommand(MINISHOGI_MIDGAME, List.of()), SearchLimits.movetime(50));
        EngineFailure failure = assertInstanceOf(EngineFailure.class, reply);
        assertEquals(EngineFailure.Kind.VARIANT_UNSUPPORTED, failure.kind());
        assertTrue(failure.detail().contains("no feature setboard=1"), failure.detail());
        engine.close();
    }

    /** Without nps=1, CECP's node limit (nps with st 1) would be played as a second a move, silently. */
    @Test
    void anEngineWithoutNpsIsRefusedANodeLimit() throws Exception {
        XBoardEngine engine = XBoardSessions.startFake(Variant.MINISHOGI, "--no-nps");
        assertTrue(engine.newGame().isEmpty());
        String start = Position.start(Variant.MINISHOGI).toSfen(Notation.LISHOGI);
        MoveReply reply = engine.go(new PositionCommand(start, List.of()), SearchLimits.nodes(500));
        EngineFailure failure = assertInstanceOf(EngineFailure.class, reply);
        assertEquals(EngineFailure.Kind.VARIANT_UNSUPPORTED, failure.kind());
        assertTrue(
                failure.detail().contains("no feature nps=1, so it cannot play a node limit (nodes=500)"),
                failure.detail());
        engine.close();
    }

    @Test
    void anEngineThatAsksForReuseZeroGetsANewProcessEachGame() throws Exception {
        XBoardEngine engine = XBoardSessions.startFake(Variant.KYOTOSHOGI, "--reuse-zero");
        assertTrue(engine.newGame().isEmpty());
        assertInstanceOf(BestMove.class, goFrom(engine, List.of()));
        engine.gameOver(GameEnd.DRAW);
        long first = engine.pid();
        assertTrue(engine.newGame().isEmpty());
        assertNotEquals(first, engine.pid(), "a new process for the new game");
        assertEquals(List.of(), dev.taikai.enginehost.session.ProcessTable.liveProcessesOf(first, first));
        assertInstanceOf(BestMove.class, goFrom(engine, List.of()));
        XBoardSessions.closeAndAssertGone(engine);
    }

    @Test
    void optionsAreSentAsFeaturesDeclaredThemAndOthersAreNot(@TempDir Path dir) throws Exception {
        Path input = dir.resolve("input.log");
        XBoardEngine engine = XBoardSessions.start(
                XBoardSessions.fake("--log-input", input.toString())
                        .withOptions(Map.of("Skill Level", "3", "Ponder", "true", "Hash", "64", "memory", "32")),
                Variant.MINISHOGI,
                QUICK);
        String sent = Files.readString(input);
        assertTrue(sent.contains("option Skill Level=3\n"), sent);
        assertTrue(sent.contains("option Ponder=1\n"), sent);
        assertTrue(
                !sent.contains("Hash") && !sent.contains("memory 32"),
                "neither an undeclared option nor a feature it lacks: " + sent);
        assertEquals(
                2, engine.unlistedOptions().size(), engine.unlistedOptions().toString());
        assertTrue(
                engine.unlistedOptions().stream()
                        .anyMatch(o -> o.contains("option 'Hash' is not an option of engine 'fake-xboard'")),
                engine.unlistedOptions().toString());
        engine.close();
    }

    @Test
    void anEngineThatIgnoresQuitOrLeavesAChildIsKilledWithItsTree() throws Exception {
        XBoardEngine engine = XBoardSessions.startFake(Variant.MINISHOGI, "--ignore-quit", "--spawn-child");
        assertInstanceOf(BestMove.class, goFrom(engine, List.of()));
        XBoardSessions.closeAndAssertGone(engine);
    }

    @Test
    void floodsAndOverlongLinesDoNotStopAMove() throws Exception {
        XBoardEngine engine = XBoardSessions.startFake(Variant.MINISHOGI, "--flood", "8", "--huge-line", "2");
        assertInstanceOf(BestMove.class, goFrom(engine, List.of()));
        assertTrue(engine.outputOddities().contains("overlong line(s) cut"), engine.outputOddities());
        engine.close();
    }

    /** The reply of {@code engine} to a new game's position after {@code moves}, at 50 ms a move. */
    private static MoveReply goFrom(XBoardEngine engine, List<String> moves) {
        assertTrue(engine.newGame().isEmpty());
        String start = Position.start(engine.variant()).toSfen(Notation.LISHOGI);
        return engine.go(new PositionCommand(start, moves), SearchLimits.movetime(50));
    }

    private static EngineFailure failOnFirstMove(XBoardEngine engine) {
        return assertInstanceOf(EngineFailure.class, goFrom(engine, List.of()));
    }

    /**
     * Plays {@code plies} moves (fewer when the game ends) between the engines, in turn, from {@code start}
     * (null: the variant's), checking every move with the rules; the moves.
     */
    static List<BestMove> play(
            List<? extends EngineSession> sides, Variant variant, String start, int plies, SearchLimits limits)
            throws Exception {
        Position position = start == null ? Position.start(variant) : Sfen.parse(variant, start);
        String sfen = position.toSfen(Notation.LISHOGI);
        for (EngineSession side : sides) {
            assertTrue(side.newGame().isEmpty());
        }
        List<String> moves = new ArrayList<>();
        List<BestMove> replies = new ArrayList<>();
        for (int ply = 0; ply < plies && position.legalMoves().length > 0; ply++) {
            EngineSession mover = sides.get(ply % sides.size());
            MoveReply reply = mover.go(new PositionCommand(sfen, moves), limits.withGrace(1000));
            BestMove best = assertInstanceOf(BestMove.class, reply, "ply " + ply + ": " + reply);
            if (best.resigned()) {
                break;
            }
            position = position.play(Usi.parse(position, best.move(), mover.notation()));
            moves.add(best.move());
            replies.add(best);
        }
        for (EngineSession side : sides) {
            side.gameOver(GameEnd.DRAW);
        }
        return replies;
    }

    /** Plays until a reply is a failure; that failure. */
    private static MoveReply playUntilFailure(List<XBoardEngine> sides, Variant variant) throws Exception {
        Position position = Position.start(variant);
        String sfen = position.toSfen(Notation.LISHOGI);
        for (XBoardEngine side : sides) {
            assertTrue(side.newGame().isEmpty());
        }
        List<String> moves = new ArrayList<>();
        for (int ply = 0; ply < 10; ply++) {
            MoveReply reply = sides.get(ply % 2).go(new PositionCommand(sfen, moves), SearchLimits.movetime(30));
            if (reply instanceof EngineFailure) {
                return reply;
            }
            BestMove best = (BestMove) reply;
            position = position.play(Usi.parse(position, best.move(), Notation.LISHOGI));
            moves.add(best.move());
        }
        throw new AssertionError("no failure in 10 plies");
    }
}
