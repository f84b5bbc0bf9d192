package dev.taikai.cli.run;

import dev.taikai.enginehost.catalog.BuiltinCatalog;
import dev.taikai.enginehost.catalog.Catalog;
import dev.taikai.enginehost.catalog.EngineArguments;
import dev.taikai.enginehost.catalog.EngineSpec;
import dev.taikai.enginehost.config.ConfigException;
import dev.taikai.referee.game.Adjudication;
import dev.taikai.referee.game.Opening;
import dev.taikai.referee.game.OverrunMargin;
import dev.taikai.referee.game.TimeControl;
import dev.taikai.rules.Variant;
import dev.taikai.tournament.Entrant;
import dev.taikai.tournament.Format;
import dev.taikai.tournament.OpeningSuite;
import dev.taikai.tournament.TournamentSpec;
import dev.taikai.tournament.stats.Sprt;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A tournament from cutechess-cli / fastchess style flags, for example {@code -variant minishogi -engine
 * conf=fairy-stockfish -engine name=mine cmd=./mine -each tc=10 byoyomi=0.1 -rounds 50 -games 2
 * -openings file=openings/minishogi.txt order=random -sprt elo0=0 elo1=5 alpha=0.05 beta=0.05}. The flags
 * and their keys are listed in docs/tournaments.md.
 */
public final class CutechessArguments {
    private static final Set<String> TIME_KEYS = Set.of("tc", "st", "nodes", "depth", "plies", "byoyomi");
    private static final Set<String> WITH_VALUES = Set.of("-engine", "-each", "-openings", "-sprt", "-resign", "-draw");
    private static final Set<String> ONE_VALUE = Set.of(
            "-variant",
            "-tournament",
            "-seeds",
            "-rounds",
            "-games",
            "-concurrency",
            "-srand",
            "-maxmoves",
            "-timemargin",
            "-out",
            "-event",
            "-catalog",
            "-restart",
            "-ratinginterval");
    /** Engine keys that may be given more than once: all their values count, in order. */
    private static final Set<String> REPEATABLE_KEYS = Set.of("arg", "quirk");

    private static final Set<String> NO_VALUE = Set.of("-repeat", "-recover", "-log", "-debug");

    /** cutechess-cli's flags that have no place here, with what a user of them wants to know instead. */
    private static final Map<String, String> CUTECHESS_ONLY = Map.of(
            "-pgnout",
                    "the records go to -out DIR: a KIF file a game (shogi's PGN), all-games.kif, all-games.sfen and"
                            + " results.json",
            "-epdout", "the records go to -out DIR: all-games.sfen has every game's start, moves and result",
            "-noswap", "a pairing's two games swap colours; -games 1 plays one game a pairing",
            "-reverse", "a pairing's two games swap colours; -games 1 plays one game a pairing",
            "-wait", "games follow each other at once; -concurrency sets how many run at the same time",
            "-site", "-event NAME names the tournament",
            "-tb", "there are no endgame tablebases for these variants; -resign and -draw adjudicate",
            "-tbpieces", "there are no endgame tablebases for these variants; -resign and -draw adjudicate");

    private CutechessArguments() {}

