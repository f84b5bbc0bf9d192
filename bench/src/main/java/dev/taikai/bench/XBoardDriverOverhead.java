package dev.taikai.bench;

import dev.taikai.enginehost.catalog.Catalog;
import dev.taikai.enginehost.catalog.EngineSpec;
import dev.taikai.enginehost.session.BestMove;
import dev.taikai.enginehost.session.MoveReply;
import dev.taikai.enginehost.session.PositionCommand;
import dev.taikai.enginehost.session.SearchLimits;
import dev.taikai.enginehost.session.StartResult;
import dev.taikai.enginehost.session.Timeouts;
import dev.taikai.enginehost.xboard.XBoardEngine;
import dev.taikai.rules.Notation;
import dev.taikai.rules.Position;
import dev.taikai.rules.Variant;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

/**
 * The JVM side of bench/driver.sh's XBoard run. Two processes of the same XBoard engine: one driven through
 * Taikai's {@link XBoardEngine}, one through a minimal same-thread pipe loop in this JVM (the baseline).
 * Each move is the start position's at {@code sd 1}, asked for the same way on both: {@code new}, {@code
 * variant}, {@code force}, the clock setting, {@code ping} until {@code pong}, then {@code time}, {@code
 * otim} and {@code go} until {@code move}. Moves alternate between the two, so both see the same machine.
 * Prints per move: "taikaiRequestNanos taikaiPipeNanos baselineNanos".
 *
 * <p>Usage: XBoardDriverOverhead ENGINE-ID VARIANT MOVES WARMUP
 */
public final class XBoardDriverOverhead {
    private XBoardDriverOverhead() {}

    public static void main(String[] args) throws Exception {
        EngineSpec spec = Catalog.builtIn().resolve(args[0]);
        Variant variant = Variant.byName(args[1]).orElseThrow();
        int moves = Integer.parseInt(args[2]);
        int warmup = Integer.parseInt(args[3]);
        new XBoardDriverOverhead().run(spec, variant, moves, warmup);
    }

    private void run(EngineSpec spec, Variant variant, int moves, int warmup) throws IOException {
        StartResult started = XBoardEngine.start(spec, variant, Timeouts.DEFAULT, null);
        if (!(started instanceof XBoardEngine engine)) {
            throw new IllegalStateException("engine did not start: " + started);
        }
        String name = engine.variantName();
        String program = spec.command().get(0);
        Process raw = new ProcessBuilder(program.contains("/") ? program : "/usr/games/" + program).start();
        OutputStream rawIn = raw.getOutputStream();
        PipeLines rawOut = new PipeLines(raw.getInputStream());
        rawIn.write("xboard\nprotover 2\naccepted done\nping 0\n".getBytes(StandardCharsets.US_ASCII));
        rawIn.flush();
        rawOut.readUntil("pong 0");

        PositionCommand start = PositionCommand.of(Position.start(variant).toSfen(Notation.LISHOGI));
        SearchLimits limits = SearchLimits.depth(1);
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < warmup + moves; i++) {
            long requested = System.nanoTime();
            MoveReply reply = engine.go(start, limits);
            long returned = System.nanoTime();
            if (!(reply instanceof BestMove best)) {
                throw new IllegalStateException("engine failed: " + reply);
            }
            long rawStart = System.nanoTime();
            rawIn.write(("new\nvariant " + name + "\neasy\npost\nforce\nsd 1\nst 3600\nping " + (i + 1) + "\n")
                    .getBytes(StandardCharsets.US_ASCII));
            rawIn.flush();
            rawOut.readUntil("pong " + (i + 1));
            rawIn.write("time 360000\notim 360000\ngo\n".getBytes(StandardCharsets.US_ASCII));
            rawIn.flush();
            rawOut.readUntil("move ");
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

    private static String args0(EngineSpec spec) {
        return spec.id();
    }
}
