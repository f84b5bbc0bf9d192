package dev.taikai.cli.run;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.taikai.rules.Game;
import dev.taikai.rules.Notation;
import dev.taikai.rules.Sfen;
import dev.taikai.rules.Variant;
import dev.taikai.testkit.FakeEngines;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** Writing tournament files with fake engines, running them in-process, and reading what they recorded. */
public final class Tournaments {
    private Tournaments() {}

    /** A YAML engine entry for the fake engine with {@code switches}. */
    public static String fakeEntry(String id, String... switches) {
        List<String> command = FakeEngines.command(switches);
        StringBuilder yaml = new StringBuilder("  - id: ").append(id).append('\n');
        yaml.append("    command: '").append(command.get(0)).append("'\n    args:\n");
        for (String arg : command.subList(1, command.size())) {
            yaml.append("      - '").append(arg.replace("'", "''")).append("'\n");
        }
        return yaml.toString();
    }

    /** The output of one in-process run. */
    record Run(LocalRunner.Ending ending, String out, String progress) {}

    static Run run(RunPlan plan, dev.taikai.enginehost.session.Timeouts timeouts) throws Exception {
        return run(plan, timeouts, false);
    }

    /** With {@code strict}, as {@code taikai run --strict}. */
    static Run run(RunPlan plan, dev.taikai.enginehost.session.Timeouts timeouts, boolean strict) throws Exception {
        StringWriter out = new StringWriter();
        StringWriter progress = new StringWriter();
        LocalRunner.Ending ending = new LocalRunner(plan, new PrintWriter(out), new PrintWriter(progress), timeouts)
                .strict(strict)
                .run();
        return new Run(ending, out.toString(), progress.toString());
    }

    public static JsonNode results(Path output) throws IOException {
        return new ObjectMapper().readTree(output.resolve("results.json").toFile());
    }

    static List<String> journal(Path output) throws IOException {
        return Files.readAllLines(output.resolve("games.jsonl"));
    }

    /** Replays a recorded game move by move through the rules, as `taikai positions` would. */
    public static Game replay(JsonNode game) throws Exception {
        Variant variant = Variant.byName(game.get("variant").asText()).orElseThrow();
        Game replay = new Game(Sfen.parse(variant, game.get("start_sfen").asText()));
        for (JsonNode move : game.get("moves")) {
            replay.play(move.asText(), Notation.FAIRY_STOCKFISH);
        }
        return replay;
    }

    /**
     * Plays an SPRT match of two quick fakes, one of which resigns every game, into {@code dir/out} (it
     * concludes after a few pairs); the records folder.
     */
    public static Path playSprtMatch(Path dir) throws Exception {
        Files.writeString(
                dir.resolve("sprt.yaml"),
                "name: sprt\nvariant: minishogi\nformat: match\nrounds: 100\ngames: 2\n"
                        + "time-control: nodes 1\nconcurrency: 1\noutput: out\n"
                        + "sprt: {elo0: 0, elo1: 10, alpha: 0.05, beta: 0.05}\nengines:\n"
                        + fakeEntry("candidate", "--think-ms", "0")
                        + fakeEntry("baseline", "--think-ms", "0", "--resign"));
        RunPlan plan = TournamentFile.read(dir.resolve("sprt.yaml"));
        Run run = run(plan, dev.taikai.enginehost.session.Timeouts.DEFAULT);
        if (run.ending() != LocalRunner.Ending.SPRT_CONCLUDED) {
            throw new AssertionError("the SPRT match did not conclude: " + run.progress());
        }
        return plan.output();
    }

    /** The name of {@link #playDrawnMatch}'s tournament: in an inline script it began a comment that never ended. */
    public static final String DRAWN_MATCH_NAME = "drawn <!--<script>";

    /** Plays four games that all end drawn by a move limit of 3 into {@code dir/drawn}; the folder. */
    public static Path playDrawnMatch(Path dir) throws Exception {
        return playAlphaAndBeta(
                dir,
                "drawn",
                "drawn",
                "variant: minishogi\nrounds: 2\nadjudication: {move-limit: 3}\n" + "name: \"" + DRAWN_MATCH_NAME
                        + "\"\n");
    }

