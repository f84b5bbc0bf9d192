package dev.taikai.enginehost.catalog;

import dev.taikai.rules.Notation;
import java.nio.file.Path;
import java.util.Collections;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
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
 * @param limits what the engine's process may use
 * @param fileOptions options whose values name files or directories ({@link EngineText#namesAFile}) that
 *     this entry lets tournaments set, to paths inside the engine's working directory; all others are
 *     refused
 * @param protocol what the engine speaks: USI, or XBoard (CECP)
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
        ProcessLimits limits,
        Set<String> fileOptions,
        Protocol protocol) {
    public static final String AUTO_VARIANT_OPTION = "auto";

    /** Checks everything that will reach the engine's pipe ({@link EngineText}); names the field at fault. */
    public EngineSpec {
        if (id == null || id.isBlank()) {
            throw new IllegalArgumentException("an engine needs an id");
        }
        EngineText.name("engine id", id);
        if (command == null || command.isEmpty() || command.get(0).isBlank()) {
            throw new IllegalArgumentException("engine '" + id + "' needs a command");
        }
        command = List.copyOf(command);
        // no program takes a NUL in its arguments or environment, nor '=' in a variable's name
        for (int i = 0; i < command.size(); i++) {
            if (command.get(i).indexOf('\0') >= 0) {
                throw new IllegalArgumentException("engine '" + id + "' command word " + (i + 1)
                        + " holds a NUL character: " + EngineText.shown(command.get(i)));
            }
        }
        for (Map.Entry<String, String> variable : environment.entrySet()) {
            String name = variable.getKey();
            if (name.isEmpty()
                    || name.indexOf('=') >= 0
                    || name.indexOf('\0') >= 0
                    || variable.getValue().indexOf('\0') >= 0) {
                throw new IllegalArgumentException("engine '" + id + "' environment variable " + EngineText.shown(name)
                        + ": a name is not empty and holds no '=' or NUL, a value no NUL");
            }
        }
        environment = Collections.unmodifiableMap(new LinkedHashMap<>(environment));
        options = Collections.unmodifiableMap(
                new LinkedHashMap<>(EngineText.options("engine '" + id + "' options", options)));
        quirks = quirks.isEmpty() ? Set.of() : Collections.unmodifiableSet(EnumSet.copyOf(quirks));
        fileOptions = Set.copyOf(fileOptions);
        if (protocol == null) {
            throw new IllegalArgumentException("engine '" + id + "' needs a protocol");
        }
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
                ProcessLimits.DEFAULT,
                Set.of(),
                Protocol.USI);
    }

    public EngineSpec withId(String newId) {
        return new EngineSpec(
                newId,
                command,
                workingDirectory,
                environment,
                options,
                variantOption,
                notation,
                quirks,
                limits,
                fileOptions,
                protocol);
    }

    public EngineSpec withOptions(Map<String, String> newOptions) {
        return new EngineSpec(
                id,
                command,
                workingDirectory,
                environment,
                newOptions,
                variantOption,
                notation,
                quirks,
                limits,
                fileOptions,
                protocol);
    }

    /** This entry with {@code overrides} set over its options (a tournament's over the catalog's). */
    public EngineSpec withOptionsOver(Map<String, String> overrides) {
        if (overrides.isEmpty()) {
            return this;
        }
        Map<String, String> merged = new LinkedHashMap<>(options);
        merged.putAll(overrides);
        return withOptions(merged);
    }

    public EngineSpec withQuirks(Set<Quirk> newQuirks) {
        return new EngineSpec(
                id,
                command,
                workingDirectory,
                environment,
                options,
                variantOption,
                notation,
                newQuirks,
                limits,
                fileOptions,
                protocol);
    }

    public EngineSpec withLimits(ProcessLimits newLimits) {
        return new EngineSpec(
                id,
                command,
                workingDirectory,
                environment,
                options,
                variantOption,
                notation,
                quirks,
                newLimits,
                fileOptions,
                protocol);
    }

    /** This entry speaking {@code newProtocol}. */
    public EngineSpec withProtocol(Protocol newProtocol) {
        return new EngineSpec(
                id,
                command,
                workingDirectory,
                environment,
                options,
                variantOption,
                notation,
                quirks,
                limits,
                fileOptions,
                newProtocol);
    }

    public EngineSpec withFileOptions(Set<String> allowed) {
        return new EngineSpec(
                id,
                command,
                workingDirectory,
                environment,
                options,
                variantOption,
                notation,
                quirks,
                limits,
                allowed,
                protocol);
    }

    /**
     * Why {@code options} may not be set on this engine because one of them names a file that this entry
     * does not list under {@link #fileOptions}, or empty. An empty value names no file and is always allowed.
     */
    public Optional<String> unallowedFileOption(Map<String, String> options) {
        for (Map.Entry<String, String> option : options.entrySet()) {
            if (EngineText.namesAFile(option.getKey())
                    && !option.getValue().isEmpty()
                    && !fileOptions.contains(option.getKey())) {
                return Optional.of(fileOptionRefusal(option.getKey()));
            }
        }
        return Optional.empty();
    }

    /** The refusal of option {@code name}, which names a file, for this engine. */
    public String fileOptionRefusal(String name) {
        return "option '" + name + "' names a file, which engine '" + id
                + "' may be given only where its catalog entry lists it under file-options";
    }

    public boolean has(Quirk quirk) {
        return quirks.contains(quirk);
    }
}
