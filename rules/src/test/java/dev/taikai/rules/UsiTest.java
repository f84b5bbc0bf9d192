package dev.taikai.rules;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class UsiTest {
    private static final String MINI_START = "rbsgk/4p/5/P4/KGSBR b - 1";
    private static final String KYOTO_START = "p+nks+l/5/5/5/+LSK+NP b - 1";

    private static String sfen(Position position) {
        return Sfen.format(position, Notation.FAIRY_STOCKFISH);
    }

    private static Position position(String variant, String sfen) throws InvalidSfenException {
        Variant v = Variant.byName(variant).orElseThrow();
        return sfen.equals("startpos") ? Position.start(v) : Sfen.parse(v, sfen);
    }

    @Test
    void positionCommandsReadAsEnginesReadThem() throws Exception {
        Position start = Position.start(Variant.MINISHOGI);
        assertEquals(sfen(start), sfen(Usi.positionCommand(Variant.MINISHOGI, "position startpos")));
        // 'moves' with none after it, as some GUIs send the start: it was refused, and the built-in engine
        // searched the position it had before
        assertEquals(sfen(start), sfen(Usi.positionCommand(Variant.MINISHOGI, "position startpos moves")));
        assertEquals(
                sfen(start), sfen(Usi.positionCommand(Variant.MINISHOGI, "position sfen " + MINI_START + " moves ")));
        Position played = start.play(Usi.parse(start, "5e4d"));
        assertEquals(sfen(played), sfen(Usi.positionCommand(Variant.MINISHOGI, "position startpos moves 5e4d")));
        assertEquals(
                sfen(played.play(Usi.parse(played, "1a2b"))),
                sfen(Usi.positionCommand(Variant.MINISHOGI, "position sfen " + MINI_START + " moves 5e4d  1a2b")));
        assertEquals(sfen(played), sfen(Usi.positionCommand(Variant.MINISHOGI, "position sfen " + sfen(played))));

        Position kyoto = Position.start(Variant.KYOTOSHOGI);
        assertEquals(
                sfen(kyoto.play(Usi.parse(kyoto, "5e4d-"))),
                sfen(Usi.positionCommand(Variant.KYOTOSHOGI, "position startpos moves 5e4d+", Notation.LISHOGI)));
        assertThrows(
                MoveException.class,
                () -> Usi.positionCommand(Variant.KYOTOSHOGI, "position startpos moves 5e4d-", Notation.LISHOGI),
                "a move in the other notation is refused where one notation is asked for");

        assertThrows(InvalidSfenException.class, () -> Usi.positionCommand(Variant.MINISHOGI, "position fen x"));
        assertThrows(InvalidSfenException.class, () -> Usi.positionCommand(Variant.MINISHOGI, "position sfen 9/9 b"));
        assertThrows(
                IllegalMoveException.class,
                () -> Usi.positionCommand(Variant.MINISHOGI, "position startpos moves 5e4d 5e4d"));
    }

    @Test
    void movesPrintInBothKyotoNotations() throws Exception {
        Position kyoto = Position.start(Variant.KYOTOSHOGI);
        int tokin = Usi.parse(kyoto, "5e4d-");
        assertEquals("5e4d-", Usi.format(tokin, Variant.KYOTOSHOGI));
        assertEquals("5e4d+", Usi.format(tokin, Variant.KYOTOSHOGI, Notation.LISHOGI));
        assertEquals(tokin, Usi.parse(kyoto, "5e4d+"), "lishogi input is accepted where either notation is");
        int king = Usi.parse(kyoto, "3e3d");
        assertEquals("3e3d", Usi.format(king, Variant.KYOTOSHOGI, Notation.LISHOGI));

        Position hands = position("kyotoshogi", "k4/5/5/5/4K b LSNPlsnp 1");
        assertEquals("+L*3c", Usi.format(Usi.parse(hands, "T*3c"), Variant.KYOTOSHOGI));
        assertEquals("G*3c", Usi.format(Usi.parse(hands, "+N*3c"), Variant.KYOTOSHOGI, Notation.LISHOGI));
        assertEquals("N*3c", Usi.format(Usi.parse(hands, "N*3c"), Variant.KYOTOSHOGI, Notation.LISHOGI));
    }

    @Test
    void minishogiPromotionIsOptionalInTheZoneAndForcedForALastRankPawn() throws Exception {
        Position position = position("minishogi", "k4/3P1/1S3/5/4K b - 1");
        assertEquals("4c4b", Usi.format(Usi.parse(position, "4c4b"), Variant.MINISHOGI));
        int promote = Usi.parse(position, "2b2a+");
        assertTrue(Move.flips(promote));
        assertEquals("2b2a+", Usi.format(promote, Variant.MINISHOGI));
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            quoteCharacter = '"',
            value = {
                "minishogi | startpos | 5e | a board move is <from><to>",
                "minishogi | startpos | 5e4d4c | a board move is <from><to>",
                "minishogi | startpos | 6e5d | '6e' is not a square",
                "minishogi | startpos | 5e5f | '5f' is not a square",
                "minishogi | startpos | 5E4d | '5E' is not a square",
                "minishogi | startpos | 5e4d= | the only suffixes are '+' and '-'",
                "minishogi | startpos | 5e4d- | '-' is a Kyoto shogi suffix",
                "minishogi | startpos | p*3c | 'p' is not a Minishogi piece that can be dropped",
                "minishogi | startpos | L*3c | 'L' is not a Minishogi piece that can be dropped",
                "minishogi | startpos | K*3c | 'K' is not a Minishogi piece that can be dropped",
                "minishogi | startpos | P*3f | '3f' is not a square",
                "minishogi | startpos | P*3cc | a drop is <piece>*<square>",
                "minishogi | startpos | *3c | a drop is <piece>*<square>",
                "minishogi | startpos | resign | a resignation, not a move",
                "kyotoshogi | startpos | T*3c+ | a drop is <piece>*<square>",
                "kyotoshogi | startpos | X*3c | 'X' is not a Kyoto shogi piece that can be dropped",
            })
    void malformedTextIsInvalid(String variant, String sfen, String text, String reason) throws Exception {
        Position position = position(variant, sfen);
        InvalidMoveException e = assertThrows(InvalidMoveException.class, () -> Usi.parse(position, text));
        assertTrue(e.getMessage().startsWith("not a USI move: '" + text + "'"), e.getMessage());
        assertTrue(e.getMessage().contains(reason), e.getMessage());
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            quoteCharacter = '"',
            value = {
                "minishogi | startpos | win | the entering-king declaration does not exist in Minishogi",
                "minishogi | startpos | 5e5e | it starts and ends on 5e",
                "minishogi | startpos | 3c3b | there is no piece on 3c",
                "minishogi | startpos | 4a4b | the piece on 4a is not sente's",
                "minishogi | startpos | 5e4e | 4e holds sente's own piece",
                "minishogi | startpos | 4e2c | a G on 4e cannot reach 2c",
                "minishogi | startpos | 1e1a | a R on 1e cannot reach 1a",
                "minishogi | startpos | 2e3d+ | neither 2e nor 3d is in the promotion zone (the farthest rank)",
                "minishogi | startpos | 4e4d+ | G never promotes",
                "minishogi | startpos | P*3c | sente has no P in hand",
                "minishogi | k4/3P1/5/5/4K b - 1 | 2b2a | a pawn reaching the farthest rank must promote (write 2b2a+)",
                "minishogi | k4/3+P1/5/5/4K b - 1 | 2b2a+ | +P is already promoted",
                "minishogi | 2r1k/5/5/2S2/2K2 b - 1 | 3d4c | it leaves sente's king in check",
                "minishogi | 2r1k/5/5/5/2K2 b G 1 | 3e3d | it leaves sente's king in check",
                "minishogi | k4/5/5/5/4K b P 1 | P*4a | a pawn may not be dropped on its last rank",
                "minishogi | k4/5/5/P4/4K b P 1 | P*5b | nifu: sente already has an unpromoted pawn on file 5",
                "minishogi | k4/5/5/P4/4K b S 1 | S*5d | 5d is occupied",
                "minishogi | 4k/2S2/4G/5/K4 b P 1 | P*1b | uchifuzume: a pawn drop may not give checkmate",
                "minishogi | k4/5/5/5/4K b P 1 | +P*3c | pieces are always dropped unpromoted in Minishogi",
                "minishogi | k1r2/5/5/5/2K2 b P 1 | P*2c | it leaves sente's king in check",
                "kyotoshogi | startpos | 5e4d | the tokin on 5e turns into a lance; write 5e4d-",
                "kyotoshogi | startpos | 1e1d- | the pawn on 1e turns into a rook; write 1e1d+",
                "kyotoshogi | startpos | 3e3d+ | a king move takes no suffix",
                "kyotoshogi | startpos | win | the entering-king declaration does not exist in Kyoto shogi",
            })
    void wellFormedButIllegalMovesSayWhy(String variant, String sfen, String text, String reason) throws Exception {
        Position position = position(variant, sfen);
        IllegalMoveException e = assertThrows(IllegalMoveException.class, () -> Usi.parse(position, text));
        assertEquals("illegal move " + text + ": " + reason, e.getMessage());
    }

    @Test
    void strictNotationRejectsTheOtherOne() throws Exception {
        Position kyoto = Position.start(Variant.KYOTOSHOGI);
        IllegalMoveException suffix =
                assertThrows(IllegalMoveException.class, () -> Usi.parse(kyoto, "5e4d+", Notation.FAIRY_STOCKFISH));
        // the other notation's suffix: the message says which notation it is and how to read it
        assertTrue(
                suffix.getMessage()
                        .endsWith("write 5e4d- (that is lishogi notation: an engine that writes it needs notation"
                                + " lishogi in its entry)"),
                suffix.getMessage());
        assertEquals(Usi.parse(kyoto, "5e4d+", Notation.LISHOGI), Usi.parse(kyoto, "5e4d-", Notation.FAIRY_STOCKFISH));

        Position hands = position("kyotoshogi", "k4/5/5/5/4K b LSNPlsnp 1");
        assertThrows(InvalidMoveException.class, () -> Usi.parse(hands, "T*3c", Notation.FAIRY_STOCKFISH));
        assertThrows(InvalidMoveException.class, () -> Usi.parse(hands, "+L*3c", Notation.LISHOGI));
    }

    /** Random text never escapes as anything but a MoveException. */
    @Test
    void randomTextGivesOnlyMoveExceptions() throws Exception {
        Random random = new Random(RandomGames.MASTER_SEED);
        String alphabet = "123456abcdefPLNSGBRKTpx+-*\u0000 ";
        for (Variant variant : Variant.all()) {
            Position position = Position.start(variant);
            for (int i = 0; i < 20_000; i++) {
                StringBuilder text = new StringBuilder();
                for (int n = random.nextInt(7); n > 0; n--) {
                    text.append(alphabet.charAt(random.nextInt(alphabet.length())));
                }
                try {
                    int move = Usi.parse(position, text.toString());
                    assertTrue(position.isLegal(move), text.toString());
                } catch (MoveException e) {
                    assertEquals(text.toString(), e.moveText());
                }
            }
        }
    }

    @Test
    void sanityOfTheStartSfensUsedHere() throws Exception {
        assertEquals(MINI_START, Position.start(Variant.MINISHOGI).toSfen());
        assertEquals(KYOTO_START, Position.start(Variant.KYOTOSHOGI).toSfen());
    }
}
