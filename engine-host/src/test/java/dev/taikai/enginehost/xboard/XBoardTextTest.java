package dev.taikai.enginehost.xboard;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.taikai.enginehost.session.EngineOption;
import dev.taikai.enginehost.session.SearchInfo;
import dev.taikai.rules.Notation;
import dev.taikai.rules.Position;
import dev.taikai.rules.Sfen;
import dev.taikai.rules.Usi;
import dev.taikai.rules.Variant;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** XBoard's text: squares, moves and positions both ways, piece tables, thinking output and features. */
class XBoardTextTest {
    @Test
    void squaresAreNamedFromSentesLeftAndSide() {
        assertEquals("a1", XBoardText.square('5', 'e'));
        assertEquals("e5", XBoardText.square('1', 'a'));
        assertEquals("c3", XBoardText.square('3', 'c'));
        assertEquals("c1d2", XBoardText.move("3e2d"));
        assertEquals("b1c2+", XBoardText.move("4e3d+"));
        assertEquals("B@a3", XBoardText.move("B*5c"));
        assertEquals(Optional.of("3e2d"), XBoardText.usi("c1d2"));
        assertEquals(Optional.of("3e2d"), XBoardText.usi("c1d2="));
        assertEquals(Optional.of("1b1a+"), XBoardText.usi("e4e5+"));
        assertEquals(Optional.of("P*3c"), XBoardText.usi("P@c3"));
    }

    @Test
    void whatIsNoMoveOfTheBoardIsRefused() {
        for (String text : List.of(
                "", "xyzzy", "c1", "c1d6", "f1a1", "c1d2q", "c1d2++", "p@c3", "P@f3", "PP@c3", "@c3", "P@c", "Bc2",
                "O-O")) {
            assertEquals(Optional.empty(), XBoardText.usi(text), text);
        }
    }

    /** Every legal move of 400 random positions a variant, written for XBoard and read back, is the same. */
    @Test
    void everyMoveOfRandomGamesSurvivesTheRoundTrip() throws Exception {
        Random random = new Random(20261203);
        for (Variant variant : Variant.all()) {
            int games = 0;
            int moves = 0;
            while (games < 40) {
                Position position = Position.start(variant);
                for (int ply = 0; ply < 60 && position.legalMoves().length > 0; ply++) {
                    for (int move : position.legalMoves()) {
                        String usi = Usi.format(move, variant, Notation.LISHOGI);
                        assertEquals(Optional.of(usi), XBoardText.usi(XBoardText.move(usi)), variant + " " + usi);
                        assertEquals(
                                move,
                                Usi.parse(
                                        position,
                                        XBoardText.usi(XBoardText.move(usi)).get(),
                                        Notation.LISHOGI));
                        moves++;
                    }
                    String sfen = position.toSfen(Notation.LISHOGI);
                    String back = XBoardText.sfen(XBoardText.fen(sfen)).orElseThrow();
                    assertTrue(Sfen.parse(variant, back).samePosition(position), sfen + " came back as " + back);
                    int[] legal = position.legalMoves();
                    position = position.play(legal[random.nextInt(legal.length)]);
                }
                games++;
            }
            assertTrue(moves > 10_000, variant + ": " + moves + " moves");
        }
    }

    @Test
    void theHandsAreHoldingsAndTheSideIsXBoardsColour() {
        assertEquals("rb1k1/1s2p/5/P4/KGS1R[Gb] w 0 1", XBoardText.fen("rb1k1/1s2p/5/P4/KGS1R b Gb 5"));
        assertEquals("rbsgk/4p/5/P4/KGSBR[-] b 0 1", XBoardText.fen("rbsgk/4p/5/P4/KGSBR w - 2"));
        assertEquals("5/5/2k2/5/2K2[PPPsg] w 0 1", XBoardText.fen("5/5/2k2/5/2K2 b 3Psg 1"));
        assertEquals(Optional.of("5/5/2k2/5/2K2 b 3Psg 1"), XBoardText.sfen("5/5/2k2/5/2K2[PPPsg] w 0 1"));
        assertEquals(Optional.of("rbsgk/4p/5/P4/KGSBR b - 1"), XBoardText.sfen("rbsgk/4p/5/P4/KGSBR w 0 1"));
        assertEquals(Optional.of("rbsgk/4p/5/P4/KGSBR b - 1"), XBoardText.sfen("rbsgk/4p/5/P4/KGSBR [-] w 0 1"));
        assertEquals(Optional.empty(), XBoardText.sfen("rbsgk/4p/5/P4/KGSBR"));
        assertEquals(Optional.empty(), XBoardText.sfen("rbsgk/4p/5/P4/KGSBR x 0 1"));
    }

