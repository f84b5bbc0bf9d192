package dev.taikai.rules;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class GameTest {
    @Test
    void refereeEndingsAreRecordedAndEndTheGame() throws Exception {
        Game game = new Game(Position.start(Variant.MINISHOGI));
        game.play("5d5c");
        game.end(Termination.TIME_FORFEIT, Result.SENTE_WINS, "gote's clock ran out");
        assertTrue(game.isOver());
        Outcome outcome = game.outcome().orElseThrow();
        assertEquals(Termination.TIME_FORFEIT, outcome.termination());
        assertEquals(Color.SENTE, outcome.winner());
        assertEquals(0, game.legalMoves().length);
        assertThrows(IllegalStateException.class, () -> game.play("1b1c"));
        assertThrows(IllegalStateException.class, () -> game.end(Termination.RESIGNATION, Result.GOTE_WINS, "late"));
    }

    @Test
    void rulesEndingsCannotBeImposedByTheReferee() {
        Game game = new Game(Position.start(Variant.KYOTOSHOGI));
        for (Termination termination : Termination.values()) {
            if (termination.byRules()) {
                assertThrows(IllegalArgumentException.class, () -> game.end(termination, Result.DRAW, "claimed"));
            }
        }
        assertFalse(game.isOver());
    }

    @Test
    void everyRefereeEndingCanBeRecorded() {
        for (Termination termination : Termination.values()) {
            if (!termination.byRules()) {
                Game game = new Game(Position.start(Variant.MINISHOGI));
                game.end(termination, Result.GOTE_WINS, termination.name());
                assertEquals(termination, game.outcome().orElseThrow().termination());
            }
        }
    }

    @Test
    void anIllegalMoveCodeIsRefused() {
        Game game = new Game(Position.start(Variant.MINISHOGI));
        assertThrows(IllegalArgumentException.class, () -> game.play(Move.drop(12, Piece.PAWN)));
        assertEquals(0, game.plies());
    }

    @Test
    void aStartPositionWithoutLegalMovesIsOverAtOnce() throws Exception {
        Game game = new Game(Sfen.parse(Variant.MINISHOGI, "4k/2S2/4G/5/K4 w - 1"));
        assertEquals(Termination.STALEMATE, game.outcome().orElseThrow().termination());
        assertEquals(Result.SENTE_WINS, game.outcome().orElseThrow().result());
    }

    @Test
    void movesAreKeptAndPrintedInEitherNotation() throws Exception {
        Game game = new Game(Position.start(Variant.KYOTOSHOGI));
        game.play("5e4d-");
        game.play("1a2b+", Notation.LISHOGI);
        assertEquals(List.of("5e4d-", "1a2b-"), game.usiMoves(Notation.FAIRY_STOCKFISH));
        assertEquals(List.of("5e4d+", "1a2b+"), game.usiMoves(Notation.LISHOGI));
        assertEquals(2, game.moves().length);
        assertEquals("p+nks1/3l1/5/1L3/1SK+NP b - 3", game.position().toSfen());
    }

    @Test
    void perpetualCheckDetailNamesTheChecker() throws Exception {
        Game game = new Game(Sfen.parse(Variant.MINISHOGI, "4k/5/5/5/K3r b - 1"));
        for (int i = 0; i < 3; i++) {
            for (String move : List.of("5e5d", "1e1d", "5d5e", "1d1e")) {
                game.play(move);
            }
        }
        Outcome outcome = game.outcome().orElseThrow();
        assertEquals(Termination.PERPETUAL_CHECK, outcome.termination());
        assertEquals(
                "fourth occurrence of the position (first after ply 0); gote gave check with every move",
                outcome.detail());
    }

    @Test
    void positionsRepeatOnlyWithTheSameBoardHandsAndSideToMove() throws Exception {
        Position position = Sfen.parse(Variant.KYOTOSHOGI, "k4/5/5/5/K4 b P 1");
        Position laterMove = Sfen.parse(Variant.KYOTOSHOGI, "k4/5/5/5/K4 b P 9");
        Position otherHand = Sfen.parse(Variant.KYOTOSHOGI, "k4/5/5/5/K4 b p 1");
        Position otherSide = Sfen.parse(Variant.KYOTOSHOGI, "k4/5/5/5/K4 w P 1");
        assertTrue(position.samePosition(laterMove));
        assertEquals(position.key(), laterMove.key());
        assertFalse(position.samePosition(otherHand));
        assertFalse(position.samePosition(otherSide));
        assertTrue(position.key() != otherHand.key() && position.key() != otherSide.key());
    }
}
