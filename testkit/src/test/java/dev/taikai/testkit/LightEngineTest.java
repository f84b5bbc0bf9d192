package dev.taikai.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.taikai.rules.Perft;
import dev.taikai.rules.Position;
import dev.taikai.rules.Usi;
import dev.taikai.rules.Variant;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class LightEngineTest {
    @Test
    void itsMoveGeneratorCountsAsTheRulesCoreFromTheStart() throws Exception {
        for (int depth = 1; depth <= 5; depth++) {
            assertEquals(
                    Perft.count(Position.start(Variant.MINISHOGI), depth),
                    perft(depth, null),
                    "perft " + depth + " from the start");
        }
    }

    /** Positions along seeded random games: drops, promotions, checks and pawn-drop mates come up. */
    @Test
    void itsMoveGeneratorCountsAsTheRulesCoreAlongRandomGames() throws Exception {
        Random random = new Random(51);
        int compared = 0;
        for (int game = 0; game < 12; game++) {
            Position position = Position.start(Variant.MINISHOGI);
            for (int ply = 0; ply < 40 && position.legalMoves().length > 0; ply++) {
                if (ply % 6 == 5) {
                    assertEquals(Perft.count(position, 3), perft(3, position.toSfen()), position.toSfen());
                    compared++;
                }
                int[] moves = position.legalMoves();
                position = position.play(moves[random.nextInt(moves.length)]);
            }
        }
        assertTrue(compared > 40, "only " + compared + " positions compared");
    }

    @Test
    void itPlaysLegalMovesThroughAWholeGameAfterItsThinkingTime() throws Exception {
        Process engine = new ProcessBuilder(LightEngine.command("--think-ms", "20-40", "--seed", "7")).start();
        try (var usi = new Conversation(engine)) {
            usi.send("usi");
            assertTrue(
                    usi.until("usiok").contains("option name UCI_Variant type combo default minishogi var minishogi"));
            usi.send("isready");
            usi.until("readyok");
            Position position = Position.start(Variant.MINISHOGI);
            List<String> moves = new ArrayList<>();
            for (int ply = 0; ply < 60 && position.legalMoves().length > 0; ply++) {
                usi.send("position startpos moves " + String.join(" ", moves));
                long sent = System.nanoTime();
                usi.send("go btime 10000 wtime 10000 byoyomi 1000");
                String best = usi.until("bestmove").get(usi.lines().size() - 1).substring("bestmove ".length());
                long tookMillis = (System.nanoTime() - sent) / 1_000_000;
                assertTrue(tookMillis >= 20, "answered after " + tookMillis + " ms, under its 20 ms");
                position = position.play(Usi.parse(position, best)); // throws on an illegal move
                moves.add(best);
            }
            usi.send("quit");
            assertTrue(engine.waitFor(10, TimeUnit.SECONDS));
        } finally {
            engine.destroyForcibly();
        }
    }

    @Test
    void itAnswersIsreadyAndStopDuringAnInfiniteSearch() throws Exception {
        Process engine = new ProcessBuilder(LightEngine.command()).start();
        try (var usi = new Conversation(engine)) {
            usi.send("usi");
            usi.until("usiok");
            usi.send("position startpos");
            usi.send("go infinite");
            usi.send("isready");
            usi.until("readyok");
            usi.send("stop");
            String best = usi.until("bestmove").get(usi.lines().size() - 1);
            Conversation.parseOrFail(best.substring("bestmove ".length()));
        } finally {
            engine.destroyForcibly();
        }
    }

    private static long perft(int depth, String sfen) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(LightEngine.command("--perft", String.valueOf(depth)));
        if (sfen != null) {
            command.add(sfen);
        }
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        assertTrue(process.waitFor(60, TimeUnit.SECONDS));
        assertTrue(out.startsWith("nodes "), out);
        return Long.parseLong(out.substring("nodes ".length()));
    }

    /** A USI conversation over the engine's pipes; every line read is kept. */
    private static final class Conversation implements AutoCloseable {
        private final Writer in;
        private final BufferedReader out;
        private final List<String> lines = new ArrayList<>();

        Conversation(Process engine) {
            in = new java.io.OutputStreamWriter(engine.getOutputStream(), StandardCharsets.UTF_8);
            out = new BufferedReader(new InputStreamReader(engine.getInputStream(), StandardCharsets.UTF_8));
        }

        void send(String line) throws IOException {
            in.write(line + "\n");
            in.flush();
        }

        /** Reads up to the first line that starts with {@code word}; the lines read so far. */
        List<String> until(String word) throws IOException {
            for (String line = out.readLine(); line != null; line = out.readLine()) {
                lines.add(line);
                if (line.startsWith(word)) {
                    return lines;
                }
            }
            throw new IOException("the engine's output ended before '" + word + "': " + lines);
        }

        List<String> lines() {
            return lines;
        }

        static void parseOrFail(String move) throws Exception {
            dev.taikai.rules.Usi.parse(Position.start(Variant.MINISHOGI), move);
        }

        @Override
        public void close() throws IOException {
            in.close();
        }
    }
}
