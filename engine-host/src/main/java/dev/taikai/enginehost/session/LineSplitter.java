package dev.taikai.enginehost.session;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;

/**
 * Splits a byte stream into lines of at most {@code maxLineBytes}, without ever holding more: a longer
 * line is cut there and the rest of it is read and dropped. Each line carries the {@link
 * System#nanoTime()} at which the read that completed it returned. Not thread-safe: its owner serializes
 * the reads.
 */
final class LineSplitter {
    /** Receives each line; {@code cut} is true when the line was longer than the limit. */
    interface Sink {
        void line(String text, boolean cut, long readNanos);
    }

    private final InputStream in;
    private final Sink sink;
    /** 8 KiB: the JDK reads up to this much through a stack buffer, larger reads allocate on every call. */
    private final byte[] buffer = new byte[8 * 1024];

    private final byte[] line;
    private int length;
    private boolean cut;
    /** The reading thread's wait for a CPU during the last read, when that read was timed; else 0. */
    private long lastReadWaitNanos;

    LineSplitter(InputStream in, int maxLineBytes, Sink sink) {
        this.in = in;
        this.sink = sink;
        this.line = new byte[maxLineBytes];
    }

    /** One read (blocking until bytes or the end arrive), every completed line handed on; false at the end. */
    boolean readOnce() throws IOException {
        return readOnce(false);
    }

    /**
     * As {@link #readOnce()}; with {@code timeWait}, it also measures how long this thread waited for a CPU
     * during the read ({@link #lastReadWaitNanos}), as for the read that brings an engine's answer: when the
     * bytes arrive, the thread has to get a CPU before the read returns and the answer's time is taken. A
     * read of bytes already there does not sleep, so it is not measured (an engine's flood costs no more).
     */
    boolean readOnce(boolean timeWait) throws IOException {
        long waitedBefore = timeWait && in.available() == 0 ? CpuWait.callerWaited() : -1;
        int n = in.read(buffer);
        long now = System.nanoTime();
        lastReadWaitNanos = CpuWait.callerWaitSince(waitedBefore);
        if (n < 0) {
            if (length > 0) {
                sink.line(text(), cut, now);
                length = 0;
            }
            return false;
        }
        for (int i = 0; i < n; i++) {
            byte b = buffer[i];
            if (b == '\n') {
                sink.line(text(), cut, now);
                length = 0;
                cut = false;
            } else if (length < line.length) {
                line[length++] = b;
            } else {
                cut = true;
            }
        }
        return true;
    }

    /** The reading thread's wait for a CPU during the last read ({@link #readOnce(boolean)}), or 0. */
    long lastReadWaitNanos() {
        return lastReadWaitNanos;
    }

    /** Bytes that can be read now without blocking. */
    int available() throws IOException {
        return in.available();
    }

    /** The line read so far but not yet ended by a newline, or null when there is none. */
    String unfinished() {
        return length > 0 || cut ? text() : null;
    }

    private String text() {
        int end = length > 0 && line[length - 1] == '\r' ? length - 1 : length;
        return new String(line, 0, end, StandardCharsets.UTF_8);
    }
}
