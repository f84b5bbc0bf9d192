package dev.taikai.enginehost.xboard;

import static dev.taikai.enginehost.xboard.XBoardSessions.QUICK;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.taikai.enginehost.session.BestMove;
import dev.taikai.enginehost.session.SearchLimits;
import dev.taikai.rules.Variant;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The XBoard driver against Debian's XBoard engines: CrazyWa 1.0.5 (Minishogi and Kyoto shogi) and Sjaak
 * II 1.4.1 (Minishogi), from the start and from a position set up with {@code setboard}, every move
 * checked with the rules.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
@ExtendWith(XBoardSessions.CloseLeftovers.class)
class DebianXBoardEnginesTest {
    @Test
    void crazyWaPlaysBothVariantsFromTheStartAndFromAPosition() throws Exception {
        for (Variant variant : Variant.all()) {
            XBoardEngine crazyWa = XBoardSessions.start(XBoardSessions.crazyWa(), variant, QUICK);
            assertEquals("CrazyWa 1.0.5", crazyWa.identity().name());
            assertEquals(variant.name(), crazyWa.variantName());
            XBoardEngine fake = XBoardSessions.startFake(variant);
            List<BestMove> moves =
                    XBoardEngineTest.play(List.of(crazyWa, fake), variant, null, 30, SearchLimits.movetime(60));
            assertTrue(
                    moves.size() >= 4,
                    variant + ": " + moves.size() + " moves (a game against random moves may end early)");
            assertNotNull(moves.get(0).info(), "CrazyWa's thinking output is the move's telemetry");
            assertTrue(moves.get(0).info().depth() > 0, moves.get(0).info().toString());
            String position =
                    variant == Variant.MINISHOGI ? XBoardEngineTest.MINISHOGI_MIDGAME : XBoardEngineTest.KYOTO_MIDGAME;
            XBoardEngineTest.play(List.of(fake, crazyWa), variant, position, 30, SearchLimits.byoyomi(1000, 1000, 100));
            XBoardSessions.closeAndAssertGone(crazyWa);
            fake.close();
        }
    }

    @Test
    void sjaakIIPlaysMinishogiAgainstCrazyWaFromTheStartAndFromAPosition() throws Exception {
        XBoardEngine sjaak = XBoardSessions.start(XBoardSessions.sjaakII(), Variant.MINISHOGI, QUICK);
        assertTrue(
                sjaak.identity().name().startsWith("Sjaak II"), sjaak.identity().name());
        XBoardEngine crazyWa = XBoardSessions.start(XBoardSessions.crazyWa(), Variant.MINISHOGI, QUICK);
        List<BestMove> moves = XBoardEngineTest.play(
                List.of(sjaak, crazyWa), Variant.MINISHOGI, null, 40, SearchLimits.fischer(2000, 2000, 50, 50));
        assertTrue(moves.size() >= 10, moves.size() + " moves");
        XBoardEngineTest.play(
                List.of(crazyWa, sjaak),
                Variant.MINISHOGI,
                XBoardEngineTest.MINISHOGI_MIDGAME,
                30,
                SearchLimits.movetime(60));
        XBoardSessions.closeAndAssertGone(sjaak);
        XBoardSessions.closeAndAssertGone(crazyWa);
    }

    @Test
    void sjaakIIHasNoKyotoShogiAndSaysSoAtStart() {
        var failure = XBoardSessions.startFailure(XBoardSessions.sjaakII(), Variant.KYOTOSHOGI);
        assertEquals(dev.taikai.enginehost.session.EngineFailure.Kind.VARIANT_UNSUPPORTED, failure.kind());
        assertTrue(failure.detail().contains("include neither kyotoshogi nor 5x5+4_shogi"), failure.detail());
    }
}
