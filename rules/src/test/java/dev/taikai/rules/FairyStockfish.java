package dev.taikai.rules;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Assumptions;

/**
 * Debian's {@code fairy-stockfish} as a second opinion in tests: {@code go perft N} per position. Test
 * code only; the engine driver proper lives in engine-worker. When the binary is missing the test is
 * skipped with a message, unless the build runs with {@code -DrequireFairyStockfish=true} (as the test command does,
 * which installs it) makes that a failure.
 */
final class FairyStockfish implements AutoCloseable {
    private final Process process;
    private final Writer in;
    private final BufferedReader out;

    private FairyStockfish(Process process) {
        this.process = process;
        this.in = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.US_ASCII);
        this.out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.US_ASCII));
    }

    static Optional<String> binary() {
        for (String dir : (System.getenv().getOrDefault("PATH", "") + File.pathSeparator + "/usr/games")
                .split(File.pathSeparator)) {
            File candidate = new File(dir, "fairy-stockfish");
            if (candidate.canExecute()) {
                return Optional.of(candidate.getPath());
            }
        }
        return Optional.empty();
    }

    /** Starts the engine for {@code variant}, or skips (or fails) the calling test when it is not installed. */
    static FairyStockfish start(Variant variant) throws IOException {
        Optional<String> binary = binary();
        if (binary.isEmpty()) {
            String message = "fairy-stockfish is not installed (apt-get install fairy-stockfish)";
            if (Boolean.getBoolean("taikai.requireFairyStockfish")) {
                fail(message);
            }
            Assumptions.abort(message);
        }
        FairyStockfish engine = new FairyStockfish(new ProcessBuilder(binary.get())
                .redirectError(ProcessBuilder.Redirect.DISCARD)
                .start());
        engine.send("usi");
        engine.readUntil("usiok");
        engine.send("setoption name UCI_Variant value " + variant.name());
        engine.send("isready");
        engine.readUntil("readyok");
        return engine;
    }

    /** {@code go perft depth} from an SFEN in Fairy-Stockfish notation: count per root move. */
    Map<String, Long> divide(String sfen, int depth) throws IOException {
        send("position sfen " + sfen);
        send("go perft " + depth);
        Map<String, Long> counts = new LinkedHashMap<>();
        for (String line = out.readLine(); line != null; line = out.readLine()) {
            if (line.startsWith("Nodes searched")) {
                return counts;
            }
            int colon = line.indexOf(": ");
            if (colon > 0) {
                counts.put(
                        line.substring(0, colon),
                        Long.parseLong(line.substring(colon + 2).trim()));
            }
        }
        throw new IOException("fairy-stockfish closed its output during perft");
    }

    private void send(String command) throws IOException {
        in.write(command + "\n");
        in.flush();
    }

    private void readUntil(String expected) throws IOException {
        for (String line = out.readLine(); line != null; line = out.readLine()) {
            if (line.trim().equals(expected)) {
                return;
            }
        }
        throw new IOException("fairy-stockfish closed its output before '" + expected + "'");
    }

    @Override
    public void close() throws IOException {
        try {
            send("quit");
        } catch (IOException ignored) {
            // already gone
        }
        process.destroy();
    }
}
