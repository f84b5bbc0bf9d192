package dev.taikai.cli.run;

import dev.taikai.enginehost.catalog.BuiltinCatalog;
import dev.taikai.enginehost.catalog.Catalog;
import dev.taikai.enginehost.catalog.EngineSpec;
import dev.taikai.enginehost.catalog.Quirk;
import dev.taikai.referee.game.Adjudication;
import dev.taikai.referee.game.Opening;
import dev.taikai.tournament.Entrant;
import dev.taikai.tournament.TournamentSpec;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * What a run's games mean, as {@code key: value} lines a user can read: the tournament, its engines (by
 * name: a built-in engine as {@code built-in taikai-4}, others by their command line as written, working
 * directory and environment, options, time control and margin), openings, seed, adjudication and SPRT. Two runs with the same settings may
 * share a records folder (resume). Concurrency and the folder are left out, and so is anything of this
 * installation (the JVM's or the jar's path), so that a moved checkout or a new JDK resumes its runs.
 */
final class RunSettings {
    private final Map<String, String> lines;

    private RunSettings(Map<String, String> lines) {
        this.lines = lines;
    }

    static RunSettings of(RunPlan plan) {
        TournamentSpec s = plan.spec();
        Catalog builtIn = BuiltinCatalog.get();
        Map<String, String> lines = new LinkedHashMap<>();
        lines.put("tournament", s.name());
        lines.put("variant", s.variant().name());
        lines.put("format", s.format().id());
        lines.put("seeds", String.valueOf(s.seeds()));
        lines.put("rounds", String.valueOf(s.rounds()));
        lines.put("games per pairing", String.valueOf(s.gamesPerPairing()));
        for (Entrant entrant : s.entrants()) {
            EngineSpec engine = plan.engineOf(entrant);
            String key = "engine " + entrant.name();
            lines.put(key, program(engine, builtIn));
            // the same command in another folder or environment may be another program (./engine of two builds)
            if (engine.workingDirectory() != null) {
                lines.put(key + " directory", engine.workingDirectory().toString());
            }
            if (!engine.environment().isEmpty()) {
                lines.put(key + " environment", options(engine.environment()));
            }
            lines.put(key + " options", options(engine.options()));
            lines.put(key + " time control", entrant.timeControl().toString());
            lines.put(key + " overrun margin", entrant.marginMillis(s.overrunMargin()) + " ms");
            if (!entrant.rounds().equals(Entrant.Rounds.ALL)) {
                lines.put(
                        key + " rounds",
                        entrant.rounds().from() + " to " + entrant.rounds().until());
            }
            lines.put(
                    key + " protocol",
                    "notation " + engine.notation().id() + ", variant option " + engine.variantOption()
                            + ", quirks "
                            + (engine.quirks().isEmpty()
                                    ? "none"
                                    : engine.quirks().stream()
                                            .map(Quirk::id)
                                            .sorted()
                                            .collect(Collectors.joining(" "))));
        }
        lines.put("openings", s.openings().size() + ", " + (s.randomOrder() ? "random" : "sequential") + " order");
        List<Opening> openings = s.openings();
        for (int i = 0; i < openings.size(); i++) {
            lines.put("opening " + (i + 1), openings.get(i).toString());
        }
        if (s.format() == dev.taikai.tournament.Format.LEAGUE) {
            var league = plan.leagueSettings();
            lines.put(
                    "league",
                    "rematch penalty " + league.rematchPenalty() + ", rematch memory " + league.rematchMemory()
                            + " rounds, half-life " + league.halfLifeRounds() + " rounds");
        }
        lines.put("seed", String.valueOf(s.seed()));
        lines.put("adjudication", adjudication(s.adjudication()));
        lines.put(
                "sprt",
                s.sprt() == null
                        ? "off"
                        : "elo0 " + s.sprt().elo0() + ", elo1 " + s.sprt().elo1() + ", alpha "
                                + s.sprt().alpha() + ", beta " + s.sprt().beta());
        return new RunSettings(lines);
    }

    /** The settings a folder's {@code tournament.txt} holds; empty when it is not in this form. */
    static Optional<RunSettings> parse(String text) {
        Map<String, String> lines = new LinkedHashMap<>();
        for (String line : text.split("\n")) {
            if (line.isEmpty()) {
                continue;
            }
            int colon = line.indexOf(": ");
            if (colon <= 0) {
                return Optional.empty();
            }
            lines.put(line.substring(0, colon), line.substring(colon + 2));
        }
        return lines.containsKey("tournament") ? Optional.of(new RunSettings(lines)) : Optional.empty();
    }

    String text() {
        StringBuilder out = new StringBuilder();
        lines.forEach((key, value) -> out.append(key).append(": ").append(value).append('\n'));
        return out.toString();
    }

