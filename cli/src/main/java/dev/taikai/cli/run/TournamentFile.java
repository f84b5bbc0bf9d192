package dev.taikai.cli.run;

import dev.taikai.enginehost.catalog.BuiltinCatalog;
import dev.taikai.enginehost.catalog.Catalog;
import dev.taikai.enginehost.catalog.EngineSpec;
import dev.taikai.enginehost.config.ConfigException;
import dev.taikai.enginehost.config.YamlNode;
import dev.taikai.referee.game.Adjudication;
import dev.taikai.referee.game.Opening;
import dev.taikai.referee.game.OverrunMargin;
import dev.taikai.referee.game.TimeControl;
import dev.taikai.rules.Variant;
import dev.taikai.tournament.Entrant;
import dev.taikai.tournament.Format;
import dev.taikai.tournament.OpeningSuite;
import dev.taikai.tournament.TournamentSpec;
import dev.taikai.tournament.league.League;
import dev.taikai.tournament.stats.Sprt;
import java.io.IOException;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A tournament file (YAML; every key and its default in docs/tournaments.md). Errors name the file,
 * the line and the field.
 */
public final class TournamentFile {
    static final Set<String> KEYS = Set.of(
            "name",
            "variant",
            "format",
            "seeds",
            "rounds",
            "games",
            "engines",
            "catalog",
            "time-control",
            "overrun-margin-ms",
            "openings",
            "adjudication",
            "concurrency",
            "seed",
            "sprt",
            "output",
            "restart",
            "engine-logs",
            "league");
    private static final Set<String> ENTRANT_KEYS =
            Set.of("engine", "name", "options", "time-control", "overrun-margin-ms", "from-round", "until-round");

    private TournamentFile() {}

