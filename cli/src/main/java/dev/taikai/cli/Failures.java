package dev.taikai.cli;

import java.io.PrintWriter;
import picocli.CommandLine;

/**
 * Turns failures into one-line messages and exit codes, never a stack trace: bad usage or input is
 * exit code 2 with the usage hint; a failure of the work itself is exit code 1.
 */
final class Failures implements CommandLine.IExecutionExceptionHandler {
    static final int USAGE = 2;
    static final int FAILURE = 1;

    /** Bad input found by a command: the message and exit code 2. */
    static final class UsageException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        UsageException(String message) {
            super(message);
        }
    }

    @Override
    public int handleExecutionException(
            Exception exception, CommandLine commandLine, CommandLine.ParseResult parseResult) {
        PrintWriter err = commandLine.getErr();
        if (exception instanceof UsageException) {
            err.println("taikai " + commandLine.getCommandName() + ": " + exception.getMessage());
            return USAGE;
        }
        err.println("taikai " + commandLine.getCommandName() + ": failed: " + exception);
        return FAILURE;
    }

    static int usage(CommandLine.ParameterException exception, String[] args) {
        CommandLine commandLine = exception.getCommandLine();
        PrintWriter err = commandLine.getErr();
        err.println("taikai: " + exception.getMessage());
        err.println("Try 'taikai " + (commandLine.getParent() == null ? "" : commandLine.getCommandName() + " ")
                + "--help'.");
        return USAGE;
    }
}
