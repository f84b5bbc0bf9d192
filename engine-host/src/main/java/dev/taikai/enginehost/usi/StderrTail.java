package dev.taikai.enginehost.usi;

import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

/** Reads an engine's standard error on its own thread and keeps only its last lines, each cut to 512 bytes. */
final class StderrTail {
    private static final int MAX_LINE_BYTES = 512;

    private final ArrayDeque<String> lines = new ArrayDeque<>();
    private final int keep;
    private final Thread thread;

    StderrTail(InputStream stderr, int keep, String engineId) {
        this.keep = keep;
        this.thread = new Thread(() -> read(stderr), "engine-stderr-" + engineId);
        thread.setDaemon(true);
        thread.start();
    }

    private void read(InputStream stderr) {
        try (stderr) {
            new LineSplitter(stderr, MAX_LINE_BYTES, (text, cut, nanos) -> add(cut ? text + " [cut]" : text)).drain();
        } catch (IOException e) {
            // the stream closed with the process; what was read is kept
        }
    }

    private synchronized void add(String line) {
        if (lines.size() == keep) {
            lines.removeFirst();
        }
        lines.addLast(line);
    }

    /** The last lines, after waiting up to {@code waitMillis} for the stream to end (so a dying engine's words are in). */
    List<String> lines(long waitMillis) {
        try {
            thread.join(waitMillis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        synchronized (this) {
            return new ArrayList<>(lines);
        }
    }
}
