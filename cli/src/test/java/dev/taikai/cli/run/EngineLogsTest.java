package dev.taikai.cli.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.taikai.enginehost.session.Timeouts;
import dev.taikai.testkit.FakeEngines;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Engine logs: with -log every line to and from both engines of a game, with its pipe time, in a
 * compressed file a game; without it, a game in which an engine failed still keeps that engine's
 * standard error.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class EngineLogsTest {
    private static final Pattern LINE =
            Pattern.compile("(\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{6}Z) (alpha|beta) ([<>!]) (.*)");

    @Test
    void everyLineOfBothEnginesIsInItsGamesLogInPipeOrder(@TempDir Path dir) throws Exception {
        Path out = dir.resolve("out");
        RunPlan plan = CutechessArguments.parse(concat(
                List.of(
                        "-variant",
                        "minishogi",
                        "-engine",
                        "name=alpha",
                        "cmd=" + FakeEngines.command().get(0)),
                FakeEngines.command().subList(1, FakeEngines.command().size()).stream()
                        .map(arg -> "arg=" + arg)
                        .toList(),
                List.of("-engine", "name=beta", "cmd=" + FakeEngines.command().get(0)),
                FakeEngines.command().subList(1, FakeEngines.command().size()).stream()
                        .map(arg -> "arg=" + arg)
                        .toList(),
                List.of("-each", "st=0.05", "-maxmoves", "6", "-concurrency", "1", "-log", "-out", out.toString())));
        Tournaments.Run run = Tournaments.run(plan, Timeouts.DEFAULT);
        assertEquals(LocalRunner.Ending.FINISHED, run.ending(), run.progress());
        for (String game : List.of("r1-p1-g1", "r1-p1-g2")) {
            List<String> lines = gunzipped(out.resolve("logs").resolve(game + ".log.gz"));
            String previous = "";
            int gos = 0;
            int bestmoves = 0;
            for (String line : lines) {
                Matcher m = LINE.matcher(line);
                assertTrue(m.matches(), "a log line: " + line);
                assertTrue(m.group(1).compareTo(previous) >= 0, "in pipe order: " + line);
                previous = m.group(1);
                gos += m.group(3).equals(">") && m.group(4).startsWith("go ") ? 1 : 0;
                bestmoves += m.group(3).equals("<") && m.group(4).startsWith("bestmove ") ? 1 : 0;
            }
            int plies = Tournaments.results(out)
                    .get("games")
                    .get(game.endsWith("1") ? 0 : 1)
                    .get("plies")
                    .asInt();
            assertEquals(plies, gos, "a go a move: " + lines);
            assertEquals(plies, bestmoves, "a bestmove a move: " + lines);
            assertTrue(lines.stream().anyMatch(l -> l.contains(" alpha > position ")), lines.toString());
            assertTrue(lines.stream().anyMatch(l -> l.contains(" beta < bestmove ")), lines.toString());
            if (game.endsWith("1")) {
                assertTrue(lines.stream().anyMatch(l -> l.endsWith(" alpha > usi")), "the start: " + lines);
                assertTrue(lines.stream().anyMatch(l -> l.endsWith(" beta < usiok")), "the start: " + lines);
            }
        }
    }

    @Test
    void aFailedEnginesStandardErrorIsKeptWithoutLog(@TempDir Path dir) throws Exception {
        Path out = dir.resolve("out");
        List<String> crasher = FakeEngines.command("--stderr", "crasher: out of memory at move 0", "--crash-on-go");
        List<String> flags = new ArrayList<>(List.of("-variant", "minishogi", "-engine", "name=alpha"));
        flags.add("cmd=" + crasher.get(0));
        crasher.subList(1, crasher.size()).forEach(arg -> flags.add("arg=" + arg));
        flags.addAll(List.of(
                "-engine",
                "conf=taikai-1",
                "name=beta",
                "-each",
                "depth=1",
                "-games",
                "1",
                "-concurrency",
                "1",
                "-out",
                out.toString()));
        RunPlan plan = CutechessArguments.parse(flags);
        Tournaments.Run run = Tournaments.run(plan, Timeouts.DEFAULT);
        List<String> lines = gunzipped(out.resolve("logs").resolve("r1-p1-g1.log.gz"));
        assertTrue(
                lines.stream().anyMatch(l -> l.endsWith(" alpha ! stderr: crasher: out of memory at move 0")),
                lines + "\n" + run.progress());
        assertFalse(lines.stream().anyMatch(l -> l.contains(" > ")), "no pipe lines without -log: " + lines);
    }

    private static List<String> gunzipped(Path file) throws IOException {
        try (var in = new GZIPInputStream(Files.newInputStream(file))) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().toList();
        }
    }

    @SafeVarargs
    private static List<String> concat(List<String>... parts) {
        List<String> all = new ArrayList<>();
        Stream.of(parts).forEach(all::addAll);
        return all;
    }
}
