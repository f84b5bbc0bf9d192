package dev.taikai.engineworker.usi;

import java.io.IOException;
import java.io.InputStream;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * Reads an engine's standard output on its own thread, as fast as the engine writes it, in bounded
 * memory whatever the engine does. Lines the protocol waits for ({@code usiok}, {@code readyok},
 * {@code bestmove}, {@code id}, {@code option}) go to a bounded queue; {@code info} lines only update
 * the search telemetry; anything else is counted and the last such line kept for diagnostics.
 */
final class EngineOutput {
    /** A line the protocol waits for, with the time it was read; {@link #END} marks the end of output. */
    record Line(String text, long readNanos) {
        boolean is(String keyword) {
            return text != null && (text.equals(keyword) || text.startsWith(keyword + " "));
        }
    }

    static final Line END = new Line(null, 0);
    private static final int QUEUE_CAPACITY = 4096;

    private final BlockingQueue<Line> protocol = new ArrayBlockingQueue<>(QUEUE_CAPACITY);
    private final Thread thread;

    private volatile String lastSearchInfo;
    private volatile long infoLines;
    private volatile long otherLines;
    private volatile String lastOtherLine;
    private volatile long droppedLines;
    private volatile long cutLines;

    EngineOutput(InputStream stdout, int maxLineBytes, String engineId) {
        this.thread = new Thread(() -> read(stdout, maxLineBytes), "engine-stdout-" + engineId);
        thread.setDaemon(true);
        thread.start();
    }

    private void read(InputStream stdout, int maxLineBytes) {
        try (stdout) {
            new LineSplitter(stdout, maxLineBytes).run(this::route);
        } catch (IOException e) {
            // closed: the process ended or the session closed the stream
        }
        while (!protocol.offer(END)) {
            protocol.poll(); // nobody is reading a full queue: make room so the end is always seen
        }
    }

    /** Runs on the reader thread, the only writer of the counters. */
    private void route(String text, boolean cut, long readNanos) {
        if (cut) {
            cutLines++;
        }
        String line = text.strip();
        if (line.startsWith("info")) {
            infoLines++;
            if (line.contains(" score ") || line.contains(" pv ") || line.contains(" depth ")) {
                lastSearchInfo = line;
            }
        } else if (line.startsWith("bestmove")
                || line.equals("readyok")
                || line.equals("usiok")
                || line.startsWith("id ")
                || line.startsWith("option ")) {
            if (!protocol.offer(new Line(line, readNanos))) {
                droppedLines++;
            }
        } else if (!line.isEmpty()) {
            otherLines++;
            lastOtherLine = line;
        }
    }

    /** The next protocol line before {@code deadlineNanos}, {@link #END} after the last, or null on timeout. */
    Line next(long deadlineNanos) throws InterruptedException {
        long wait = deadlineNanos - System.nanoTime();
        return wait <= 0 ? protocol.poll() : protocol.poll(wait, TimeUnit.NANOSECONDS);
    }

    /** Forgets the telemetry of the previous search. */
    void beginSearch() {
        lastSearchInfo = null;
        infoLines = 0;
    }

    /** The last {@code info} line with search data since {@link #beginSearch}, or null. */
    String lastSearchInfo() {
        return lastSearchInfo;
    }

    long infoLines() {
        return infoLines;
    }

    /** A short account of output that was not protocol: counts and the last unexpected line. */
    String oddities() {
        StringBuilder out = new StringBuilder();
        if (otherLines > 0) {
            String last = lastOtherLine.length() > 80 ? lastOtherLine.substring(0, 80) + "..." : lastOtherLine;
            out.append(otherLines)
                    .append(" unexpected line(s), last: '")
                    .append(last)
                    .append("'");
        }
        if (cutLines > 0) {
            out.append(out.isEmpty() ? "" : "; ").append(cutLines).append(" overlong line(s) cut");
        }
        if (droppedLines > 0) {
            out.append(out.isEmpty() ? "" : "; ").append(droppedLines).append(" protocol line(s) dropped (flood)");
        }
        return out.toString();
    }

    void awaitEnd(long millis) {
        try {
            thread.join(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