    public static RunPlan read(Path file) throws ConfigException {
        String text;
        try {
            text = Files.readString(file, StandardCharsets.UTF_8);
        } catch (java.nio.file.NoSuchFileException e) {
            throw new ConfigException("tournament file " + file + " does not exist");
        } catch (IOException e) {
            throw new ConfigException("cannot read tournament file " + file + ": "
                    + dev.taikai.enginehost.catalog.FileProblem.of(file, e));
        }
        Path dir = file.toAbsolutePath().getParent();
        YamlNode root = YamlNode.root(new StringReader(text), file.toString(), "the tournament file is empty");
        Map<String, YamlNode> f = root.mapping(KEYS);
        String fileName = file.getFileName().toString();
        String name = f.containsKey("name") ? f.get("name").nonEmpty() : fileName.replaceFirst("\\.[^.]*$", "");

        YamlNode variantNode = required(root, f, "variant");
        Variant variant = Variant.byName(variantNode.nonEmpty())
                .orElseThrow(() -> variantNode.error("unknown variant; use minishogi or kyotoshogi"));
        Catalog catalog = BuiltinCatalog.get();
        if (f.containsKey("catalog")) {
            Path catalogFile = dir.resolve(f.get("catalog").nonEmpty()).normalize();
            if (!Files.isRegularFile(catalogFile)) { // the catalog's own errors name its file and line
                throw f.get("catalog")
                        .error("cannot read engine catalog " + catalogFile + ": "
                                + (Files.exists(catalogFile) ? "it is not a file" : "it does not exist"));
            }
            catalog = catalog.with(Catalog.read(catalogFile));
        }
        TimeControl timeControl = f.containsKey("time-control")
                ? timeControl(f.get("time-control"))
                : TimeControl.parse(RunPlan.DEFAULT_TIME_CONTROL);

        List<Entrant> entrants = new ArrayList<>();
        List<EngineSpec> inline = new ArrayList<>();
        Map<String, YamlNode> items = new HashMap<>(); // each engine's entry, by the engine's name
        for (YamlNode item : required(root, f, "engines").sequence()) {
            Entrant entrant = entrant(item, catalog, inline, timeControl, dir);
            if (items.putIfAbsent(entrant.name(), item) != null) {
                throw item.error("two engines are named '" + entrant.name() + "'; give one a different name");
            }
            entrants.add(entrant);
        }
        catalog = catalog.with(Catalog.of(inline));
        if (entrants.size() < 2) {
            throw f.get("engines").error("a tournament needs at least two engines");
        }

        Format format = entrants.size() == 2 ? Format.MATCH : Format.ROUND_ROBIN;
        if (f.containsKey("format")) {
            YamlNode node = f.get("format");
            format = Format.byId(node.nonEmpty())
                    .orElseThrow(() ->
                            node.error("unknown format; use round-robin, gauntlet, match, league, swiss or knockout"));
        }
        if (f.containsKey("seeds") && format != Format.GAUNTLET) {
            // the seeds count only where they play every other engine; elsewhere it would be a key ignored
            throw f.get("seeds").error(seedsOfAGauntlet(format));
        }
        int seeds = f.containsKey("seeds") ? (int) f.get("seeds").number(1, entrants.size() - 1) : 1;
        // a league may run with no end (rounds: 0), as its flags and the cluster's API allow
        int rounds = f.containsKey("rounds")
                ? (int) f.get("rounds").number(format == Format.LEAGUE ? 0 : 1, TournamentSpec.MAX_ROUNDS)
                : 1;
        int games = f.containsKey("games") ? (int) f.get("games").number(1, TournamentSpec.MAX_GAMES_PER_PAIRING) : 2;
        List<Opening> openings = List.of();
        boolean random = false;
        if (f.containsKey("openings")) {
            Map<String, YamlNode> o = f.get("openings").mapping(Set.of("file", "order", "start", "plies"));
            YamlNode fileNode = required(f.get("openings"), o, "file");
            int start = o.containsKey("start") ? (int) o.get("start").number(1, Integer.MAX_VALUE) : 1;
            int plies = o.containsKey("plies") ? (int) o.get("plies").number(0, OpeningSuite.MAX_PLIES) : -1;
            try {
                openings = OpeningSuite.read(dir.resolve(fileNode.nonEmpty()).normalize(), variant, start, plies);
            } catch (IllegalArgumentException e) {
                // a start past the suite's end is the start key's fault; anything else the file's
                throw (e.getMessage().startsWith("the opening suite has") ? o.get("start") : fileNode)
                        .error(e.getMessage());
            }
            if (o.containsKey("order")) {
                String order = o.get("order").nonEmpty();
                if (!order.equals("random") && !order.equals("sequential")) {
                    throw o.get("order").error("order is 'sequential' or 'random', not '" + order + "'");
                }
                random = order.equals("random");
            }
        }
        OverrunMargin margin = f.containsKey("overrun-margin-ms")
                ? OverrunMargin.of(f.get("overrun-margin-ms").number(0, OverrunMargin.MAX_MILLIS))
                : OverrunMargin.BY_RULE;
        Adjudication adjudication =
                f.containsKey("adjudication") ? adjudication(f.get("adjudication")) : Adjudication.DEFAULT;
        int concurrency = f.containsKey("concurrency")
                ? (int) f.get("concurrency").number(1, RunPlan.MAX_CONCURRENCY)
                : RunPlan.defaultConcurrency();
        long seed = f.containsKey("seed") ? f.get("seed").number(Long.MIN_VALUE, Long.MAX_VALUE) : 1;
        Sprt sprt = f.containsKey("sprt") ? sprt(f.get("sprt")) : null;
        Path output = f.containsKey("output")
                ? dir.resolve(f.get("output").nonEmpty()).normalize()
                : NewFolder.of(Path.of("results"), name);
        boolean restartEveryGame = false;
        if (f.containsKey("restart")) {
            String restart = f.get("restart").nonEmpty();
            if (!restart.equals("always") && !restart.equals("on-failure")) {
                throw f.get("restart").error("restart is 'on-failure' or 'always', not '" + restart + "'");
            }
            restartEveryGame = restart.equals("always");
        }
        boolean engineLogs =
                f.containsKey("engine-logs") && f.get("engine-logs").bool();
        League.Settings league = League.Settings.DEFAULT;
        if (f.containsKey("league")) {
            if (format != Format.LEAGUE) {
                throw f.get("league")
                        .error("tunes a league's pairing and ratings; this tournament's format is " + format.id()
                                + " (format: league, or leave the key out)");
            }
            league = league(f.get("league"));
        }
        try {
            TournamentSpec spec = new TournamentSpec(
                    name,
                    variant,
                    format,
                    entrants,
                    seeds,
                    rounds,
                    games,
                    openings,
                    random,
                    margin,
                    adjudication,
                    concurrency,
                    seed,
                    sprt);
            return new RunPlan(spec, catalog, output, restartEveryGame, 0, engineLogs, league);
        } catch (IllegalArgumentException e) {
            throw placed(e.getMessage(), root, f, items);
        }
    }

