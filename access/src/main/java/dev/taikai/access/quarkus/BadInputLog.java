package dev.taikai.access.quarkus;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.jboss.logging.Logger;

/**
 * Warnings about bad input from callers, bounded in size and in rate: a line is cut to
 * {@value #MAX_LINE} characters, and a kind of warning is written at most once every
 * {@value #INTERVAL_MILLIS} ms, the next line saying how many of its kind were left out meanwhile.
 * Bad input never writes a stack trace, and a caller who repeats it cannot flood the log.
 */
public final class BadInputLog {
    static final int MAX_LINE = 300;
    static final long INTERVAL_MILLIS = 10_000;
    static final int MAX_KINDS = 4096;

    private static final Logger LOG = Logger.getLogger("dev.taikai.bad-input");

    /** Per kind: when it was last written, and how many were left out since. */
    private static final class Kind {
        long lastMillis = Long.MIN_VALUE / 2;
        long suppressed;
    }

    private static final Map<String, Kind> KINDS = new ConcurrentHashMap<>();

    private BadInputLog() {}

    /** Writes {@code line} as a warning of {@code kind} unless one of its kind was written just now. */
    public static void warn(String kind, String line) {
        long now = System.currentTimeMillis();
        if (KINDS.size() > MAX_KINDS) { // kinds named by callers' addresses cannot grow without bound
            KINDS.clear();
        }
        Kind k = KINDS.computeIfAbsent(kind, name -> new Kind());
        long suppressed;
        synchronized (k) {
            if (now - k.lastMillis < INTERVAL_MILLIS) {
                k.suppressed++;
                return;
            }
            k.lastMillis = now;
            suppressed = k.suppressed;
            k.suppressed = 0;
        }
        String text = line.replaceAll("\\s+", " ");
        if (text.length() > MAX_LINE) {
            text = text.substring(0, MAX_LINE) + "...";
        }
        LOG.warn(text
                + (suppressed > 0
                        ? " (" + suppressed + " more like it in the last " + INTERVAL_MILLIS / 1000 + " s not logged)"
                        : ""));
    }
}
