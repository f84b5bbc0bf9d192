package dev.taikai.access.quarkus;

import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.logging.Filter;
import java.util.logging.Logger;

/**
 * A request whose bytes are not a protobuf message of its method is refused by gRPC itself before any
 * code of ours runs, and grpc-java logs that refusal as a SEVERE error with a stack trace (anyone who can
 * reach a port, the open health service included, could fill the log with them). This filter turns each
 * such record into one rate-limited warning ({@link BadInputLog}); every other record passes unchanged.
 */
@ApplicationScoped
public class GrpcBadMessages {
    /** The logger grpc-java reports a failed request parse through. */
    static final String GRPC_EXECUTOR_LOGGER = "io.grpc.internal.SerializingExecutor";

    /** Keeps the logger (and so its filter) from being collected: JUL holds loggers weakly. */
    private static Logger executorLogger;

    void install(@Observes StartupEvent event) {
        executorLogger = Logger.getLogger(GRPC_EXECUTOR_LOGGER);
        Filter previous = executorLogger.getFilter();
        executorLogger.setFilter(record -> {
            if (isBadMessage(record.getThrown())) {
                BadInputLog.warn(
                        "grpc-bad-message",
                        "gRPC: a request that is not a valid protobuf message of its method was refused ("
                                + Status.fromThrowable(record.getThrown()).getDescription() + ")");
                return false;
            }
            return previous == null || previous.isLoggable(record);
        });
    }

    static boolean isBadMessage(Throwable thrown) {
        for (Throwable t = thrown; t != null; t = t.getCause()) {
            if (t instanceof StatusRuntimeException e
                    && e.getStatus().getCode() == Status.Code.INTERNAL
                    && e.getStatus().getDescription() != null
                    && e.getStatus().getDescription().startsWith("Invalid protobuf byte sequence")) {
                return true;
            }
        }
        return false;
    }
}
