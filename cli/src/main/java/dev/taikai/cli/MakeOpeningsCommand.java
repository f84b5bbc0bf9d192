package dev.taikai.cli;

import dev.taikai.cli.run.Launcher;
import dev.taikai.enginehost.catalog.BuiltinCatalog;
import dev.taikai.enginehost.catalog.EngineSpec;
import dev.taikai.enginehost.config.ConfigException;
import dev.taikai.enginehost.engines.Engines;
import dev.taikai.enginehost.session.BestMove;
import dev.taikai.enginehost.session.EngineFailure;
import dev.taikai.enginehost.session.LocalEngine;
import dev.taikai.enginehost.session.MoveReply;
import dev.taikai.enginehost.session.PositionCommand;
import dev.taikai.enginehost.session.SearchLimits;
import dev.taikai.enginehost.session.StartResult;
import dev.taikai.enginehost.session.Timeouts;
import dev.taikai.rules.Position;
import dev.taikai.rules.Usi;
import dev.taikai.rules.Variant;
import java.io.PrintWriter;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * Hidden: makes a balanced opening suite. Every distinct position {@code --plies} moves from the start is
 * evaluated by an engine to {@code --depth}; positions within {@code --max-cp} of equality, with the side
 * to move not in check, are kept, closest to equality first. The suite's header records how it was made.
 */
@Command(
        name = "make-openings",
        hidden = true,
        mixinStandardHelpOptions = true,
        description = "Makes a balanced opening suite (see openings/README.md).")
final class MakeOpeningsCommand implements Callable<Integer> {
    @Spec
    private CommandSpec spec;

    @Option(names = "--variant", required = true, paramLabel = "VARIANT", description = "minishogi or kyotoshogi")
    private String variantName;

    @Option(
            names = "--plies",
            defaultValue = "4",
            paramLabel = "N",
            description = "plies from the start of every opening (default: ${DEFAULT-VALUE})")
    private int plies;

    @Option(
            names = "--depth",
            defaultValue = "8",
            paramLabel = "N",
            description = "the engine's search depth for each position (default: ${DEFAULT-VALUE})")
    private int depth;

    @Option(
            names = "--max-cp",
            defaultValue = "50",
            paramLabel = "CP",
            description = "keep positions the engine scores within this many centipawns of equality (default:"
                    + " ${DEFAULT-VALUE}; the shipped suites used 60)")
    private int maxCentipawns;

    @Option(
            names = "--count",
            defaultValue = "100",
            paramLabel = "N",
            description = "openings to keep, closest to equality first (default: ${DEFAULT-VALUE})")
    private int count;

    @Option(
            names = "--engine",
            defaultValue = "fairy-stockfish",
            paramLabel = "ID|COMMAND",
            description = "a built-in engine id or a command line (default: ${DEFAULT-VALUE})")
    private String engine;

    private record Candidate(List<String> moves, int score, long key) {}

    private static void within(String option, int value, int least, int most) {
        if (value < least || value > most) {
            throw new ExitCodes.UsageException(option + " is " + least + " to " + most + ", not " + value);
        }
    }

