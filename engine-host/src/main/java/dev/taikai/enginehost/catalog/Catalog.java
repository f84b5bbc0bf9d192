package dev.taikai.enginehost.catalog;

import dev.taikai.enginehost.config.ConfigException;
import dev.taikai.enginehost.config.YamlNode;
import dev.taikai.rules.Notation;
import java.io.IOException;
import java.io.Reader;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The engines a worker may run, by id. Read from a YAML file whose format is documented in
 * docs/engines.md; {@link #builtIn()} holds the entries Taikai ships.
 */
public final class Catalog {
    private static final Set<String> TOP_KEYS = Set.of("engines");
    /** The keys of a catalog entry. */
    public static final Set<String> ENGINE_KEYS = Set.of(
            "id",
            "command",
            "args",
            "workdir",
            "env",
            "options",
            "file-options",
            "variant-option",
            "notation",
            "quirks",
            "limits",
            "protocol");

    private static final Set<String> LIMIT_KEYS = Set.of("memory-mb", "processes", "max-line-bytes", "stderr-lines");

    private final Map<String, EngineSpec> engines;

    private Catalog(Map<String, EngineSpec> engines) {
        this.engines = engines;
    }

    /**
     * Debian's engines: Fairy-Stockfish 11.1 ({@code fairy-stockfish}, USI, with the quirk it needs), CrazyWa
     * ({@code crazywa}, XBoard, both variants) and Sjaak II ({@code sjaakii}, XBoard, Minishogi).
     */
    public static Catalog builtIn() {
        Map<String, EngineSpec> engines = new LinkedHashMap<>();
        engines.put(
                "fairy-stockfish",
                EngineSpec.of("fairy-stockfish", List.of("fairy-stockfish")).withQuirks(Set.of(Quirk.SWAPPED_CLOCKS)));
        for (String xboard : List.of("crazywa", "sjaakii")) {
            engines.put(xboard, EngineSpec.of(xboard, List.of(xboard)).withProtocol(Protocol.XBOARD));
        }
        return new Catalog(engines);
    }

    /** A catalog of these entries; ids must differ. */
    public static Catalog of(Collection<EngineSpec> entries) {
        Map<String, EngineSpec> byId = new LinkedHashMap<>();
        for (EngineSpec spec : entries) {
            if (byId.putIfAbsent(spec.id(), spec) != null) {
                throw new IllegalArgumentException("engine id '" + spec.id() + "' is used twice");
            }
        }
        return new Catalog(byId);
    }

    public static Catalog read(Path file) throws ConfigException {
        String text;
        try {
            text = Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new ConfigException("cannot read engine catalog " + file + ": " + FileProblem.of(file, e));
        }
        return parse(
                new StringReader(text), file.toString(), file.toAbsolutePath().getParent());
    }

    /** Parses catalog text; {@code fileName} is only used in error messages. */
    public static Catalog parse(Reader text, String fileName) throws ConfigException {
        return parse(text, fileName, null);
    }

    /** Parses catalog text; a relative {@code workdir} is taken from {@code base} (null: as written). */
    private static Catalog parse(Reader text, String fileName, Path base) throws ConfigException {
        YamlNode root = YamlNode.root(text, fileName, "the catalog is empty; it needs an 'engines' list");
        YamlNode engines = root.mapping(TOP_KEYS).get("engines");
        if (engines == null) {
            throw root.error("the catalog needs an 'engines' list");
        }
        Map<String, EngineSpec> byId = new LinkedHashMap<>();
        for (YamlNode entry : engines.sequence()) {
            EngineSpec spec = engine(entry, ENGINE_KEYS, base);
            if (byId.putIfAbsent(spec.id(), spec) != null) {
                throw entry.error("engine id '" + spec.id() + "' is used twice");
            }
        }
        return new Catalog(byId);
    }

    /**
     * One engine entry, as in a catalog file or inline in a tournament file, whose {@code allowedKeys} may
     * add its caller's (a tournament's per-engine settings);
     * a relative {@code workdir} is taken from {@code base}, the folder of the file the entry is in, as the
     * file's other paths are (null: as written, from the current directory).
     */
    public static EngineSpec engine(YamlNode entry, Set<String> allowedKeys, Path base) throws ConfigException {
        Map<String, YamlNode> fields = entry.mapping(allowedKeys);
        YamlNode idNode = required(entry, fields, "id");
        String id = idNode.nonEmpty();
        if (!id.matches("[A-Za-z0-9][A-Za-z0-9._-]*")) {
            throw idNode.error("'" + id + "' is not a valid id (letters, digits, '.', '_', '-')");
        }
        List<String> command = new ArrayList<>();
        command.add(required(entry, fields, "command").nonEmpty());
        if (fields.containsKey("args")) {
            command.addAll(fields.get("args").strings());
        }
        Path workdir =
                fields.containsKey("workdir") ? Path.of(fields.get("workdir").nonEmpty()) : null;
        if (workdir != null && base != null) {
            workdir = base.resolve(workdir).normalize();
        }
        Map<String, String> env = stringMap(fields.get("env"));
        Map<String, String> options = fields.containsKey("options") ? options(fields.get("options")) : Map.of();
        Set<String> fileOptions = new java.util.LinkedHashSet<>();
        if (fields.containsKey("file-options")) {
            YamlNode node = fields.get("file-options");
            for (String name : node.strings()) {
                if (!EngineText.namesAFile(name)) {
                    throw node.error("'" + name + "' does not name a file (a file option's name says file, path,"
                            + " dir, folder or log); only such options need to be listed here");
                }
                fileOptions.add(name);
            }
        }
        String variantOption = fields.containsKey("variant-option")
                ? fields.get("variant-option").nonEmpty()
                : EngineSpec.AUTO_VARIANT_OPTION;
        Notation notation = Notation.FAIRY_STOCKFISH;
        if (fields.containsKey("notation")) {
            YamlNode node = fields.get("notation");
            notation = Notation.byId(node.nonEmpty())
                    .orElseThrow(() -> node.error("unknown notation; use fsf or lishogi"));
        }
        Set<Quirk> quirks = EnumSet.noneOf(Quirk.class);
        if (fields.containsKey("quirks")) {
            YamlNode node = fields.get("quirks");
            for (String name : node.strings()) {
                quirks.add(Quirk.byId(name.trim())
                        .orElseThrow(() -> node.error("unknown quirk '" + name + "'; known: " + knownQuirks())));
            }
        }
        ProcessLimits limits = fields.containsKey("limits") ? limits(fields.get("limits")) : ProcessLimits.DEFAULT;
        Protocol protocol = Protocol.USI;
        if (fields.containsKey("protocol")) {
            YamlNode node = fields.get("protocol");
            protocol =
                    Protocol.byId(node.nonEmpty()).orElseThrow(() -> node.error("unknown protocol; use usi or xboard"));
        }
        if (protocol == Protocol.XBOARD) {
            for (String usiOnly : List.of("notation", "variant-option", "quirks")) {
                if (fields.containsKey(usiOnly)) {
                    throw fields.get(usiOnly)
                            .error("a USI setting; an XBoard engine names its variant and pieces itself (feature"
                                    + " variants, setup)");
                }
            }
        }
        try {
            return new EngineSpec(
                    id, command, workdir, env, options, variantOption, notation, quirks, limits, fileOptions, protocol);
        } catch (IllegalArgumentException e) {
            throw entry.error(e.getMessage()); // what the entry's fields are checked for together
        }
    }

    private static ProcessLimits limits(YamlNode node) throws ConfigException {
        Map<String, YamlNode> fields = node.mapping(LIMIT_KEYS);
        ProcessLimits d = ProcessLimits.DEFAULT;
        return new ProcessLimits(
                fields.containsKey("memory-mb") ? fields.get("memory-mb").number(0, 1 << 20) : d.memoryMegabytes(),
                fields.containsKey("processes") ? (int) fields.get("processes").number(0, 1 << 20) : d.processes(),
                fields.containsKey("max-line-bytes")
                        ? (int) fields.get("max-line-bytes").number(256, 64 << 20)
                        : d.maxLineBytes(),
                fields.containsKey("stderr-lines")
                        ? (int) fields.get("stderr-lines").number(1, 10_000)
                        : d.stderrLines());
    }

    /** Engine options as a catalog entry writes them ({@code {Name: value}}), checked as {@link EngineText} does. */
    public static Map<String, String> options(YamlNode node) throws ConfigException {
        Map<String, String> options = stringMap(node);
        try {
            EngineText.options("options", options);
        } catch (IllegalArgumentException e) {
            throw node.error(e.getMessage());
        }
        return options;
    }

    private static Map<String, String> stringMap(YamlNode node) throws ConfigException {
        Map<String, String> values = new LinkedHashMap<>();
        if (node != null) {
            for (Map.Entry<String, YamlNode> entry : node.mapping(Set.of()).entrySet()) {
                values.put(entry.getKey(), entry.getValue().text());
            }
        }
        return values;
    }

    private static YamlNode required(YamlNode entry, Map<String, YamlNode> fields, String key) throws ConfigException {
        YamlNode value = fields.get(key);
        if (value == null) {
            throw entry.error("an engine needs '" + key + "'");
        }
        return value;
    }

    private static String knownQuirks() {
        List<String> names = new ArrayList<>();
        for (Quirk quirk : Quirk.values()) {
            names.add(quirk.id());
        }
        return String.join(", ", names);
    }

    /**
     * The entry with id {@code idOrCommand}; else, when it holds {@code cmd=...}, the entry its key=value
     * pairs describe ({@link EngineArguments}); else an entry for that command line: a program and its
     * arguments separated by spaces, with single or double quotes around arguments that contain spaces.
     */
    public EngineSpec resolve(String idOrCommand) throws ConfigException {
        EngineSpec known = engines.get(idOrCommand.trim());
        if (known != null) {
            return known;
        }
        if (EngineArguments.looksLikeArguments(idOrCommand)) {
            return EngineArguments.parse(idOrCommand);
        }
        List<String> argv = splitCommandLine(idOrCommand);
        if (argv.isEmpty()) {
            throw new ConfigException("no engine given: expected a catalog id or a command");
        }
        String program = Path.of(argv.get(0)).getFileName().toString();
        return EngineSpec.of(program.isEmpty() ? "engine" : program, argv);
    }

    static List<String> splitCommandLine(String text) throws ConfigException {
        List<String> words = new ArrayList<>();
        StringBuilder word = new StringBuilder();
        boolean inWord = false;
        char quote = 0;
        for (int i = 0; i < text.length(); i++) {
            char ch = text.charAt(i);
            if (quote != 0) {
                if (ch == quote) {
                    quote = 0;
                } else {
                    word.append(ch);
                }
            } else if (ch == '\'' || ch == '"') {
                quote = ch;
                inWord = true;
            } else if (Character.isWhitespace(ch)) {
                if (inWord) {
                    words.add(word.toString());
                    word.setLength(0);
                    inWord = false;
                }
            } else {
                word.append(ch);
                inWord = true;
            }
        }
        if (quote != 0) {
            throw new ConfigException("unclosed " + quote + " in engine command: " + text);
        }
        if (inWord) {
            words.add(word.toString());
        }
        return words;
    }

    public Optional<EngineSpec> engine(String id) {
        return Optional.ofNullable(engines.get(id));
    }

    public Collection<EngineSpec> engines() {
        return engines.values();
    }

    /** The ids of its engines, sorted. */
    public List<String> ids() {
        return engines.keySet().stream().sorted().toList();
    }

    /** This catalog with {@code other}'s entries added; {@code other} wins where both have an id. */
    public Catalog with(Catalog other) {
        Map<String, EngineSpec> merged = new LinkedHashMap<>(engines);
        merged.putAll(other.engines);
        return new Catalog(merged);
    }
}