    /**
     * A tournament-wide refusal at the key it is about, where the file has that key; one about an engine
     * ({@code engine 'x': ...}) at its entry in {@code engines}; else at the top.
     */
    private static ConfigException placed(
            String message, YamlNode root, Map<String, YamlNode> f, Map<String, YamlNode> items) {
        java.util.regex.Matcher engine =
                java.util.regex.Pattern.compile("^engine '([^']*)'").matcher(message);
        if (engine.find() && items.containsKey(engine.group(1))) {
            return items.get(engine.group(1)).error(message);
        }
        String key = message.startsWith("SPRT")
                ? "sprt"
                : message.startsWith("a league plays 1 or 2 games") && f.containsKey("games")
                        ? "games" // the key that breaks the rule, not the format that makes it
                        : message.startsWith("a match") || message.startsWith("a league")
                                ? "format"
                                : message.startsWith("a knockout's rounds")
                                                || message.startsWith("the tournament would have")
                                        ? "rounds"
                                        : message.startsWith("a gauntlet") ? "seeds" : "";
        if (!f.containsKey(key) && (key.equals("seeds") || key.equals("rounds"))) {
            key = "format";
        }
        return f.containsKey(key) ? f.get(key).error(message) : root.error(message);
    }

    /** The engine of one entry of {@code engines}; an inline engine's relative workdir is taken from {@code dir}. */
    private static Entrant entrant(
            YamlNode item, Catalog catalog, List<EngineSpec> inline, TimeControl timeControl, Path dir)
            throws ConfigException {
        try {
            return checkedEntrant(item, catalog, inline, timeControl, dir);
        } catch (IllegalArgumentException e) { // a name or an option that cannot reach an engine (EngineText)
            throw item.error(e.getMessage());
        }
    }

    private static Entrant checkedEntrant(
            YamlNode item, Catalog catalog, List<EngineSpec> inline, TimeControl timeControl, Path dir)
            throws ConfigException {
        if (item.isScalar()) {
            String id = item.nonEmpty();
            if (catalog.engine(id).isEmpty()) {
                throw item.error("no engine '" + id
                        + "' in the catalog (built in: fairy-stockfish, crazywa, sjaakii, taikai-1 to taikai-4)");
            }
            return new Entrant(id, id, timeControl);
        }
        Map<String, YamlNode> fields = item.mapping(Set.of());
        TimeControl own = fields.containsKey("time-control") ? timeControl(fields.get("time-control")) : timeControl;
        OverrunMargin margin = fields.containsKey("overrun-margin-ms")
                ? OverrunMargin.of(fields.get("overrun-margin-ms").number(0, OverrunMargin.MAX_MILLIS))
                : null;
        Entrant.Rounds rounds = new Entrant.Rounds(
                fields.containsKey("from-round")
                        ? (int) fields.get("from-round").number(1, 1_000_000)
                        : 1,
                fields.containsKey("until-round")
                        ? (int) fields.get("until-round").number(1, 1_000_000)
                        : 0);
        if (fields.containsKey("engine")) {
            for (var field : fields.entrySet()) {
                if (!ENTRANT_KEYS.contains(field.getKey()) && Catalog.ENGINE_KEYS.contains(field.getKey())) {
                    // the two forms of an entry mixed: a catalog engine with a command line's keys
                    throw field.getValue()
                            .error("'" + field.getKey() + "' belongs to a whole engine entry (id:, command:, ...), not"
                                    + " to one that plays the catalog's engine (engine: "
                                    + fields.get("engine").scalar() + "); give one form or the other");
                }
            }
            item.mapping(ENTRANT_KEYS);
            String id = fields.get("engine").nonEmpty();
            if (catalog.engine(id).isEmpty()) {
                throw fields.get("engine").error("no engine '" + id + "' in the catalog");
            }
            String name = fields.containsKey("name") ? fields.get("name").nonEmpty() : id;
            Map<String, String> options =
                    fields.containsKey("options") ? Catalog.options(fields.get("options")) : Map.of();
            return new Entrant(name, id, options, own, margin, rounds);
        }
        if (fields.containsKey("name") && !fields.containsKey("id")) {
            throw fields.get("name")
                    .error("a whole engine entry names its engine with 'id:' ('name:' goes with 'engine: ID', a"
                            + " catalog engine under another name)");
        }
        Set<String> keys = new HashSet<>(Catalog.ENGINE_KEYS);
        keys.add("time-control");
        keys.add("overrun-margin-ms");
        keys.add("from-round");
        keys.add("until-round");
        EngineSpec spec = Catalog.engine(item, keys, dir);
        inline.add(spec);
        return new Entrant(spec.id(), spec.id(), Map.of(), own, margin, rounds);
    }

