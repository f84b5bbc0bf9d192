package dev.taikai.rules;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Depths 6 and 7 of the RULES.md table. Runs only in the slow profile: {@code mvn verify -Pslow}. */
@Tag("slow")
class DeepPerftTest {
    static List<PerftFile.Row> deepRows() {
        return PerftFile.rows(6, 99);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("deepRows")
    void perftMatchesTheTable(PerftFile.Row row) throws InvalidSfenException {
        Position position = Sfen.parse(row.variant(), row.sfen());
        assertEquals(row.nodes(), Perft.count(position, row.depth()), row.id() + " (source: " + row.source() + ")");
    }
}
