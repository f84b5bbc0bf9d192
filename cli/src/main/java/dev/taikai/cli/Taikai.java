package dev.taikai.cli;

import java.io.BufferedWriter;
import java.io.InputStream;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code taikai} command. Exit codes: 0 success, 1 failure of the work itself, 2 bad usage or input. */
@Command(
        name = "taikai",
        mixinStandardHelpOptions = true,
        versionProvider = Version.class,
        description = "Tournament manager for USI and XBoard engines playing Minishogi and Kyoto shogi.",
        subcommands = {
            RunCommand.class,
            DemoCommand.class,
            PerftCommand.class,
            PositionsCommand.class,
            EngineCheckCommand.class,
            FakeEngineCommand.class,
            EngineCommand.class,
            MakeOpeningsCommand.class,
            ClusterCommand.class,
            TokenCommand.class,
            CommandLine.HelpCommand.class
        },
        footer = {"", "Run 'taikai <command> --help' for the options of a command."})
public final class Taikai implements java.util.concurrent.Callable<Integer> {
    @CommandLine.Spec
    private CommandLine.Model.CommandSpec spec;

    private final InputStream stdin;

    private Taikai(InputStream stdin) {
        this.stdin = stdin;
    }

    public static void main(String[] args) {
        PrintWriter out = new PrintWriter(
                new BufferedWriter(new OutputStreamWriter(System.out, StandardCharsets.UTF_8), 1 << 16), false);
        PrintWriter err = new PrintWriter(new OutputStreamWriter(System.err, StandardCharsets.UTF_8), true);
        int code;
        try {
            code = run(System.in, out, err, args);
        } catch (OutOfMemoryError e) { // not an exception: picocli lets it through
            out.flush();
            err.println("taikai: " + dev.taikai.cli.run.OutOfMemory.message());
            code = ExitCodes.FAILURE;
        }
        out.flush();
        err.flush();
        System.exit(code);
    }

    /** Runs one command line with the given streams and returns its exit code (used by main and by tests). */
    static int run(InputStream in, PrintWriter out, PrintWriter err, String... args) {
        return new CommandLine(new Taikai(in))
                .setPosixClusteredShortOptionsAllowed(false)
                .setOut(out)
                .setErr(err)
                .setExecutionExceptionHandler(new ExitCodes())
                .setParameterExceptionHandler(ExitCodes::usage)
                .execute(args);
    }

    /** Standard input of this run. */
    InputStream stdin() {
        return stdin;
    }

    /** No command given: the usage on standard error, and the exit code of bad usage ({@code --help} is 0). */
    @Override
    public Integer call() {
        spec.commandLine().usage(spec.commandLine().getErr());
        return 2;
    }
}
