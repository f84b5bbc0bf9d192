package dev.taikai.rules;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Perft of the start positions (RULES.md) and of the tricky positions. Depths 6 and 7 are tagged
 * slow and run only in the slow profile ({@code mvn verify -Pslow}, which the test command uses).
 */
class PerftTableTest {
    static List<PerftFile.Row> shallowRows() {
        return PerftFile.rows(0, 5);
    }

    static List<PerftFile.Row> deepRows() {
        return PerftFile.rows(6, 99);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("shallowRows")
    void perftMatchesTheTable(PerftFile.Row row) throws InvalidSfenException {
        assertPerft(row);
    }

    @Tag("slow")
    @ParameterizedTest(name = "{0}")
    @MethodSource("deepRows")
    void deepPerftMatchesTheTable(PerftFile.Row row) throws InvalidSfenException {
        assertPerft(row);
    }

    private static void assertPerft(PerftFile.Row row) throws InvalidSfenException {
        Position position = Sfen.parse(row.variant(), row.sfen());
        assertEquals(row.nodes(), Perft.count(position, row.depth()), row.id() + " (source: " + row.source() + ")");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("shallowRows")
    void divideSumsToPerft(PerftFile.Row row) throws InvalidSfenException {
        if (row.depth() > 4) {
            return; // depth 5 is covered by perftMatchesTheTable; keep the default build quick
        }
        Position position = Sfen.parse(row.variant(), row.sfen());
        long sum = Perft.divide(position, row.depth()).stream()
                .mapToLong(Perft.Divided::nodes)
                .sum();
        assertEquals(row.nodes(), sum);
    }

    @Test
    void tableIsNotEmpty() {
        assertFalse(shallowRows().isEmpty());
        assertEquals(4, deepRows().size(), "depths 6 and 7 of both start positions");
    }

    @Test
    void depthZeroIsOneNode() {
        for (Variant variant : Variant.all()) {
            assertEquals(1, Perft.count(Position.start(variant), 0));
        }
    }
}
