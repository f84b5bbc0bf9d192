package dev.taikai.cli;

import java.io.IOException;
import java.io.Reader;

/**
 * Reads lines of at most {@code maxChars} characters. A longer line is skipped to its end and
 * reported, so one huge line cannot exhaust memory.
 */
final class BoundedLineReader {
    /** A line, or the fact that the line at this place was too long. */
    record Line(String text, boolean tooLong) {}

    private final Reader in;
    private final int maxChars;
    private final char[] buffer = new char[8192];
    private int position;
    private int limit;

    BoundedLineReader(Reader in, int maxChars) {
        this.in = in;
        this.maxChars = maxChars;
    }

    /** The next line without its terminator ({@code \n} or {@code \r\n}), or {@code null} at the end. */
    Line next() throws IOException {
        StringBuilder line = new StringBuilder();
        boolean tooLong = false;
        boolean any = false;
        while (true) {
            if (position == limit) {
                limit = in.read(buffer);
                position = 0;
                if (limit <= 0) {
                    limit = 0;
                    return any ? finish(line, tooLong) : null;
                }
            }
            any = true;
            char ch = buffer[position++];
            if (ch == '\n') {
                return finish(line, tooLong);
            }
            if (!tooLong) {
                line.append(ch);
                if (line.length() > maxChars) {
                    tooLong = true;
                    line.setLength(0);
                }
            }
        }
    }

    private static Line finish(StringBuilder line, boolean tooLong) {
        int end = line.length();
        if (end > 0 && line.charAt(end - 1) == '\r') {
            line.setLength(end - 1);
        }
        return new Line(tooLong ? null : line.toString(), tooLong);
    }
}
