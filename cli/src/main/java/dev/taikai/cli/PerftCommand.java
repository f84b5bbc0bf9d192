package dev.taikai.cli;

import dev.taikai.rules.Notation;
import dev.taikai.rules.Perft;
import dev.taikai.rules.Position;
import dev.taikai.rules.Usi;
import dev.taikai.rules.Variant;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Stack;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.IParameterConsumer;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

@Command(
        name = "perft",
        mixinStandardHelpOptions = true,
        description = {
            "Counts the legal move sequences of DEPTH plies from a position (single-threaded).",
            "The last line is 'nodes N'; with --divide, one line '<move> <count>' per root move comes first."
        })
final class PerftCommand implements Callable<Integer> {
    private static final int MAX_DEPTH = 12;

    @Spec
    private CommandSpec spec;

    @Parameters(index = "0", paramLabel = "VARIANT", description = "minishogi or kyotoshogi")
    private String variantName;

    @Parameters(index = "1", paramLabel = "DEPTH", description = "plies to count, 0 to " + MAX_DEPTH)
    private int depth;

    @Option(
            names = "--sfen",
            paramLabel = "SFEN",
            description = "start from this position (either Kyoto notation) instead of the start position")
    private String sfen;

    @Option(
            names = "--moves",
            arity = "1..*",
            parameterConsumer = MovesBeforeDepth.class,
            paramLabel = "MOVE",
            description = "play these USI moves first; the list ends at the next option or at a number (DEPTH)")
    private List<String> moves = new ArrayList<>();

    @Option(names = "--divide", description = "print the count of each root move")
    private boolean divide;

    @Option(
            names = "--notation",
            paramLabel = "fsf|lishogi",
            defaultValue = "fsf",
            description = "how Kyoto moves are printed (default: ${DEFAULT-VALUE})")
    private String notationId;

    @Option(names = "--time", description = "also print the time taken, to standard error")
    private boolean time;

    @Override
    public Integer call() {
        Variant variant = GameArguments.variant(variantName);
        Notation notation = GameArguments.notation(notationId);
        if (depth < 0 || depth > MAX_DEPTH) {
            throw new ExitCodes.UsageException("depth must be between 0 and " + MAX_DEPTH + ", not " + depth);
        }
        Position position = GameArguments.play(GameArguments.position(variant, sfen), moves);
        PrintWriter out = spec.commandLine().getOut();
        long started = System.nanoTime();
        long nodes;
        if (divide) {
            List<Perft.Divided> rows = new ArrayList<>(Perft.divide(position, depth));
            rows.sort(Comparator.comparing(row -> Usi.format(row.move(), variant, notation)));
            nodes = 0;
            for (Perft.Divided row : rows) {
                out.println(Usi.format(row.move(), variant, notation) + " " + row.nodes());
                nodes += row.nodes();
            }
            if (depth == 0) {
                nodes = 1;
            }
        } else {
            nodes = Perft.count(position, depth);
        }
        long elapsedNanos = System.nanoTime() - started;
        out.println("nodes " + nodes);
        out.flush();
        if (time) {
            double seconds = elapsedNanos / 1e9;
            spec.commandLine()
                    .getErr()
                    .printf("time %.3f s, %.1f M nodes/s%n", seconds, nodes / Math.max(seconds, 1e-9) / 1e6);
        }
        return 0;
    }

    /**
     * Takes the words after {@code --moves} up to the next option or the first plain number, so that
     * {@code perft minishogi --moves 5d5c 1b1c 2} reads 2 as the depth: no USI move is all digits.
     */
    static final class MovesBeforeDepth implements IParameterConsumer {
        @Override
        public void consumeParameters(Stack<String> args, ArgSpec argSpec, CommandSpec commandSpec) {
            List<String> taken = new ArrayList<>();
            while (!args.isEmpty()
                    && !args.peek().startsWith("-")
                    && !args.peek().matches("[0-9]+")) {
                taken.add(args.pop());
            }
            if (taken.isEmpty()) {
                throw new ParameterException(commandSpec.commandLine(), "--moves needs at least one USI move");
            }
            List<String> moves = argSpec.getValue();
            moves.addAll(taken);
        }
    }
}
