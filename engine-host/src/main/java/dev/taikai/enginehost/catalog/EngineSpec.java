package dev.taikai.enginehost.catalog;

import dev.taikai.rules.Notation;
import java.nio.file.Path;
import java.util.Collections;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A catalog entry: everything needed to start and speak to one engine.
 *
 * @param id the name tournaments use for this engine
 * @param command the program and its arguments
 * @param workingDirectory where the engine runs, or null for the worker's own
 * @param environment variables added to the engine's environment
 * @param options USI options sent with {@code setoption} after the handshake, in order
 * @param variantOption the option that selects the variant ({@code UCI_Variant}, {@code USI_Variant}), or
 *     {@link #AUTO_VARIANT_OPTION} for whichever of the two the engine lists
 * @param notation how the engine writes Kyoto shogi
 * @param quirks deviations the driver compensates for
 */
public record EngineSpec(
        String id,
        List<String> command,
        Path workingDirectory,
        Map<String, String> environment,
        Map<String, String> options,
        String variantOption,
        Notation notation,
        Set<Quirk> quirks,
        ProcessLimits limits) {
    public static final String AUTO_VARIANT_OPTION = "auto";

    public EngineSpec {
        if (id == null || id.isBlank()) {
            throw new IllegalArgumentException("an engine needs an id");
        }
        if (command == null || command.isEmpty() || command.get(0).isBlank()) {
            throw new IllegalArgumentException("engine '" + id + "' needs a command");
        }
        command = List.copyOf(command);
        environment = Collections.unmodifiableMap(new LinkedHashMap<>(environment));
        options = Collections.unmodifiableMap(new LinkedHashMap<>(options));
        quirks = quirks.isEmpty() ? Set.of() : Collections.unmodifiableSet(EnumSet.copyOf(quirks));
    }

    /** An entry with defaults for everything but the id and the command. */
    public static EngineSpec of(String id, List<String> command) {
        return new EngineSpec(
                id,
                command,
                null,
                Map.of(),
                Map.of(),
                AUTO_VARIANT_OPTION,
                Notation.FAIRY_STOCKFISH,
                Set.of(),
                ProcessLimits.DEFAULT);
    }

    public EngineSpec withOptions(Map<String, String> newOptions) {
        return new EngineSpec(
                id, command, workingDirectory, environment, newOptions, variantOption, notation, quirks, limits);
    }

    public EngineSpec withQuirks(Set<Quirk> newQuirks) {
        return new EngineSpec(
                id, command, workingDirectory, environment, options, variantOption, notation, newQuirks, limits);
    }

    public EngineSpec withLimits(ProcessLimits newLimits) {
        return new EngineSpec(
                id, command, workingDirectory, environment, options, variantOption, notation, quirks, newLimits);
    }

    public boolean has(Quirk quirk) {
        return quirks.contains(quirk);
    }
}
