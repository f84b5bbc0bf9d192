package dev.taikai.enginehost.usi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.taikai.enginehost.catalog.EngineSpec;
import dev.taikai.enginehost.session.BestMove;
import dev.taikai.enginehost.session.EngineIdentity;
import dev.taikai.enginehost.session.GameEnd;
import dev.taikai.enginehost.session.MoveReply;
import dev.taikai.enginehost.session.PositionCommand;
import dev.taikai.enginehost.session.SearchLimits;
import dev.taikai.enginehost.session.Timeouts;
import dev.taikai.rules.Color;
import dev.taikai.rules.Game;
import dev.taikai.rules.MoveException;
import dev.taikai.rules.Notation;
import dev.taikai.rules.Position;
import dev.taikai.rules.Termination;
import dev.taikai.rules.Usi;
import dev.taikai.rules.Variant;
import dev.taikai.testkit.Leaks;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** The driver against Debian's Fairy-Stockfish 11.1, a real engine with real quirks. */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
@ExtendWith(Sessions.CloseLeftovers.class)
class FairyStockfishSessionTest {
    static List<Variant> variants() {
        return Variant.all();
    }

    @ParameterizedTest
    @MethodSource("variants")
    void handshakeAndEveryGoForm(Variant variant) {
        UsiEngine engine = Sessions.start(FairyStockfishSessions.spec(), variant, Timeouts.DEFAULT);
        EngineIdentity identity = engine.identity();
        assertTrue(identity.name().startsWith("Fairy-Stockfish 11.1"), identity.name());
        assertEquals("UCI_Variant", identity.variantOption());
        assertEquals("spin", identity.option("Skill Level").orElseThrow().type());
        assertEquals("30", identity.option("Move Overhead").orElseThrow().defaultValue());
        assertTrue(engine.newGame().isEmpty());

        Position start = Position.start(variant);
        PositionCommand position = PositionCommand.of(start.toSfen());
        for (SearchLimits limits : List.of(
                SearchLimits.byoyomi(2000, 2000, 100),
                SearchLimits.fischer(2000, 2000, 50, 50),
                SearchLimits.movetime(50),
                SearchLimits.nodes(1),
                SearchLimits.depth(3))) {
            BestMove best = assertInstanceOf(BestMove.class, engine.go(position, limits), limits.toString());
            assertLegal(best.move(), start);
            assertNotNull(best.info(), "telemetry for " + limits);
            assertTrue(best.info().depth() >= 1, limits.toString());
        }

        assertTrue(engine.startSearch(position, SearchLimits.infinite()).isEmpty());
        assertTrue(engine.isReady().isEmpty(), "readyok during an infinite search");
        assertLegal(assertInstanceOf(BestMove.class, engine.stop()).move(), start);

        assertTrue(engine.startSearch(position, SearchLimits.movetime(100).pondering())
                .isEmpty());
        assertTrue(engine.ponderHit().isEmpty());
        assertLegal(assertInstanceOf(BestMove.class, engine.awaitBestMove()).move(), start);

        assertTrue(engine.startSearch(
                        position, SearchLimits.byoyomi(1000, 1000, 100).pondering())
                .isEmpty());
        assertInstanceOf(BestMove.class, engine.stop(), "ponder miss");

        assertTrue(engine.gameOver(GameEnd.WIN).isEmpty());
        assertTrue(engine.isReady().isEmpty(), "still answering after gameover");
        Sessions.closeAndAssertGone(engine);
        assertEquals("exited with code 0", engine.exitDescription());
    }

    /**
     * Twenty quick games, two fresh engine processes each: nothing they started may be left, neither
     * threads nor processes nor file descriptors. Only what this test started counts.
     */
    @Test
    void twentyFastGamesLeakNoProcessesThreadsOrFiles() throws Exception {
        EngineSpec spec = FairyStockfishSessions.spec();
        Sessions.start(spec, Variant.MINISHOGI, Timeouts.DEFAULT)
                .close(); // the driver's and the JDK's first-use threads
        Leaks leaks = Leaks.snapshot();

        List<Termination> endings = new ArrayList<>();
        for (int game = 0; game < 20; game++) {
            endings.add(playFastGame(spec, Variant.all().get(game % 2), game));
        }

        assertEquals(20, endings.size());
        leaks.assertNoneLeft(Duration.ofSeconds(30));
    }

    private static Termination playFastGame(EngineSpec spec, Variant variant, int game) throws MoveException {
        UsiEngine sente = Sessions.start(spec, variant, Timeouts.DEFAULT);
        UsiEngine gote = Sessions.start(spec, variant, Timeouts.DEFAULT);
        try {
            assertTrue(sente.newGame().isEmpty() && gote.newGame().isEmpty());
            Game record = new Game(Position.start(variant));
            List<String> moves = new ArrayList<>();
            while (!record.isOver() && record.plies() < 120) {
                UsiEngine mover = record.position().sideToMove() == Color.SENTE ? sente : gote;
                MoveReply reply = mover.go(new PositionCommand(variant.startSfen(), moves), SearchLimits.nodes(300));
                BestMove best = assertInstanceOf(BestMove.class, reply, "game " + game + " ply " + record.plies());
                if (best.resigned()) {
                    return Termination.RESIGNATION;
                }
                try {
                    record.play(best.move(), Notation.FAIRY_STOCKFISH);
                } catch (MoveException e) {
                    // Fairy-Stockfish 11.1 plays Minishogi pawn-drop mates, which the rules forbid.
                    assertTrue(e.getMessage().contains("uchifuzume"), e.getMessage());
                    return Termination.ILLEGAL_MOVE;
                }
                moves.add(best.move());
            }
            return record.outcome().map(o -> o.termination()).orElse(Termination.ADJUDICATION);
        } finally {
            sente.close();
            gote.close();
        }
    }

    private static void assertLegal(String move, Position position) {
        try {
            Usi.parse(position, move, Notation.FAIRY_STOCKFISH);
        } catch (MoveException e) {
            throw new AssertionError(e.getMessage(), e);
        }
    }
}
