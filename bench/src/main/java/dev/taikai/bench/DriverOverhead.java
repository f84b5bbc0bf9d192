package dev.taikai.bench;

import dev.taikai.enginehost.catalog.Catalog;
import dev.taikai.enginehost.catalog.EngineSpec;
import dev.taikai.enginehost.session.BestMove;
import dev.taikai.enginehost.session.MoveReply;
import dev.taikai.enginehost.session.PositionCommand;
import dev.taikai.enginehost.session.SearchLimits;
import dev.taikai.enginehost.session.StartResult;
import dev.taikai.enginehost.session.Timeouts;
import dev.taikai.enginehost.usi.UsiEngine;
import dev.taikai.rules.Position;
import dev.taikai.rules.Variant;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

/**
 * The JVM side of bench/driver.sh. Two engine processes of the same program: one driven through
 * Taikai's {@link UsiEngine}, one through a minimal same-thread pipe loop in this JVM (the Java
 * baseline). Moves alternate between them, so both see the same machine. Prints per move:
 * "taikaiRequestNanos taikaiPipeNanos javaBaselineNanos".
 *
 * <p>Usage: DriverOverhead ENGINE-ID-OR-COMMAND VARIANT MOVES WARMUP
 */
public final class DriverOverhead {
    private DriverOverhead() {}

    public static void main(String[] args) throws Exception {
        EngineSpec spec = Catalog.builtIn().resolve(args[0]);
        Variant variant = Variant.byName(args[1]).orElseThrow();
        int moves = Integer.parseInt(args[2]);
        int warmup = Integer.parseInt(args[3]);
        new DriverOverhead().run(spec, variant, moves, warmup);
    }

    private void run(EngineSpec spec, Variant variant, int moves, int warmup) throws IOException {
        StartResult started = UsiEngine.start(spec, variant, Timeouts.DEFAULT);
        if (!(started instanceof UsiEngine engine)) {
            throw new IllegalStateException("engine did not start: " + started);
        }
        Process raw = new ProcessBuilder(spec.command()).start();
        OutputStream rawIn = raw.getOutputStream();
        PipeLines rawOut = new PipeLines(raw.getInputStream());
        rawIn.write(("usi\nsetoption name UCI_Variant value " + variant.name() + "\nisready\n")
                .getBytes(StandardCharsets.US_ASCII));
        rawIn.flush();
        rawOut.readUntil("readyok");

        String sfen = Position.start(variant).toSfen();
        PositionCommand position = PositionCommand.of(sfen);
        SearchLimits limits = SearchLimits.nodes(1);
        byte[] rawCommand = ("position sfen " + sfen + "\ngo nodes 1\n").getBytes(StandardCharsets.US_ASCII);
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < warmup + moves; i++) {
            long requested = System.nanoTime();
            MoveReply reply = engine.go(position, limits);
            long returned = System.nanoTime();
            if (!(reply instanceof BestMove best)) {
                throw new IllegalStateException("engine failed: " + reply);
            }
            long rawStart = System.nanoTime();
            rawIn.write(rawCommand);
            rawIn.flush();
            rawOut.readUntil("bestmove");
            long rawNanos = System.nanoTime() - rawStart;
            if (i >= warmup) {
                out.append(returned - requested)
                        .append(' ')
                        .append(best.engineNanos())
                        .append(' ')
                        .append(rawNanos)
                        .append('\n');
            }
        }
        engine.close();
        rawIn.write("quit\n".getBytes(StandardCharsets.US_ASCII));
        rawIn.flush();
        raw.destroy();
        System.out.print(out);
    }
}