    /** The flags of a command line, sorted by kind; {@link #read} checks each one is known. */
    private record Flags(
            List<List<String>> engines,
            List<String> each,
            Map<String, List<String>> groups,
            Map<String, String> single) {
        static Flags read(List<String> args) throws ConfigException {
            Flags flags = new Flags(new ArrayList<>(), new ArrayList<>(), new LinkedHashMap<>(), new LinkedHashMap<>());
            for (int i = 0; i < args.size(); i++) {
                String flag = args.get(i);
                if (NO_VALUE.contains(flag)) {
                    // -repeat: pairs always share their opening; -recover: failed engines always restart
                    flags.single.put(flag.equals("-debug") ? "-log" : flag, "");
                    if (flag.equals("-repeat") && i + 1 < args.size() && !isFlag(args.get(i + 1))) {
                        String times = args.get(++i); // cutechess's -repeat [N]
                        if (!times.equals("2")) {
                            throw new ConfigException("-repeat " + times + ": here each opening is played by one"
                                    + " game pair, colours swapped (-repeat 2, or -repeat alone)");
                        }
                    }
                    continue;
                }
                if (ONE_VALUE.contains(flag)) {
                    if (i + 1 >= args.size() || isFlag(args.get(i + 1))) {
                        throw new ConfigException(flag + " needs a value");
                    }
                    if (args.get(i + 1).isBlank()) { // an unset shell variable: -out "$OUT"
                        throw new ConfigException(flag + " needs a value, not an empty one");
                    }
                    String earlier = flags.single.put(flag, args.get(++i));
                    if (earlier != null) {
                        throw new ConfigException(
                                flag + " is given twice ('" + earlier + "', then '" + args.get(i) + "'); give it once");
                    }
                    continue;
                }
                if (CUTECHESS_ONLY.containsKey(flag)) {
                    throw new ConfigException(
                            flag + " is cutechess-cli's and not Taikai's: " + CUTECHESS_ONLY.get(flag));
                }
                if (!WITH_VALUES.contains(flag)) {
                    throw new ConfigException("unknown flag '" + flag + "' (see 'taikai run --help')");
                }
                List<String> values = new ArrayList<>();
                while (i + 1 < args.size() && !isFlag(args.get(i + 1))) {
                    values.add(args.get(++i));
                }
                if (values.isEmpty()) {
                    throw new ConfigException(flag + " needs key=value settings");
                }
                switch (flag) {
                    case "-engine" -> flags.engines.add(values);
                    case "-each" -> flags.each.addAll(values);
                    default -> {
                        if (flags.groups.put(flag, values) != null) {
                            throw new ConfigException(flag + " is given twice; give it once");
                        }
                    }
                }
            }
            return flags;
        }
    }

    public static RunPlan parse(List<String> args) throws ConfigException {
        Flags flags = Flags.read(args);
        Map<String, String> single = flags.single();
        if (!single.containsKey("-variant")) {
            throw new ConfigException("-variant is required: minishogi or kyotoshogi");
        }
        Variant variant = Variant.byName(single.get("-variant"))
                .orElseThrow(
                        () -> new ConfigException("unknown -variant '" + single.get("-variant") + "'; the variants are "
                                + Variant.all().stream()
                                        .map(Variant::name)
                                        .collect(java.util.stream.Collectors.joining(", "))));
        Catalog catalog = BuiltinCatalog.get();
        if (single.containsKey("-catalog")) {
            catalog = catalog.with(Catalog.read(Path.of(single.get("-catalog"))));
        }
        List<Entrant> entrants = new ArrayList<>();
        List<EngineSpec> inline = new ArrayList<>();
        for (List<String> engine : flags.engines()) {
            Entrant entrant;
            try {
                entrant = entrant(engine, flags.each(), catalog, inline);
            } catch (IllegalArgumentException e) { // a name or an option that cannot reach an engine (EngineText)
                throw new ConfigException("-engine: " + e.getMessage());
            }
            entrants.add(entrant);
        }
        catalog = catalog.with(Catalog.of(inline));
        if (entrants.size() < 2) {
            throw new ConfigException("a tournament needs at least two -engine flags");
        }
        String name = single.getOrDefault("-event", "taikai");
        try {
            TournamentSpec defaults = new TournamentSpec(
                    name,
                    variant,
                    entrants.size() == 2 ? Format.MATCH : Format.ROUND_ROBIN,
                    entrants,
                    1,
                    1,
                    2,
                    List.of(),
                    false,
                    OverrunMargin.BY_RULE,
                    Adjudication.DEFAULT,
                    RunPlan.defaultConcurrency(),
                    1,
                    null);
            return withTournamentFlags(
                    flags, new RunPlan(defaults, catalog, NewFolder.of(Path.of("results"), name), false));
        } catch (IllegalArgumentException e) {
            throw new ConfigException(e.getMessage());
        }
    }

