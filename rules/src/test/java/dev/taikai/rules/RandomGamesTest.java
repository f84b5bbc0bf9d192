package dev.taikai.rules;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/** Invariants over seeded random legal games in both variants (see {@link RandomGames}). */
class RandomGamesTest {
    private static final int GAMES = 150;
    private static final int MAX_PLIES = 120;

    static java.util.List<Variant> variants() {
        return Variant.all();
    }

    @ParameterizedTest
    @MethodSource("variants")
    void legalMovesEqualTheBruteForceReference(Variant variant) throws Exception {
        int checked = RandomGames.forEachPosition(variant, GAMES, MAX_PLIES, (position, where) -> {
            Set<String> ours = new TreeSet<>();
            for (int move : position.legalMoves()) {
                ours.add(Usi.format(move, variant));
            }
            Set<String> reference =
                    ReferenceRules.fromSfen(variant.name(), position.toSfen()).legalMoves();
            assertEquals(reference, ours, where);
        });
        assertTrue(checked > GAMES * 10, "random games were too short to test anything: " + checked);
    }

    @ParameterizedTest
    @MethodSource("variants")
    void sfenRoundTripsInBothNotations(Variant variant) throws Exception {
        RandomGames.forEachPosition(variant, GAMES, MAX_PLIES, (position, where) -> {
            for (Notation notation : Notation.values()) {
                String sfen = position.toSfen(notation);
                Position parsed = Sfen.parse(variant, sfen);
                assertTrue(parsed.samePosition(position), where + " via " + sfen);
                assertEquals(position.moveNumber(), parsed.moveNumber(), where);
                assertEquals(sfen, parsed.toSfen(notation), where);
            }
        });
    }

    @ParameterizedTest
    @MethodSource("variants")
    void incrementalKeyEqualsFreshKey(Variant variant) throws Exception {
        RandomGames.forEachPosition(variant, GAMES, MAX_PLIES, (position, where) -> {
            assertEquals(position.computeKey(), position.key(), where);
            assertEquals(Sfen.parse(variant, position.toSfen()).key(), position.key(), where);
        });
    }

    @ParameterizedTest
    @MethodSource("variants")
    void piecesAreConserved(Variant variant) throws Exception {
        RandomGames.forEachPosition(variant, GAMES, MAX_PLIES, (position, where) -> {
            int[] perKind = new int[Piece.KIND_COUNT];
            for (int sq = 0; sq < Square.COUNT; sq++) {
                if (position.pieceAt(sq) != Piece.EMPTY) {
                    perKind[Piece.kind(Piece.type(position.pieceAt(sq)))]++;
                }
            }
            for (Color color : Color.values()) {
                for (int kind = 0; kind < Piece.KIND_COUNT; kind++) {
                    perKind[kind] += position.handCount(color, kind);
                }
            }
            for (int kind = 0; kind < Piece.KIND_COUNT; kind++) {
                boolean inVariant = variant.hasType(kind);
                assertEquals(inVariant ? 2 : 0, perKind[kind], where + " kind " + kind);
            }
        });
    }

    @ParameterizedTest
    @MethodSource("variants")
    void everyLegalMoveRoundTripsThroughUsiText(Variant variant) throws Exception {
        RandomGames.forEachPosition(variant, GAMES / 3, MAX_PLIES, (position, where) -> {
            for (int move : position.legalMoves()) {
                for (Notation notation : Notation.values()) {
                    String text = Usi.format(move, variant, notation);
                    assertEquals(move, Usi.parse(position, text, notation), where + " " + text);
                    assertEquals(move, Usi.parse(position, text), where + " " + text + " (either notation)");
                }
            }
        });
    }

    @ParameterizedTest
    @EnumSource(Notation.class)
    void startPositionsPrintAsRulesMdWritesThem(Notation notation) {
        assertEquals(
                "rbsgk/4p/5/P4/KGSBR b - 1", Position.start(Variant.MINISHOGI).toSfen(notation));
        assertEquals(
                notation == Notation.LISHOGI ? "pgkst/5/5/5/TSKGP b - 1" : "p+nks+l/5/5/5/+LSK+NP b - 1",
                Position.start(Variant.KYOTOSHOGI).toSfen(notation));
    }
}
