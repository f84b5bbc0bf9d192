package dev.taikai.enginehost.session;

/**
 * How a protocol sorts the lines an engine writes: what a caller waits for, what is search telemetry, and
 * what is noise. {@link EngineOutput} asks it of every line as it is read.
 */
@FunctionalInterface
public interface LineClassifier {
    enum Kind {
        /** A line a caller may wait for (USI {@code bestmove}, XBoard {@code move}): queued for the caller. */
        ANSWER,
        /** Search telemetry without a score, depth or pv: counted. */
        INFO,
        /** Search telemetry with a score, depth or pv: counted, and the last one kept for the move's record. */
        SEARCH_INFO,
        /** A line the protocol allows and nobody needs (an XBoard {@code #} comment, an empty line). */
        IGNORED,
        /** Not the protocol: counted, and the last one kept for diagnostics. */
        OTHER
    }

    /** The kind of {@code line}, given without surrounding white space. */
    Kind classify(String line);
}