    /**
     * {@code plan} (a tournament file's) with {@code args} over it: every tournament-wide flag replaces what
     * the file says, and {@code -each} sets a time control, a margin or options for every engine. The
     * engines, the variant and the catalog are the file's: {@code -engine}, {@code -variant} and
     * {@code -catalog} are refused.
     */
    public static RunPlan over(RunPlan plan, List<String> args) throws ConfigException {
        Flags flags = Flags.read(args);
        for (String fileOnly : List.of("-variant", "-catalog")) {
            if (flags.single().containsKey(fileOnly)) {
                throw new ConfigException(fileOnly + " comes from the tournament file; change it there");
            }
        }
        if (!flags.engines().isEmpty()) {
            throw new ConfigException("-engine: a tournament file's engines come from the file; add them there"
                    + " (-each sets time, timemargin and option.* for all of them)");
        }
        TournamentSpec spec = plan.spec();
        if (!flags.each().isEmpty()) {
            List<Entrant> entrants = new ArrayList<>();
            for (Entrant entrant : spec.entrants()) {
                entrants.add(eachOver(entrant, flags.each()));
            }
            spec = new TournamentSpec(
                    spec.name(),
                    spec.variant(),
                    spec.format(),
                    entrants,
                    spec.seeds(),
                    spec.rounds(),
                    spec.gamesPerPairing(),
                    spec.openings(),
                    spec.randomOrder(),
                    spec.overrunMargin(),
                    spec.adjudication(),
                    spec.concurrency(),
                    spec.seed(),
                    spec.sprt());
        }
        try {
            return withTournamentFlags(
                    flags,
                    new RunPlan(
                            spec,
                            plan.catalog(),
                            plan.output(),
                            plan.restartEveryGame(),
                            plan.ratingInterval(),
                            plan.engineLogs(),
                            plan.leagueTuning()));
        } catch (IllegalArgumentException e) {
            throw new ConfigException(e.getMessage());
        }
    }

    /** {@code entrant} with {@code -each}'s time control, margin and options over its own. */
    private static Entrant eachOver(Entrant entrant, List<String> each) throws ConfigException {
        Map<String, String> settings = new LinkedHashMap<>();
        for (String pair : each) {
            int equals = pair.indexOf('=');
            if (equals <= 0) {
                throw new ConfigException("-each setting '" + pair + "' is not key=value");
            }
            String key = pair.substring(0, equals);
            if (settings.containsKey(key)) {
                throw new ConfigException("-each gives " + key + "= twice; give it once");
            }
            if (key.equals("proto")) {
                throw new ConfigException("-each proto=: with a tournament file, an engine speaks what its entry says"
                        + " (protocol: usi or xboard)");
            } else if (TIME_KEYS.contains(key) || key.equals("timemargin") || key.startsWith("option.")) {
                settings.put(key, pair.substring(equals + 1));
            } else {
                throw new ConfigException("-each " + key + "=: with a tournament file, -each sets only tc=, st=,"
                        + " byoyomi=, nodes=, depth=, timemargin= and option.*");
            }
        }
        boolean timeGiven = settings.keySet().stream().anyMatch(TIME_KEYS::contains);
        Map<String, String> options = new LinkedHashMap<>(entrant.options());
        settings.forEach((key, value) -> {
            if (key.startsWith("option.")) {
                options.put(key.substring(7), value);
            }
        });
        return new Entrant(
                entrant.name(),
                entrant.engineId(),
                options,
                timeGiven ? timeControl(settings) : entrant.timeControl(),
                settings.containsKey("timemargin")
                        ? margin("timemargin", settings.get("timemargin"))
                        : entrant.overrunMargin(),
                entrant.rounds());
    }

