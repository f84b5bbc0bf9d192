package dev.taikai.enginehost.usi;

import static org.junit.jupiter.api.Assertions.fail;

import dev.taikai.enginehost.catalog.EngineSpec;
import dev.taikai.enginehost.catalog.Quirk;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Assumptions;

/**
 * Debian's fairy-stockfish for driver tests. Missing, the calling test is skipped with a message, unless
 * the build runs with {@code -DrequireFairyStockfish=true} (as the test command does, having installed it).
 */
public final class FairyStockfishSessions {
    private FairyStockfishSessions() {}

    /** The catalog entry Taikai ships for Fairy-Stockfish 11.1 (it reads the clocks swapped), at its installed path. */
    public static EngineSpec spec() {
        String path = System.getenv().getOrDefault("PATH", "") + File.pathSeparator + "/usr/games";
        for (String dir : path.split(File.pathSeparator)) {
            Path candidate = Path.of(dir.isEmpty() ? "." : dir, "fairy-stockfish");
            if (Files.isExecutable(candidate)) {
                return EngineSpec.of("fairy-stockfish", List.of(candidate.toString()))
                        .withQuirks(Set.of(Quirk.SWAPPED_CLOCKS));
            }
        }
        String message = "fairy-stockfish is not installed (apt-get install fairy-stockfish)";
        if (Boolean.getBoolean("taikai.requireFairyStockfish")) {
            fail(message);
        }
        Assumptions.abort(message);
        throw new AssertionError("unreachable");
    }
}