    @Test
    void crazyWasAndSjaakIIsPieceTablesAreTaikaisLetters() {
        assertEquals(
                PieceTable.expected(Variant.MINISHOGI), PieceTable.letters("P.BR.S...G.+.++.+Kp.br.s...g.+.++.+k"));
        assertEquals(
                PieceTable.expected(Variant.KYOTOSHOGI),
                PieceTable.letters("P-G=N-S=B-P=R-T=LS...G.TKp-g=n-s=b-p=r-t=ls...g.tk"));
        assertEquals(Set.of("P", "N", "B", "R", "Q", "K"), PieceTable.letters("PNBRQKpnbrqk"));
        assertNull(PieceTable.letters("P.BR/S...Kp.br/s...k"));
    }

    @Test
    void thinkingOutputIsTheMovesTelemetry() {
        SearchInfo crazyWa = Thinking.parse("10 18 12 269552 c1d2 d5d4 d1c2");
        assertNotNull(crazyWa);
        assertEquals(10, crazyWa.depth());
        assertEquals(18, crazyWa.score().value());
        assertEquals(120, crazyWa.timeMillis());
        assertEquals(269552, crazyWa.nodes());
        assertEquals(List.of("3e2d", "2a2b", "2e3d"), crazyWa.pv());
        SearchInfo sjaak = Thinking.parse("8    -8     33     61452  1. Sd2 Bc4 2. Sc3 Bd3");
        assertNotNull(sjaak);
        assertEquals(-8, sjaak.score().value());
        assertEquals(List.of(), sjaak.pv(), "a pv in SAN is left out");
        SearchInfo tabbed = Thinking.parse("7 -6 1 31600 5 1000 0\tb1b2 d5d4");
        assertNotNull(tabbed);
        assertEquals(List.of("4e4d", "2a2b"), tabbed.pv());
        // CrazyWa's mate scores, 100000 + moves to mate, are recorded as USI's mate in plies (they were cp 100003)
        SearchInfo mating = Thinking.parse("98 100003 2 1234 c1d2");
        assertEquals("mate 5", mating.score().toString());
        assertEquals("mate -4", Thinking.parse("9 -100002 2 1234").score().toString());
        assertEquals("mate 1", Thinking.parse("9 100001 2 1234").score().toString());
        assertEquals("cp 99999", Thinking.parse("9 99999 2 1234").score().toString());
        assertNull(Thinking.parse("1-0 {White mates}"));
        assertNull(Thinking.parse("12 abc 3 4"));
    }

    @Test
    void featuresAreAnsweredOneByOneAndOptionsRead() {
        Features features = new Features();
        String answers = features.read(
                "feature ping=1 setboard=1 colors=0 usermove=1 san=1 reuse=0 myname=\"CrazyWa 1.0.5\" done=0");
        assertEquals(
                List.of(
                        "accepted ping",
                        "accepted setboard",
                        "accepted colors",
                        "accepted usermove",
                        "rejected san",
                        "accepted reuse",
                        "accepted myname",
                        "accepted done"),
                answers.lines().toList());
        features.read("feature option=\"Multi-PV margin -spin 0 0 10000\" option=\"Exclude move: -string \"");
        features.read(
                "feature option=\"Variant fairy selects -combo *minishogi /// shogi\" option=\"Book -file book.bin\"");
        features.read("feature variants=\"crazyhouse,shogi,minishogi,5x5+5_shogi\" done=1");
        assertTrue(features.flag("ping", false));
        assertTrue(!features.flag("reuse", true));
        assertEquals(Optional.of("CrazyWa 1.0.5"), features.value("myname"));
        assertEquals(Optional.of(true), features.done());
        assertEquals(List.of("crazyhouse", "shogi", "minishogi", "5x5+5_shogi"), features.variants());
        List<EngineOption> options = features.options();
        assertEquals(new EngineOption("Multi-PV margin", "spin", "0", "0", "10000", List.of()), options.get(0));
        assertEquals("Exclude move:", options.get(1).name());
        assertEquals(
                new EngineOption(
                        "Variant fairy selects", "combo", "minishogi", null, null, List.of("minishogi", "shogi")),
                options.get(2));
        assertEquals("filename", options.get(3).type());
    }
}