    /** {@code plan} with the tournament-wide flags (all but -engine, -each, -variant, -catalog) over it. */
    private static RunPlan withTournamentFlags(Flags flags, RunPlan plan) throws ConfigException {
        Map<String, String> single = flags.single();
        Map<String, List<String>> groups = flags.groups();
        TournamentSpec spec = plan.spec();
        Format format = spec.format();
        if (single.containsKey("-tournament")) {
            format = Format.byId(single.get("-tournament"))
                    .orElseThrow(() -> new ConfigException("unknown -tournament '" + single.get("-tournament")
                            + "'; use round-robin, gauntlet, match, league, swiss or knockout"));
        }
        if (format != Format.LEAGUE && single.getOrDefault("-rounds", "").equals("0")) {
            throw new ConfigException("-rounds is 1 to " + TournamentSpec.MAX_ROUNDS + ", not 0 (0 is a league's:"
                    + " rounds without end); this tournament's format is " + format.id());
        }
        if (format != Format.GAUNTLET && (single.containsKey("-seeds") || spec.seeds() != 1)) {
            throw new ConfigException(
                    (single.containsKey("-seeds") ? "-seeds: " : "the file's seeds (" + spec.seeds() + "): ")
                            + TournamentFile.seedsOfAGauntlet(format));
        }
        List<Opening> openings = spec.openings();
        boolean random = spec.randomOrder();
        if (groups.containsKey("-openings")) {
            Map<String, String> o =
                    pairs("-openings", groups.get("-openings"), Set.of("file", "order", "format", "start", "plies"));
            if (!o.containsKey("file")) {
                throw new ConfigException("-openings needs file=<path>");
            }
            if (o.containsKey("format") && !o.get("format").equals("sfen")) {
                throw new ConfigException("-openings format=" + o.get("format") + ": an opening suite is SFEN lines"
                        + " (format=sfen; docs/tournaments.md)");
            }
            int start = (int) number("-openings start", o.getOrDefault("start", "1"), 1, Integer.MAX_VALUE);
            int plies = o.containsKey("plies")
                    ? (int) number("-openings plies", o.get("plies"), 0, OpeningSuite.MAX_PLIES)
                    : -1; // every move of each line
            try {
                openings = OpeningSuite.read(Path.of(o.get("file")), spec.variant(), start, plies);
            } catch (IllegalArgumentException e) {
                throw new ConfigException("-openings: " + e.getMessage());
            }
            String order = o.getOrDefault("order", "sequential");
            if (!order.equals("random") && !order.equals("sequential")) {
                throw new ConfigException("-openings order is sequential or random, not '" + order + "'");
            }
            random = order.equals("random");
        }
        Adjudication adjudication = spec.adjudication();
        if (single.containsKey("-maxmoves")) {
            adjudication =
                    adjudication.withMoveLimit(2 * (int) number("-maxmoves", single.get("-maxmoves"), 0, 50_000));
        }
        if (groups.containsKey("-resign")) {
            Map<String, String> r = pairs("-resign", groups.get("-resign"), Set.of("movecount", "score", "twosided"));
            if (r.containsKey("twosided") && !r.get("twosided").equals("true")) {
                throw new ConfigException("-resign twosided=" + r.get("twosided") + ": resign adjudication is always"
                        + " two-sided here (the winner's score must agree); twosided=true or leave it out");
            }
            adjudication = adjudication.withResign(
                    (int) number("-resign score", require(r, "score", "-resign"), 1, 1_000_000),
                    (int) number("-resign movecount", require(r, "movecount", "-resign"), 1, 10_000));
        }
        if (groups.containsKey("-draw")) {
            Map<String, String> d = pairs("-draw", groups.get("-draw"), Set.of("movenumber", "movecount", "score"));
            adjudication = adjudication.withDraw(
                    (int) number("-draw score", require(d, "score", "-draw"), 1, 1_000_000),
                    (int) number("-draw movecount", require(d, "movecount", "-draw"), 1, 10_000),
                    2 * (int) number("-draw movenumber", d.getOrDefault("movenumber", "0"), 0, 50_000));
        }
        Sprt sprt = spec.sprt();
        if (groups.containsKey("-sprt")) {
            Map<String, String> s =
                    pairs("-sprt", groups.get("-sprt"), Set.of("elo0", "elo1", "alpha", "beta", "model"));
            if (s.containsKey("model") && !s.get("model").equals("normalized")) {
                throw new ConfigException("-sprt model=" + s.get("model") + ": the SPRT here is in normalized Elo"
                        + " (model=normalized, or leave it out)");
            }
            try {
                sprt = new Sprt(
                        decimal("elo0", require(s, "elo0", "-sprt")),
                        decimal("elo1", require(s, "elo1", "-sprt")),
                        decimal("alpha", s.getOrDefault("alpha", "0.05")),
                        decimal("beta", s.getOrDefault("beta", "0.05")));
            } catch (IllegalArgumentException e) {
                throw new ConfigException("-sprt: " + e.getMessage());
            }
        }
        boolean restartEveryGame = plan.restartEveryGame();
        if (single.containsKey("-restart")) {
            String restart = single.get("-restart");
            if (!List.of("on", "off", "always", "on-failure").contains(restart)) {
                throw new ConfigException("-restart is on or off (engines restart for every game, or only when they"
                        + " fail), not '" + restart + "'");
            }
            restartEveryGame = restart.equals("on") || restart.equals("always");
        }
        TournamentSpec over = new TournamentSpec(
                single.getOrDefault("-event", spec.name()),
                spec.variant(),
                format,
                spec.entrants(),
                single.containsKey("-seeds")
                        ? (int) number(
                                "-seeds",
                                single.get("-seeds"),
                                1,
                                spec.entrants().size() - 1)
                        : spec.seeds(),
                single.containsKey("-rounds")
                        ? (int) number("-rounds", single.get("-rounds"), 0, TournamentSpec.MAX_ROUNDS)
                        : spec.rounds(),
                single.containsKey("-games")
                        ? (int) number("-games", single.get("-games"), 1, TournamentSpec.MAX_GAMES_PER_PAIRING)
                        : spec.gamesPerPairing(),
                openings,
                random,
                single.containsKey("-timemargin")
                        ? margin("-timemargin", single.get("-timemargin"))
                        : spec.overrunMargin(),
                adjudication,
                single.containsKey("-concurrency")
                        ? (int) number("-concurrency", single.get("-concurrency"), 1, RunPlan.MAX_CONCURRENCY)
                        : spec.concurrency(),
                single.containsKey("-srand") ? number("-srand", single.get("-srand")) : spec.seed(),
                sprt);
        if (single.containsKey("-repeat") && over.gamesPerPairing() % 2 == 1) {
            // accepted and ignored otherwise: cutechess pairs consecutive rounds, here a pairing's own games
            throw new ConfigException(
                    "-repeat with " + over.gamesPerPairing() + " game(s) a pairing: here the two games"
                            + " of an opening (colours swapped) are a pairing's, so -games must be even (-games 2)");
        }
        Path output = single.containsKey("-out") ? Path.of(single.get("-out")) : plan.output();
        int ratingInterval = plan.ratingInterval();
        if (single.containsKey("-ratinginterval")) {
            long interval = number("-ratinginterval", single.get("-ratinginterval"));
            if (interval < 0 || interval > Integer.MAX_VALUE) {
                throw new ConfigException(
                        "-ratinginterval is a number of games (0: standings only at the end), not " + interval);
            }
            ratingInterval = (int) interval;
        }
        return new RunPlan(
                over,
                plan.catalog(),
                output,
                restartEveryGame,
                ratingInterval,
                plan.engineLogs() || single.containsKey("-log"),
                plan.leagueTuning());
    }