    /** Plays two Kyoto shogi games of random moves (at most 40 plies each) into {@code dir/games}; the folder. */
    public static Path playRandomGames(Path dir) throws Exception {
        return playAlphaAndBeta(
                dir,
                "random",
                "games",
                "variant: kyotoshogi\nrounds: 1\nadjudication: {move-limit: 40}\nname: random\n");
    }

    /**
     * Plays a tournament of {@code format} (knockout, or swiss of 2 rounds) of three seeded random fakes and one
     * that resigns, 2 games a pairing of at most 12 plies, into {@code dir/<format>}; the folder.
     */
    public static Path playFormat(Path dir, String format) throws Exception {
        Path yaml = dir.resolve(format + ".yaml");
        Files.writeString(
                yaml,
                "name: " + format + "\nvariant: minishogi\nformat: " + format
                        + (format.equals("swiss") ? "\nrounds: 2" : "") + "\ngames: 2\n"
                        + "time-control: nodes 1\nadjudication: {move-limit: 12}\noutput: " + format + "\nengines:\n"
                        + fakeEntry("alpha", "--seed", "11")
                        + fakeEntry("beta", "--seed", "12")
                        + fakeEntry("gamma", "--seed", "13")
                        + fakeEntry("quitter", "--resign"));
        RunPlan plan = TournamentFile.read(yaml);
        run(plan, dev.taikai.enginehost.session.Timeouts.DEFAULT);
        return plan.output();
    }

    /**
     * A match in {@code file}.yaml of two seeded random fakes, 2 games a round, with {@code settings} (its
     * name among them), into {@code dir/output}.
     */
    private static Path playAlphaAndBeta(Path dir, String file, String output, String settings) throws Exception {
        Path yaml = dir.resolve(file + ".yaml");
        Files.writeString(
                yaml,
                "format: match\ngames: 2\ntime-control: nodes 1\nconcurrency: 1\noutput: "
                        + output + "\n" + settings + "engines:\n"
                        + fakeEntry("alpha", "--think-ms", "0", "--seed", "11")
                        + fakeEntry("beta", "--think-ms", "0", "--seed", "12"));
        RunPlan plan = TournamentFile.read(yaml);
        run(plan, dev.taikai.enginehost.session.Timeouts.DEFAULT);
        return plan.output();
    }

    /** The report.html of {@code played}'s results as {@code edit} changes them, in {@code dir}; the page's path. */
    public static Path reportEdited(
            Path played, java.util.function.Consumer<com.fasterxml.jackson.databind.node.ObjectNode> edit, Path dir)
            throws Exception {
        com.fasterxml.jackson.databind.node.ObjectNode results =
                (com.fasterxml.jackson.databind.node.ObjectNode) results(played);
        edit.accept(results);
        Path report = Files.createDirectories(dir).resolve("report.html");
        Files.writeString(
                report, ReportPage.render(new ObjectMapper().writeValueAsString(results), null, null, List.of(), true));
        return report;
    }

    /**
     * The report.html of a long run, made from {@code played}'s results: its games repeated (under new ids)
     * to {@code games} games, rendered as a run writes its page; the page's path.
     */
    public static Path reportOfLongRun(Path played, int games, Path dir) throws Exception {
        ObjectMapper mapper = new ObjectMapper();
        com.fasterxml.jackson.databind.node.ObjectNode results =
                (com.fasterxml.jackson.databind.node.ObjectNode) results(played);
        JsonNode template = results.get("games");
        com.fasterxml.jackson.databind.node.ArrayNode many = mapper.createArrayNode();
        for (int i = 0; i < games; i++) {
            com.fasterxml.jackson.databind.node.ObjectNode game = (com.fasterxml.jackson.databind.node.ObjectNode)
                    template.get(i % template.size()).deepCopy();
            game.put("id", "long-" + (i + 1));
            many.add(game);
        }
        results.set("games", many);
        Path report = Files.createDirectories(dir).resolve("report.html");
        Files.writeString(report, ReportPage.render(mapper.writeValueAsString(results), null, null, List.of(), true));
        return report;
    }
}
