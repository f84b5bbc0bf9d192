package dev.taikai.enginehost.catalog;

import dev.taikai.enginehost.config.ConfigException;
import dev.taikai.rules.Notation;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A whole catalog entry on the command line, as cutechess-cli writes engines: {@code name=fsf
 * cmd=fairy-stockfish option.Hash=64 quirk=swapped-clocks}. Keys: {@code name} (or {@code id}), {@code
 * cmd}, {@code dir}, {@code arg} (repeatable), {@code option.NAME}, {@code env.NAME}, {@code quirk}
 * (repeatable, or comma-separated), {@code proto} ({@code usi} or {@code xboard}), {@code notation}, {@code
 * variant-option}, {@code memory-mb},
 * {@code processes}, {@code max-line-bytes}, {@code stderr-lines}. Quote a pair whose value has spaces:
 * {@code 'option.Skill Level=5'}.
 */
public final class EngineArguments {
    private EngineArguments() {}

    /** True when {@code text} reads as key=value pairs with a {@code cmd}, rather than an id or a command line. */
    public static boolean looksLikeArguments(String text) throws ConfigException {
        return Catalog.splitCommandLine(text).stream().anyMatch(word -> word.startsWith("cmd="));
    }

    public static EngineSpec parse(String text) throws ConfigException {
        return parse(Catalog.splitCommandLine(text));
    }

    public static EngineSpec parse(List<String> pairs) throws ConfigException {
        String id = null;
        String command = null;
        Path dir = null;
        List<String> args = new ArrayList<>();
        Map<String, String> options = new LinkedHashMap<>();
        Map<String, String> env = new LinkedHashMap<>();
        Set<Quirk> quirks = EnumSet.noneOf(Quirk.class);
        Notation notation = Notation.FAIRY_STOCKFISH;
        Protocol protocol = Protocol.USI;
        String variantOption = EngineSpec.AUTO_VARIANT_OPTION;
        ProcessLimits d = ProcessLimits.DEFAULT;
        long memory = d.memoryMegabytes();
        long processes = d.processes();
        long lineBytes = d.maxLineBytes();
        long stderrLines = d.stderrLines();
        for (String pair : pairs) {
            int equals = pair.indexOf('=');
            if (equals <= 0) {
                throw new ConfigException("engine argument '" + pair + "' is not key=value");
            }
            String key = pair.substring(0, equals);
            String value = pair.substring(equals + 1);
            if (key.startsWith("option.") && key.length() > 7) {
                options.put(key.substring(7), value);
                continue;
            }
            if (key.startsWith("env.") && key.length() > 4) {
                env.put(key.substring(4), value);
                continue;
            }
            switch (key) {
                case "name", "id" -> id = value;
                case "cmd" -> command = value;
                case "dir" -> dir = Path.of(value);
                case "arg" -> args.add(value);
                case "quirk" -> {
                    for (String name : value.split(",")) {
                        quirks.add(Quirk.byId(name.trim())
                                .orElseThrow(() -> new ConfigException("unknown quirk '" + name.trim() + "'")));
                    }
                }
                case "notation" ->
                    notation = Notation.byId(value)
                            .orElseThrow(
                                    () -> new ConfigException("unknown notation '" + value + "'; use fsf or lishogi"));
                case "proto" ->
                    protocol = Protocol.byId(value)
                            .orElseThrow(() -> new ConfigException("proto=" + value + ": engines speak usi or xboard"));
                case "variant-option" -> variantOption = value;
                case "memory-mb" -> memory = number(key, value, 0, 1 << 20);
                case "processes" -> processes = number(key, value, 0, 1 << 20);
                case "max-line-bytes" -> lineBytes = number(key, value, 256, 64 << 20);
                case "stderr-lines" -> stderrLines = number(key, value, 1, 10_000);
                default -> throw new ConfigException("unknown engine argument '" + key + "'");
            }
        }
        if (command == null || command.isBlank()) {
            throw new ConfigException("engine arguments need cmd=<program>");
        }
        if (protocol == Protocol.XBOARD
                && (notation != Notation.FAIRY_STOCKFISH
                        || !quirks.isEmpty()
                        || !variantOption.equals(EngineSpec.AUTO_VARIANT_OPTION))) {
            throw new ConfigException("notation, quirk and variant-option are USI settings; an XBoard engine"
                    + " (proto=xboard) names its variant and pieces itself");
        }
        List<String> argv = new ArrayList<>();
        argv.add(command);
        argv.addAll(args);
        String name = id != null ? id : Path.of(command).getFileName().toString();
        try {
            return new EngineSpec(
                    name,
                    argv,
                    dir,
                    env,
                    options,
                    variantOption,
                    notation,
                    quirks,
                    new ProcessLimits(memory, (int) processes, (int) lineBytes, (int) stderrLines),
                    Set.of(),
                    protocol);
        } catch (IllegalArgumentException e) { // a name or an option that cannot reach an engine (EngineText)
            throw new ConfigException(e.getMessage());
        }
    }

    private static long number(String key, String value, long min, long max) throws ConfigException {
        try {
            long parsed = Long.parseLong(value);
            if (parsed < min || parsed > max) {
                throw new ConfigException(key + "=" + value + " is out of range (" + min + " to " + max + ")");
            }
            return parsed;
        } catch (NumberFormatException e) {
            throw new ConfigException(key + " needs a whole number, not '" + value + "'");
        }
    }
}
