package dev.taikai.deploy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Starts a long-running process in a session of its own (util-linux {@code setsid}), as engines already
 * start. With Linux's autogroup scheduling (on by default) each session is one scheduling group that gets
 * its fair share of the CPU as a whole: services that shared the session of the shell that started them
 * shared one share, against one for every engine, so on two crowded cores the worker's thread that reads an
 * engine's answer waited tens of milliseconds for a CPU, charged to the engine as thinking time. In a
 * session of its own each service is a group of its own, and a thread of a mostly idle service that wakes
 * runs at once. {@code setsid} execs the command in the same process (a child of a JVM leads no process
 * group), so its pid is the service's. Where setsid is missing the command starts as it is.
 */
public final class OwnSession {
    private static final Path SETSID = Path.of("/usr/bin/setsid");

    private OwnSession() {}

    /** The words to put before a command line: {@code setsid}, or nothing where it is missing. */
    public static List<String> prefix() {
        return Files.isExecutable(SETSID) ? List.of(SETSID.toString()) : List.of();
    }
}
