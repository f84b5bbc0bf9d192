package dev.taikai.rules;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Debian's Fairy-Stockfish 11.1 as a second opinion on positions from random games. It agrees with
 * RULES.md everywhere but one place, recorded in docs/rules-decisions.md: it counts Minishogi
 * pawn-drop mates as legal. Every move it lists that we do not must be exactly such a drop.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class FairyStockfishAgreementTest {
    private static final int GAMES = 40;
    private static final int MAX_PLIES = 80;

    @Test
    void minishogiLegalMovesAgreeExceptPawnDropMates() throws Exception {
        Set<String> pawnDropMates = new HashSet<>();
        try (FairyStockfish engine = FairyStockfish.start(Variant.MINISHOGI)) {
            int positions = RandomGames.forEachPosition(Variant.MINISHOGI, GAMES, MAX_PLIES, (position, where) -> {
                Set<String> ours = legalMoves(position);
                Set<String> theirs =
                        new TreeSet<>(engine.divide(position.toSfen(), 1).keySet());
                Set<String> missing = new TreeSet<>(ours);
                missing.removeAll(theirs);
                assertTrue(missing.isEmpty(), where + ": Fairy-Stockfish lacks " + missing);
                theirs.removeAll(ours);
                for (String extra : theirs) {
                    MoveException e = org.junit.jupiter.api.Assertions.assertThrows(
                            MoveException.class, () -> Usi.parse(position, extra), where);
                    assertTrue(e.getMessage().contains("uchifuzume"), where + ": " + e.getMessage());
                    pawnDropMates.add(position.toSfen() + " " + extra);
                }
            });
            assertTrue(positions > 1000, "positions checked: " + positions);
        }
        assertTrue(!pawnDropMates.isEmpty(), "random games should meet at least one pawn-drop mate");
    }

    @Test
    void kyotoLegalMovesAndPerftAgree() throws Exception {
        try (FairyStockfish engine = FairyStockfish.start(Variant.KYOTOSHOGI)) {
            int[] deep = {0};
            RandomGames.forEachPosition(Variant.KYOTOSHOGI, GAMES, MAX_PLIES, (position, where) -> {
                assertEquals(
                        legalMoves(position),
                        new TreeSet<>(engine.divide(position.toSfen(), 1).keySet()),
                        where);
                if (position.moveNumber() % 20 == 10) {
                    Map<String, Long> theirs = engine.divide(position.toSfen(), 3);
                    long total =
                            theirs.values().stream().mapToLong(Long::longValue).sum();
                    assertEquals(total, Perft.count(position, 3), where + " perft 3");
                    deep[0]++;
                }
            });
            assertTrue(deep[0] > 20, "perft comparisons: " + deep[0]);
        }
    }

    private static Set<String> legalMoves(Position position) {
        Set<String> moves = new TreeSet<>();
        for (int move : position.legalMoves()) {
            moves.add(Usi.format(move, position.variant()));
        }
        return moves;
    }
}
