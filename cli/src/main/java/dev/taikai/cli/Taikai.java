package dev.taikai.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code taikai} command. Exit codes: 0 success, 1 failure of the work itself, 2 bad usage or input. */
@Command(
        name = "taikai",
        mixinStandardHelpOptions = true,
        versionProvider = Version.class,
        description = "Tournament manager for USI engines playing Minishogi and Kyoto shogi.",
        subcommands = {PerftCommand.class, PositionsCommand.class, CommandLine.HelpCommand.class},
        footer = {"", "Run 'taikai <command> --help' for the options of a command."})
public final class Taikai implements Runnable {
    @CommandLine.Spec
    private CommandLine.Model.CommandSpec spec;

    public static void main(String[] args) {
        System.exit(run(args));
    }

    /** Runs the command line and returns its exit code (without exiting, for tests). */
    static int run(String... args) {
        return new CommandLine(new Taikai())
                .setExecutionExceptionHandler(new Failures())
                .setParameterExceptionHandler(Failures::usage)
                .execute(args);
    }

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }
}
