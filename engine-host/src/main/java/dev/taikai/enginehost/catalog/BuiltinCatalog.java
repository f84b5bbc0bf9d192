package dev.taikai.enginehost.catalog;

import dev.taikai.engine.BuiltinEngines;
import java.util.ArrayList;
import java.util.List;

/**
 * The engines every run knows without a catalog file: {@code fairy-stockfish} (Debian's, with its
 * quirk) and the built-in engine at its levels, {@code taikai-1} (weakest) to {@code taikai-4}.
 */
public final class BuiltinCatalog {
    private BuiltinCatalog() {}

    public static Catalog get() {
        List<EngineSpec> levels = new ArrayList<>();
        for (int level = 1; level <= BuiltinEngines.LEVELS; level++) {
            levels.add(EngineSpec.of("taikai-" + level, BuiltinEngines.command(level)));
        }
        return Catalog.builtIn().with(Catalog.of(levels));
    }
}
