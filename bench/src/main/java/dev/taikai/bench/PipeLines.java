package dev.taikai.bench;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;

/** The baselines' reading: bytes into a buffer, lines compared to a prefix, nothing else. */
final class PipeLines {
    private final InputStream in;
    private final byte[] buffer = new byte[8192];
    private int position;
    private int limit;

    PipeLines(InputStream in) {
        this.in = in;
    }

    /** Reads up to and including the first line that starts with {@code prefix}. */
    void readUntil(String prefix) throws IOException {
        StringBuilder line = new StringBuilder();
        while (true) {
            if (position == limit) {
                limit = in.read(buffer);
                position = 0;
                if (limit < 0) {
                    throw new EOFException("engine closed its output before '" + prefix + "'");
                }
            }
            char ch = (char) buffer[position++];
            if (ch == '\n') {
                if (line.indexOf(prefix) == 0) {
                    return;
                }
                line.setLength(0);
            } else {
                line.append(ch);
            }
        }
    }
}