    private static Entrant entrant(List<String> own, List<String> each, Catalog catalog, List<EngineSpec> inline)
            throws ConfigException {
        Map<String, String> settings = new LinkedHashMap<>();
        List<String> engineArguments = new ArrayList<>(); // repeatable keys keep every value, -each's first
        Map<String, String> flagOf = new HashMap<>(); // which flag gave each key, for the messages
        // an engine's own time control replaces -each's whole, not key by key
        boolean ownTime = own.stream().anyMatch(pair -> TIME_KEYS.contains(pair.split("=", 2)[0]));
        for (List<String> source : List.of(each, own)) {
            String flag = source == each ? "-each" : "-engine";
            Set<String> given = new java.util.HashSet<>();
            for (String pair : source) {
                int equals = pair.indexOf('=');
                if (equals <= 0) {
                    throw new ConfigException(flag + " setting '" + pair + "' is not key=value");
                }
                String key = pair.substring(0, equals);
                if (!REPEATABLE_KEYS.contains(key) && !given.add(key)) {
                    throw new ConfigException(flag + " gives " + key + "= twice; give it once");
                }
                if (source == each && ownTime && TIME_KEYS.contains(key)) {
                    continue;
                }
                if (key.equals("proto")) {
                    protocol(flag, pair.substring(equals + 1));
                }
                flagOf.put(key, flag);
                if (REPEATABLE_KEYS.contains(key)) {
                    engineArguments.add(pair);
                } else {
                    settings.put(key, pair.substring(equals + 1));
                }
            }
        }
        String conf = settings.remove("conf");
        String proto = conf == null ? null : settings.remove("proto");
        String name = settings.get("name");
        String ownMargin = settings.remove("timemargin");
        OverrunMargin margin = ownMargin == null ? null : margin("timemargin", ownMargin);
        TimeControl timeControl = timeControl(settings);
        for (String key : TIME_KEYS) {
            settings.remove(key);
        }
        EngineSpec spec;
        if (conf != null) {
            EngineSpec known = catalog.engine(conf)
                    .orElseThrow(
                            () -> new ConfigException(
                                    "-engine conf=" + conf
                                            + ": no such engine in the catalog (built in: fairy-stockfish, crazywa, sjaakii, taikai-1 to taikai-4)"));
            settings.remove("name");
            if (proto != null && !proto.equals(known.protocol().id())) {
                throw new ConfigException(
                        "-engine conf=" + conf + " speaks " + known.protocol().id() + ", not proto=" + proto);
            }
            if (!engineArguments.isEmpty()) {
                String key = engineArguments.get(0).split("=", 2)[0];
                throw new ConfigException(notForCatalogEngine(flagOf.get(key), conf, engineArguments.get(0)));
            }
            Map<String, String> options = new LinkedHashMap<>(known.options());
            for (Map.Entry<String, String> setting : settings.entrySet()) {
                if (!setting.getKey().startsWith("option.")) {
                    throw new ConfigException(
                            notForCatalogEngine(flagOf.get(setting.getKey()), conf, setting.getKey()));
                }
                options.put(setting.getKey().substring(7), setting.getValue());
            }
            String id = name != null ? name : conf;
            spec = known.withId(id).withOptions(options);
        } else {
            for (Map.Entry<String, String> setting : settings.entrySet()) {
                engineArguments.add(setting.getKey() + "=" + setting.getValue());
            }
            spec = EngineArguments.parse(engineArguments);
        }
        if (inline.stream().anyMatch(s -> s.id().equals(spec.id()))) {
            throw new ConfigException("two engines are named '" + spec.id() + "'; give each a name=");
        }
        inline.add(spec);
        return new Entrant(spec.id(), spec.id(), Map.of(), timeControl, margin);
    }

