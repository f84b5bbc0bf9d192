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
}
