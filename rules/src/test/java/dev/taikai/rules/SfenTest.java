package dev.taikai.rules;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class SfenTest {
    /** A position played on from a large move number writes an SFEN that reads again. */
    @Test
    void largeMoveNumbersReadAndWriteBack() throws Exception {
        Position start = Sfen.parse(Variant.MINISHOGI, "4k/5/5/5/K4 b - 999999999");
        Position moved = start.play(Usi.parse(start, "5e4e"));
        Position after = moved.play(Usi.parse(moved, "1a1b"));
        assertEquals("5/4k/5/5/1K3 b - 1000000001", after.toSfen());
        assertEquals(
                after.toSfen(), Sfen.parse(Variant.MINISHOGI, after.toSfen()).toSfen());
    }

    @Test
    void handsAreWrittenCanonically() throws InvalidSfenException {
        Position position = Sfen.parse(Variant.MINISHOGI, "k4/5/5/5/4K b bg1P2Sp 37");
        assertEquals("k4/5/5/5/4K b 2SPbgp 37", position.toSfen());
    }

    @Test
    void aMissingMoveNumberMeansOne() throws InvalidSfenException {
        assertEquals(
                "rbsgk/4p/5/P4/KGSBR w - 1",
                Sfen.parse(Variant.MINISHOGI, "rbsgk/4p/5/P4/KGSBR w -").toSfen());
    }

    @Test
    void kyotoIsReadInLishogiNotationAndWrittenInEither() throws InvalidSfenException {
        Position position = Sfen.parse(Variant.KYOTOSHOGI, "pgk2/4B/5/5/2K2 w TGPs 12");
        assertEquals("p+nk2/4+S/5/5/2K2 w NLPs 12", position.toSfen());
        assertEquals("pgk2/4B/5/5/2K2 w TGPs 12", position.toSfen(Notation.LISHOGI));
        assertTrue(position.samePosition(Sfen.parse(Variant.KYOTOSHOGI, position.toSfen())));
    }

    @Test
    void lettersBothKyotoNotationsShareAreAccepted() throws InvalidSfenException {
        Position position = Sfen.parse(Variant.KYOTOSHOGI, "k4/5/5/5/4K b LSNPlsnp 1");
        assertEquals("k4/5/5/5/4K b SNLPsnlp 1", position.toSfen());
        assertEquals("k4/5/5/5/4K b TGSPtgsp 1", position.toSfen(Notation.LISHOGI));
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            quoteCharacter = '"',
            value = {
                "minishogi | rbsgk/4p/5/P4 b - 1 | the board has 4 ranks",
                "minishogi | rbsgk/4p/5/P4/KGSBR/5 b - 1 | the board has 6 ranks",
                "minishogi | rbsgk/5p/5/P4/KGSBR b - 1 | rank b describes more than 5 squares",
                "minishogi | rbsgk/3p/5/P4/KGSBR b - 1 | rank b describes 4 squares",
                "minishogi | rbsgk/4p/11111/P4/KGSBR b - 1 | rank c has two digits in a row",
                "minishogi | rbsgx/4p/5/P4/KGSBR b - 1 | 'x' on rank a is not a Minishogi piece",
                "minishogi | rbsgk/4l/5/P4/KGSBR b - 1 | 'l' on rank b is not a Minishogi piece",
                "minishogi | rbs+gk/4p/5/P4/KGSBR b - 1 | '+g' on rank a is not a Minishogi piece",
                "minishogi | rbsgk/4p/5/P4/+KGSBR b - 1 | '+K' on rank e is not a Minishogi piece",
                "minishogi | rbsgk/4p/5/P4/KGSB+ b - 1 | unexpected '+' on rank e",
                "minishogi | rbsg1/4p/5/P4/KGSBR b - 1 | gote has no king",
                "minishogi | rbsgk/4p/5/P3K/KGSBR b - 1 | sente has 2 kings",
                "minishogi | rbsgk/4p/5/P4/KGSBR b S 1 | too many pieces of kind 'S': 3",
                "minishogi | rbsgk/4p/5/P4/KGSB1 b 0R 1 | hand count 0",
                "minishogi | rbsgk/4p/5/P4/KGSB1 b 01R 1 | hand count '01' begins with 0",
                "minishogi | rbsgk/4p/5/P4/KGSB1 b \uFF12R 1 | cannot be in hand",
                "minishogi | rbsgk/4p/5/P4/KGSB1 b 3R 1 | only 2 of each piece",
                "minishogi | rbsgk/4p/5/P4/KGSB1 b RR 1 | hands list 'R' twice",
                "minishogi | rbsgk/4p/5/P4/KGSB1 b 2 1 | end with a count and no piece",
                "minishogi | rbsgk/4p/5/P4/KGSB1 b K 1 | 'K' cannot be in hand",
                "minishogi | rbsgk/4p/5/P4/KGSB1 b L 1 | 'L' cannot be in hand",
                "minishogi | Pbsgk/4p/5/5/KGSBR b - 1 | sente's unpromoted pawn on 5a stands on its last rank",
                "minishogi | rbsgk/5/5/4p/KGSBp b - 1 | gote's unpromoted pawn on 1e stands on its last rank",
                "minishogi | rbsgk/5/P4/P4/KGSBR b - 1 | sente has two unpromoted pawns on file 5 (nifu)",
                "minishogi | rbsgk/4p/5/P4/KGSBR x - 1 | side to move must be 'b' or 'w', not 'x'",
                "minishogi | rbsgk/4p/5/P4/KGSBR b - 0 | move number must be a whole number from 1 to 2000000000, not '0'",
                "minishogi | rbsgk/4p/5/P4/KGSBR b - -3 | move number must be a whole number from 1 to 2000000000",
                "minishogi | rbsgk/4p/5/P4/KGSBR b - 9999999999 | move number must be a whole number from 1 to 2000000000",
                "minishogi | rbsgk/4p/5/P4/KGSBR b - 2000000001 | move number must be a whole number from 1 to 2000000000, not '2000000001'",
                "minishogi | rbsgk/4p/5/P4/KGSBR | needs 4 fields",
                "minishogi | rbsgk/4p/5/P4/KGSBR b - 1 extra | needs 4 fields",
                "minishogi | 4k/5/5/5/K3R b - 1 | gote's king is in check but it is sente to move",
                "kyotoshogi | pgkst/5/5/5/+LSK+NP b - 1 | is Fairy-Stockfish notation but the rest is lishogi notation",
                "kyotoshogi | p+nks+l/5/5/5/TSKGP b - 1 | is lishogi notation but the rest is Fairy-Stockfish notation",
                "kyotoshogi | p+nks+l/5/5/5/+LSK+NP b L 1 | too many pieces of kind 'L'",
                "kyotoshogi | p+nks+l/5/5/5/+LSK+N1 b B 1 | 'B' cannot be in hand",
                "kyotoshogi | p+nks+l/5/5/5/+LS+K+NP b - 1 | '+K' on rank e is not a Kyoto shogi piece",
                "kyotoshogi | p+nks+l/5/5/5/+LSK+N+P b P 1 | too many pieces of kind 'P'",
            })
    void malformedSfenIsRejectedWithTheReason(String variant, String sfen, String reason) {
        InvalidSfenException e = assertThrows(
                InvalidSfenException.class,
                () -> Sfen.parse(Variant.byName(variant).orElseThrow(), sfen));
        assertTrue(e.getMessage().contains(reason), e.getMessage());
        assertTrue(e.getMessage().contains(sfen.length() > 60 ? sfen.substring(0, 60) : sfen), e.getMessage());
    }

    @Test
    void emptySfenIsRejected() {
        assertEquals(
                "empty SFEN",
                assertThrows(InvalidSfenException.class, () -> Sfen.parse(Variant.MINISHOGI, "  "))
                        .getMessage());
    }

    @Test
    void controlCharactersAndHugeInputAreShownSafely() {
        String hostile = "rbsgk/4p/5/P4/KGSBR\u0000" + "x".repeat(100_000) + " b - 1";
        InvalidSfenException e = assertThrows(InvalidSfenException.class, () -> Sfen.parse(Variant.MINISHOGI, hostile));
        assertTrue(e.getMessage().length() < 400, e.getMessage());
        assertFalse(e.getMessage().contains("\u0000"));
        assertTrue(e.getMessage().contains("\\x00"), e.getMessage());
    }

    /** Random mutations of valid SFEN never escape as anything but InvalidSfenException. */
    @Test
    void randomGarbageGivesOnlyInvalidSfenException() {
        Random random = new Random(RandomGames.MASTER_SEED);
        String alphabet = "rbsgkplnRBSGKPLNtT+/-0123456789 bw*";
        int rejected = 0;
        for (int i = 0; i < 20_000; i++) {
            Variant variant = Variant.all().get(i % 2);
            StringBuilder text = new StringBuilder(variant.startSfen());
            for (int edits = 1 + random.nextInt(4); edits > 0; edits--) {
                int at = random.nextInt(text.length() + 1);
                switch (random.nextInt(3)) {
                    case 0 -> text.insert(at, alphabet.charAt(random.nextInt(alphabet.length())));
                    case 1 -> {
                        if (at < text.length()) {
                            text.deleteCharAt(at);
                        }
                    }
                    default -> {
                        if (at < text.length()) {
                            text.setCharAt(at, alphabet.charAt(random.nextInt(alphabet.length())));
                        }
                    }
                }
            }
            try {
                Position position = Sfen.parse(variant, text.toString());
                assertTrue(position.samePosition(Sfen.parse(variant, position.toSfen())), text.toString());
            } catch (InvalidSfenException e) {
                rejected++;
                assertTrue(e.getMessage().startsWith("invalid "), e.getMessage());
            }
        }
        assertTrue(rejected > 1000, "the mutations should mostly be invalid: " + rejected);
    }
}