    private static TimeControl timeControl(YamlNode node) throws ConfigException {
        try {
            return TimeControl.parse(node.nonEmpty());
        } catch (IllegalArgumentException e) {
            throw node.error(e.getMessage());
        }
    }

    private static Adjudication adjudication(YamlNode node) throws ConfigException {
        Map<String, YamlNode> f = node.mapping(Set.of("move-limit", "resign", "draw"));
        Adjudication result = Adjudication.DEFAULT;
        if (f.containsKey("move-limit")) {
            result = result.withMoveLimit((int) f.get("move-limit").number(0, 100_000));
        }
        if (f.containsKey("resign")) {
            Map<String, YamlNode> r = f.get("resign").mapping(Set.of("score", "moves"));
            result = result.withResign(
                    (int) required(f.get("resign"), r, "score").number(1, 1_000_000),
                    (int) required(f.get("resign"), r, "moves").number(1, 10_000));
        }
        if (f.containsKey("draw")) {
            Map<String, YamlNode> d = f.get("draw").mapping(Set.of("score", "moves", "after"));
            result = result.withDraw(
                    (int) required(f.get("draw"), d, "score").number(1, 1_000_000),
                    (int) required(f.get("draw"), d, "moves").number(1, 10_000),
                    d.containsKey("after") ? (int) d.get("after").number(0, 100_000) : 0);
        }
        return result;
    }

    /** A league's tuning: {@code rematch-penalty}, {@code rematch-memory}, {@code half-life} (docs/league.md). */
    private static League.Settings league(YamlNode node) throws ConfigException {
        Map<String, YamlNode> f = node.mapping(Set.of("rematch-penalty", "rematch-memory", "half-life"));
        League.Settings d = League.Settings.DEFAULT;
        double penalty = f.containsKey("rematch-penalty") ? decimal(f.get("rematch-penalty")) : d.rematchPenalty();
        if (!(penalty >= 0 && penalty <= 1_000_000)) {
            throw f.get("rematch-penalty")
                    .error("rematch-penalty is 0 to 1000000 (units of (100 Elo)²), not "
                            + f.get("rematch-penalty").scalar());
        }
        int memory =
                f.containsKey("rematch-memory") ? (int) f.get("rematch-memory").number(0, 100) : d.rematchMemory();
        double halfLife = f.containsKey("half-life") ? decimal(f.get("half-life")) : d.halfLifeRounds();
        if (!(halfLife >= 0 && halfLife <= 1_000_000)) {
            throw f.get("half-life")
                    .error("half-life is 0 (no decay) or a number of rounds up to 1000000, not "
                            + f.get("half-life").scalar());
        }
        return new League.Settings(d.gamesPerPairing(), penalty, memory, halfLife);
    }

    private static Sprt sprt(YamlNode node) throws ConfigException {
        Map<String, YamlNode> f = node.mapping(Set.of("elo0", "elo1", "alpha", "beta"));
        try {
            return new Sprt(
                    decimal(required(node, f, "elo0")),
                    decimal(required(node, f, "elo1")),
                    f.containsKey("alpha") ? decimal(f.get("alpha")) : 0.05,
                    f.containsKey("beta") ? decimal(f.get("beta")) : 0.05);
        } catch (IllegalArgumentException e) {
            throw node.error(e.getMessage());
        }
    }

    private static double decimal(YamlNode node) throws ConfigException {
        try {
            return Double.parseDouble(node.nonEmpty());
        } catch (NumberFormatException e) {
            throw node.error("expected a number, not '" + node.scalar() + "'");
        }
    }

    private static YamlNode required(YamlNode parent, Map<String, YamlNode> fields, String key) throws ConfigException {
        YamlNode value = fields.get(key);
        if (value == null) {
            throw parent.error("'" + key + "' is required");
        }
        return value;
    }

    /**
     * Why seeds are refused in a tournament of {@code format}, after the key or flag that gave them:
     * they are a gauntlet's, its first engines, each of which plays all the others.
     */
    static String seedsOfAGauntlet(Format format) {
        return "a gauntlet's number of seeds (its first engines, which play all the others); this"
                + " tournament's format is " + format.id()
                + (format == Format.KNOCKOUT ? ", whose bracket seeds every engine in the order given" : "")
                + " (format: gauntlet, -tournament gauntlet, or leave it out)";
    }
}