    @Override
    public Integer call() throws Exception {
        Variant variant = GameArguments.variant(variantName);
        within("--plies", plies, 1, 12);
        within("--depth", depth, 1, 1000);
        within("--max-cp", maxCentipawns, 0, 100_000);
        within("--count", count, 1, 1_000_000);
        EngineSpec engineSpec;
        try {
            engineSpec = BuiltinCatalog.get().resolve(engine);
        } catch (ConfigException e) {
            throw new ExitCodes.UsageException(e.getMessage());
        }
        List<List<String>> lines = new ArrayList<>();
        collect(Position.start(variant), plies, new ArrayList<>(), new HashSet<>(), lines);
        // no one reads warnings here: an option the engine does not list is refused
        StartResult started = LocalEngine.refusingUnlistedOptions(Engines.start(engineSpec, variant, Timeouts.DEFAULT));
        if (!(started instanceof LocalEngine usi)) {
            // the engine's failure, not the command line's: exit 1, as taikai run and engine-check give
            throw new ExitCodes.WorkFailed(
                    started instanceof EngineFailure failure && failure.kind() == EngineFailure.Kind.START_FAILED
                            ? failure.toString().replaceFirst("^start failed: ", "") // it names the engine
                            : "cannot start " + engine + ": " + started,
                    null);
        }
        List<Candidate> kept = new ArrayList<>();
        String sfen = Position.start(variant).toSfen();
        try (usi) {
            usi.newGame();
            for (int i = 0; i < lines.size(); i++) {
                List<String> moves = lines.get(i);
                MoveReply reply = usi.go(new PositionCommand(sfen, moves), SearchLimits.depth(depth));
                if (reply instanceof EngineFailure failure) {
                    // a suite of the positions before the failure would pass for one of them all
                    throw new ExitCodes.WorkFailed(
                            "the engine failed at position " + (i + 1) + " of " + lines.size() + " (startpos moves "
                                    + String.join(" ", moves) + "): " + failure + "; no suite was written",
                            null);
                }
                if (reply instanceof BestMove best
                        && best.info() != null
                        && best.info().score() != null
                        && !best.info().score().mate()
                        && Math.abs(best.info().score().value()) <= maxCentipawns) {
                    kept.add(new Candidate(moves, best.info().score().value(), keyOf(variant, moves)));
                }
            }
        }
        kept.sort(Comparator.comparingInt((Candidate c) -> Math.abs(c.score())).thenComparingLong(Candidate::key));
        PrintWriter out = spec.commandLine().getOut();
        out.printf("# Balanced %s openings, made %s by:%n", variant.displayName(), LocalDate.now());
        out.printf(
                "#   ./taikai make-openings --variant %s --plies %d --depth %d --max-cp %d --count %d --engine %s%n",
                variant.name(), plies, depth, maxCentipawns, count, Launcher.shellWord(engine));
        out.printf(
                "# %d distinct positions %d plies from the start (side to move not in check) were evaluated by %s%n",
                lines.size(), plies, usi(engineSpec));
        out.printf(
                "# at depth %d; %d scored within %d centipawns of equality; the %d closest to 0 follow.%n",
                depth, kept.size(), maxCentipawns, Math.min(count, kept.size()));
        out.println("# Each line: startpos moves ..., then the engine's score from the side to move, as a comment.");
        for (Candidate candidate : kept.subList(0, Math.min(count, kept.size()))) {
            out.printf("startpos moves %s # %+d cp%n", String.join(" ", candidate.moves()), candidate.score());
        }
        out.flush();
        return 0;
    }

    private static String usi(EngineSpec spec) {
        return spec.id() + " (" + String.join(" ", spec.command()) + ")";
    }

    /** Every distinct position {@code plies} moves deep that is not over and not in check, by its first line. */
    private static void collect(
            Position position, int plies, List<String> line, Set<Long> seen, List<List<String>> out) {
        if (plies == 0) {
            if (seen.add(position.key()) && !position.inCheck() && position.legalMoves().length > 0) {
                out.add(List.copyOf(line));
            }
            return;
        }
        List<String> moves = new ArrayList<>();
        for (int move : position.legalMoves()) {
            moves.add(Usi.format(move, position.variant()));
        }
        moves.sort(null);
        for (String move : moves) {
            line.add(move);
            try {
                collect(position.play(Usi.parse(position, move)), plies - 1, line, seen, out);
            } catch (dev.taikai.rules.MoveException e) {
                throw new IllegalStateException(e);
            }
            line.remove(line.size() - 1);
        }
    }

    private static long keyOf(Variant variant, List<String> moves) throws dev.taikai.rules.MoveException {
        Position position = Position.start(variant);
        for (String move : moves) {
            position = position.play(Usi.parse(position, move));
        }
        return position.key();
    }
}
