package dev.taikai.deploy;

import java.io.IOException;
import java.nio.file.Path;

/**
 * A process of a local cluster that did not start: which one, why in words, and the log that tells
 * more. Its message is the one line a user reads: {@code worker-2: <reason>; see <log>}.
 */
public final class StartFailure extends IOException {
    private static final long serialVersionUID = 1L;

    private final String member;
    private final String reason;
    private final transient Path log;

    public StartFailure(String member, String reason, Path log) {
        super(member + ": " + reason + "; see " + log);
        this.member = member;
        this.reason = reason;
        this.log = log;
    }

    public String member() {
        return member;
    }

    public String reason() {
        return reason;
    }

    public Path log() {
        return log;
    }
}