    /** The refusal of a setting a catalog engine does not take, naming the flag that gave it. */
    private static String notForCatalogEngine(String flag, String conf, String setting) {
        return ("-each".equals(flag) ? "-each: " : "") + "-engine conf=" + conf
                + " takes only name, option.* and time settings, not '" + setting + "'";
    }

    /** {@code proto=}: {@code usi} or {@code xboard}. */
    private static void protocol(String flag, String value) throws ConfigException {
        if (dev.taikai.enginehost.catalog.Protocol.byId(value).isEmpty()) {
            throw new ConfigException(
                    flag + " proto=" + value + ": engines speak usi or xboard (proto=usi, proto=xboard)");
        }
    }

    /** A margin in milliseconds (timemargin=, -timemargin): 0 to 60000. */
    private static OverrunMargin margin(String key, String text) throws ConfigException {
        try {
            return OverrunMargin.of(number(key, text));
        } catch (IllegalArgumentException e) {
            throw new ConfigException(key + ": " + e.getMessage());
        }
    }

    /** tc=MAIN[+INC], byoyomi=S, st=S, nodes=N, depth=N (or plies=N), in seconds where they are times. */
    private static TimeControl timeControl(Map<String, String> settings) throws ConfigException {
        List<String> given = new ArrayList<>();
        for (String kind : List.of("nodes", "depth", "plies", "st", "tc")) {
            if (settings.containsKey(kind)) {
                given.add(kind + "=" + settings.get(kind));
            }
        }
        if (settings.containsKey("byoyomi") && !settings.containsKey("tc")) {
            given.add("byoyomi=" + settings.get("byoyomi"));
        }
        if (given.size() > 1) {
            throw new ConfigException(String.join(" and ", given) + " are " + (given.size() == 2 ? "two" : given.size())
                    + " time controls; give one (tc= may take byoyomi=)");
        }
        try {
            if (settings.containsKey("nodes")) {
                return TimeControl.parse("nodes " + settings.get("nodes"));
            }
            if (settings.containsKey("depth") || settings.containsKey("plies")) {
                return TimeControl.parse("depth " + settings.getOrDefault("depth", settings.get("plies")));
            }
            if (settings.containsKey("st")) {
                return TimeControl.parse("movetime " + settings.get("st"));
            }
            String tc = settings.get("tc");
            if (tc != null && tc.contains("/")) {
                throw new ConfigException(
                        "tc=" + tc + ": moves/time controls are not supported; use MAIN[+INC] or byoyomi=");
            }
            if (settings.containsKey("byoyomi")) {
                return TimeControl.parse((tc == null ? "" : tc + " ") + "byoyomi " + settings.get("byoyomi"));
            }
            return TimeControl.parse(tc == null ? RunPlan.DEFAULT_TIME_CONTROL : tc);
        } catch (IllegalArgumentException e) {
            throw new ConfigException(e.getMessage());
        }
    }

