package dev.taikai.engineworker.usi;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;

/**
 * Splits a byte stream into lines of at most {@code maxLineBytes}, without ever holding more: a longer
 * line is cut there and the rest of it is read and dropped. Each line carries the {@link
 * System#nanoTime()} at which the read that completed it returned.
 */
final class LineSplitter {
    /** Receives each line; {@code cut} is true when the line was longer than the limit. */
    interface Sink {
        void line(String text, boolean cut, long readNanos);
    }

    private final InputStream in;
    private final byte[] buffer = new byte[64 * 1024];
    private final byte[] line;

    LineSplitter(InputStream in, int maxLineBytes) {
        this.in = in;
        this.line = new byte[maxLineBytes];
    }

    /** Reads until end of stream, handing every line to {@code sink}; a last line without newline counts. */
    void run(Sink sink) throws IOException {
        int length = 0;
        boolean cut = false;
        for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
            long now = System.nanoTime();
            for (int i = 0; i < n; i++) {
                byte b = buffer[i];
                if (b == '\n') {
                    sink.line(text(length), cut, now);
                    length = 0;
                    cut = false;
                } else if (length < line.length) {
                    line[length++] = b;
                } else {
                    cut = true;
                }
            }
        }
        if (length > 0) {
            sink.line(text(length), cut, System.nanoTime());
        }
    }

    private String text(int length) {
        int end = length > 0 && line[length - 1] == '\r' ? length - 1 : length;
        return new String(line, 0, end, StandardCharsets.UTF_8);
    }
}
