package dev.taikai.access.quarkus;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.jboss.logging.Logger;

/**
 * Warnings about bad input from callers, bounded in size and in rate: a line is cut to
 * {@value #MAX_LINE} characters, and a kind of warning is written at most once every
 * {@value #INTERVAL_MILLIS} ms. When its interval ends, the last line of the kind left out in it is
 * written, with how many more were (before, only the next line written said how many, and a line left out
 * last was never told of at all). Bad input never writes a stack trace, and a caller who repeats it cannot
 * flood the log.
 */
public final class BadInputLog {
    static final int MAX_LINE = 300;
    static final long INTERVAL_MILLIS = 10_000;
    static final int MAX_KINDS = 4096;

    private static final Logger LOG = Logger.getLogger("dev.taikai.bad-input");

    private static final BadInputLog WARNINGS = new BadInputLog(INTERVAL_MILLIS, LOG::warn);

    /** Per kind: when it was last written, and how many were left out since. */
    private static final class Kind {
        long lastMillis = Long.MIN_VALUE / 2;
        long suppressed;
        String lastSuppressed;
    }

    private final Map<String, Kind> kinds = new ConcurrentHashMap<>();
    private final long intervalMillis;
    private final Consumer<String> out;
    /** Writes the counts of lines left out when their interval ends; started on the first one left out. */
    private volatile ScheduledExecutorService counts;

    /** A log of {@code out} that writes a kind at most once every {@code intervalMillis} ms. */
    BadInputLog(long intervalMillis, Consumer<String> out) {
        this.intervalMillis = intervalMillis;
        this.out = out;
    }

    /** Writes {@code line} as a warning of {@code kind} unless one of its kind was written just now. */
    public static void warn(String kind, String line) {
        WARNINGS.write(kind, line);
    }

    void write(String kind, String line) {
        long now = System.currentTimeMillis();
        if (kinds.size() > MAX_KINDS) { // kinds named by callers' addresses cannot grow without bound
            kinds.clear();
        }
        Kind k = kinds.computeIfAbsent(kind, name -> new Kind());
        synchronized (k) {
            if (now - k.lastMillis < intervalMillis) {
                k.lastSuppressed = line;
                if (k.suppressed++ == 0) {
                    scheduler()
                            .schedule(() -> writeCount(k), k.lastMillis + intervalMillis - now, TimeUnit.MILLISECONDS);
                }
                return;
            }
            k.lastMillis = now;
        }
        out.accept(cut(line));
    }

    private static String cut(String line) {
        String text = line.replaceAll("\\s+", " ");
        return text.length() > MAX_LINE ? text.substring(0, MAX_LINE) + "..." : text;
    }

    /** At the end of an interval in which lines of {@code k} were left out: the last one, and how many more. */
    private void writeCount(Kind k) {
        long suppressed;
        String last;
        synchronized (k) {
            suppressed = k.suppressed;
            last = k.lastSuppressed;
            k.suppressed = 0;
            k.lastSuppressed = null;
        }
        if (suppressed > 0) {
            out.accept(cut(last)
                    + (suppressed > 1
                            ? " (and " + (suppressed - 1) + " more like it in " + intervalMillis / 1000
                                    + " s, not logged)"
                            : ""));
        }
    }

    private ScheduledExecutorService scheduler() {
        ScheduledExecutorService current = counts;
        if (current == null) {
            synchronized (this) {
                if (counts == null) {
                    counts = Executors.newSingleThreadScheduledExecutor(runnable -> {
                        Thread thread = new Thread(runnable, "bad-input-log");
                        thread.setDaemon(true);
                        return thread;
                    });
                }
                current = counts;
            }
        }
        return current;
    }
}