    private static Map<String, String> pairs(String flag, List<String> values, Set<String> keys)
            throws ConfigException {
        Map<String, String> pairs = new LinkedHashMap<>();
        for (String value : values) {
            int equals = value.indexOf('=');
            String key = equals > 0 ? value.substring(0, equals) : value;
            if (equals <= 0 || !keys.contains(key)) {
                throw new ConfigException(flag + ": '" + value + "' is not one of " + String.join("=, ", keys) + "=");
            }
            if (pairs.put(key, value.substring(equals + 1)) != null) {
                throw new ConfigException(flag + ": " + key + "= is given twice; give it once");
            }
        }
        return pairs;
    }

    private static String require(Map<String, String> pairs, String key, String flag) throws ConfigException {
        String value = pairs.get(key);
        if (value == null) {
            throw new ConfigException(flag + " needs " + key + "=");
        }
        return value;
    }

    private static long number(String what, String text) throws ConfigException {
        try {
            return Long.parseLong(text);
        } catch (NumberFormatException e) {
            throw new ConfigException(what + " needs a whole number, not '" + text + "'");
        }
    }

    /** A whole number from {@code lo} to {@code hi}, as the tournament file's key allows. */
    private static long number(String what, String text, long lo, long hi) throws ConfigException {
        long n = number(what, text);
        if (n < lo || n > hi) {
            throw new ConfigException(what + " is " + lo + " to " + hi + ", not " + text);
        }
        return n;
    }

    private static double decimal(String what, String text) throws ConfigException {
        try {
            return Double.parseDouble(text);
        } catch (NumberFormatException e) {
            throw new ConfigException(what + " needs a number, not '" + text + "'");
        }
    }

    private static boolean isFlag(String arg) {
        return arg.startsWith("-") && arg.length() > 1 && !Character.isDigit(arg.charAt(1));
    }
}
