package dev.taikai.cli;

import dev.taikai.cli.run.RecordsNotWritten;
import java.io.PrintWriter;
import picocli.CommandLine;

/**
 * Turns failures into one-line messages and exit codes, never a stack trace: bad usage or input is
 * exit code 2; a failure of the work itself is exit code 1. Set {@code TAIKAI_DEBUG=1} to also print
 * the stack trace of an unexpected failure.
 */
final class ExitCodes implements CommandLine.IExecutionExceptionHandler {
    static final int FAILURE = 1;
    static final int USAGE = 2;
    /** A command that follows a cluster's tournament lost the scheduler; the tournament goes on there. */
    static final int LOST = 3;

    /** Bad input found by a command: its message and exit code 2. */
    static final class UsageException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        UsageException(String message) {
            super(message);
        }
    }

    /** A failure of the work whose message already says what failed, why and where to look: exit code 1. */
    static final class WorkFailed extends RuntimeException {
        private static final long serialVersionUID = 1L;

        WorkFailed(String message, Throwable cause) {
            super(message, cause);
        }
    }

    /** The scheduler was lost while following a tournament, which goes on: its message and exit code 3. */
    static final class Lost extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Lost(String message, Throwable cause) {
            super(message, cause);
        }
    }

    @Override
    public int handleExecutionException(
            Exception exception, CommandLine commandLine, CommandLine.ParseResult parseResult) {
        PrintWriter err = commandLine.getErr();
        String command = commandLine.getCommandSpec().qualifiedName();
        if (exception instanceof UsageException) {
            err.println(command + ": " + exception.getMessage());
            return USAGE;
        }
        if (exception instanceof Lost) {
            err.println(command + ": " + exception.getMessage());
            return LOST;
        }
        err.println(command + ": failed: "
                + (exception instanceof WorkFailed
                                || exception instanceof RecordsNotWritten
                                || exception instanceof dev.taikai.cli.cluster.SchedulerClient.Unreachable
                        ? exception.getMessage()
                        : exception.toString()));
        if (System.getenv("TAIKAI_DEBUG") != null) {
            exception.printStackTrace(err);
        }
        return FAILURE;
    }

    static int usage(CommandLine.ParameterException exception, String[] args) {
        CommandLine commandLine = exception.getCommandLine();
        PrintWriter err = commandLine.getErr();
        String command = commandLine.getCommandSpec().qualifiedName();
        err.println(command + ": " + exception.getMessage());
        err.println("Try '" + command + " --help'.");
        return USAGE;
    }
}