    /**
     * What differs from {@code earlier}, one line each ({@code rounds: 2, now 5}), at most {@code most}
     * lines and then how many more.
     */
    List<String> differencesFrom(RunSettings earlier, int most) {
        List<String> all = new ArrayList<>();
        // an engine taken out or put in is one line, not one per setting ("options: none, now none")
        java.util.Set<String> before = engines(earlier.lines);
        java.util.Set<String> after = engines(lines);
        java.util.Set<String> gone = new java.util.LinkedHashSet<>(before);
        gone.removeAll(after);
        java.util.Set<String> come = new java.util.LinkedHashSet<>(after);
        come.removeAll(before);
        gone.forEach(name -> all.add("engine " + name + " (" + earlier.lines.get("engine " + name) + "): not now"));
        come.forEach(name -> all.add("engine " + name + " (" + lines.get("engine " + name) + "): new"));
        for (Map.Entry<String, String> line : earlier.lines.entrySet()) {
            String now = lines.get(line.getKey());
            if (ofAny(line.getKey(), gone) || ofAny(line.getKey(), come)) {
                continue;
            }
            if (now == null) {
                all.add(line.getKey() + ": " + line.getValue() + ", now none");
            } else if (!now.equals(line.getValue())) {
                all.add(line.getKey() + ": " + line.getValue() + ", now " + now);
            }
        }
        for (Map.Entry<String, String> line : lines.entrySet()) {
            if (!earlier.lines.containsKey(line.getKey()) && !ofAny(line.getKey(), come)) {
                all.add(line.getKey() + ": none, now " + line.getValue());
            }
        }
        if (all.isEmpty() && !text().equals(earlier.text())) {
            all.add("the same settings in another order: the engines' order decides the pairings and colours");
        }
        if (all.size() <= most) {
            return all;
        }
        List<String> shown = new ArrayList<>(all.subList(0, most));
        shown.add("and " + (all.size() - most) + " more");
        return shown;
    }

    /** The engines' names: every engine has an {@code engine NAME options} line. */
    private static java.util.Set<String> engines(Map<String, String> lines) {
        java.util.Set<String> names = new java.util.LinkedHashSet<>();
        for (String key : lines.keySet()) {
            if (key.startsWith("engine ") && key.endsWith(" options")) {
                names.add(key.substring("engine ".length(), key.length() - " options".length()));
            }
        }
        return names;
    }

    /** What follows {@code engine NAME } in the lines of an engine's settings ({@link #of}). */
    private static final List<String> ENGINE_LINES =
            List.of("directory", "environment", "options", "time control", "overrun margin", "rounds", "protocol");

    /** Whether {@code key} is a line of one of the engines {@code names}. */
    private static boolean ofAny(String key, java.util.Set<String> names) {
        for (String name : names) {
            String engine = "engine " + name;
            if (key.equals(engine)
                    || (key.startsWith(engine + " ") && ENGINE_LINES.contains(key.substring(engine.length() + 1)))) {
                return true;
            }
        }
        return false;
    }

    /**
     * {@code built-in ID} for the engines every run knows (by their command, read the same way: protocol,
     * notation and quirks), else the command line as written: {@code cmd=fairy-stockfish} without the
     * built-in entry's quirks is another engine to the referee, and was labelled the built-in one.
     */
    private static String program(EngineSpec engine, Catalog builtIns) {
        Optional<String> builtIn = builtIns.engines().stream()
                .filter(known -> known.command().equals(engine.command())
                        && known.protocol() == engine.protocol()
                        && known.notation() == engine.notation()
                        && known.quirks().equals(engine.quirks()))
                .map(EngineSpec::id)
                .findFirst();
        if (builtIn.isPresent()) {
            return "built-in " + builtIn.get();
        }
        return engine.command().stream().map(RunSettings::quoted).collect(Collectors.joining(" "));
    }

    private static String quoted(String word) {
        return word.isEmpty() || word.chars().anyMatch(c -> c == ' ' || c == '\'' || c == '"')
                ? "'" + word.replace("'", "'\\''") + "'"
                : word;
    }

    private static String options(Map<String, String> options) {
        if (options.isEmpty()) {
            return "none";
        }
        return new TreeMap<>(options)
                .entrySet().stream().map(o -> o.getKey() + "=" + o.getValue()).collect(Collectors.joining(", "));
    }

    private static String adjudication(Adjudication a) {
        List<String> parts = new ArrayList<>();
        parts.add(a.moveLimitPlies() > 0 ? "draw at " + a.moveLimitPlies() + " plies" : "no move limit");
        if (a.resignScore() > 0) {
            parts.add("resign at " + a.resignScore() + " cp for " + a.resignMoves() + " moves");
        }
        if (a.drawScore() > 0) {
            parts.add("draw within " + a.drawScore() + " cp for " + a.drawMoves() + " moves from ply "
                    + a.drawAfterPlies());
        }
        return String.join(", ", parts);
    }
}
