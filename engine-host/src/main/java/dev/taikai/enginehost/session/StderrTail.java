package dev.taikai.enginehost.session;

import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

/**
 * An engine's standard error, of which only the last lines are kept, each cut to 512 bytes. It has no
 * thread of its own: {@link PipeWatcher} reads what is there between its rounds, and {@link #lines}
 * reads what is left, both without ever blocking. So nothing of it can outlive the session, even when a
 * process that escaped the engine's process group keeps the pipe open.
 */
final class StderrTail {
    private static final int MAX_LINE_BYTES = 512;
    /** How much one round reads, so one engine flooding its standard error cannot starve the others. */
    private static final int BYTES_PER_ROUND = 1 << 20;

    private final ArrayDeque<String> lines = new ArrayDeque<>();
    private final int keep;
    private final InputStream stderr;
    private final LineSplitter splitter;
    private boolean ended;

    StderrTail(InputStream stderr, int keep) {
        this.keep = keep;
        this.stderr = stderr;
        this.splitter =
                new LineSplitter(stderr, MAX_LINE_BYTES, (text, cut, nanos) -> add(cut ? text + " [cut]" : text));
    }

    /** Reads what the engine has written so far, without blocking. */
    synchronized boolean drainAvailable() {
        boolean read = false;
        try {
            int budget = BYTES_PER_ROUND;
            int available;
            while (!ended && budget > 0 && (available = splitter.available()) > 0) {
                budget -= available;
                read = true;
                ended = !splitter.readOnce();
            }
        } catch (IOException e) {
            ended = true; // closed with the session
        }
        return read;
    }

    private void add(String line) {
        if (lines.size() == keep) {
            lines.removeFirst();
        }
        lines.addLast(line);
    }

    /**
     * The last lines, a line not yet ended by a newline included. Whatever an engine wrote before it exited
     * is in the pipe by then, so after its death these are its last words.
     */
    synchronized List<String> lines() {
        drainAvailable();
        List<String> tail = new ArrayList<>(lines);
        String unfinished = splitter.unfinished();
        if (unfinished != null) {
            tail.add(unfinished);
            if (tail.size() > keep) {
                tail.remove(0);
            }
        }
        return tail;
    }

    synchronized void close() {
        drainAvailable();
        ended = true;
        try {
            stderr.close();
        } catch (IOException e) {
            // already closed with the process
        }
    }
}
