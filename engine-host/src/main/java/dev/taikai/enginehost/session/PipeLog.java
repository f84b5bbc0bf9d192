package dev.taikai.enginehost.session;

import java.util.ArrayList;
import java.util.List;

/**
 * Every line written to and read from one engine's pipes, with the time it crossed the pipe, as
 * cutechess-cli's {@code -debug} shows them: kept in memory until {@link #take} (a game's log is taken
 * when the game ends), at most {@code capChars} characters between takes (each line counting {@link
 * #LINE_COST} more, for its time and direction); past that, lines are counted and the count is the last
 * entry taken. Thread-safe: the caller writes, the pipe's reader reads.
 */
public final class PipeLog {
    /** The default cap: 4 million characters a game and engine, about a megabyte once compressed. */
    public static final int DEFAULT_CAP_CHARS = 4_000_000;

    /**
     * A cluster worker's cap: a million characters a game and engine, so that a game's log fits one gRPC
     * message (4 MiB) however the engine writes it.
     */
    public static final int WORKER_CAP_CHARS = 1_000_000;

    /** What each line costs against the cap beyond its text: its time and direction. */
    static final int LINE_COST = 16;

    /** Microseconds since the epoch minus {@link System#nanoTime} in microseconds, taken once. */
    private static final long EPOCH_MINUS_NANO_MICROS = System.currentTimeMillis() * 1000 - System.nanoTime() / 1000;

    /** One line: {@link Direction#TO_ENGINE}, {@link Direction#FROM_ENGINE}, or a note of Taikai's. */
    public enum Direction {
        TO_ENGINE,
        FROM_ENGINE,
        NOTE
    }

    /**
     * One entry, with the time it crossed the pipe in microseconds since the epoch (the pipe's {@link
     * System#nanoTime}, set against the wall clock once, so entries of one process keep their order).
     */
    public record Entry(long epochMicros, Direction direction, String text) {}

    /** The entry time for {@link System#nanoTime} {@code nanos}. */
    public static long epochMicros(long nanos) {
        return EPOCH_MINUS_NANO_MICROS + nanos / 1000;
    }

    private final int capChars;
    private List<Entry> entries = new ArrayList<>();
    private long chars;
    private long dropped;

    public PipeLog(int capChars) {
        if (capChars < 1) {
            throw new IllegalArgumentException("a pipe log's cap is at least 1 character, not " + capChars);
        }
        this.capChars = capChars;
    }

    /** Lines written to the engine at {@code nanos} (one entry a line). */
    synchronized void sent(String lines, long nanos) {
        for (String line : lines.split("\n", -1)) {
            add(new Entry(epochMicros(nanos), Direction.TO_ENGINE, line));
        }
    }

    /** A line read from the engine at {@code nanos}. */
    synchronized void received(String line, long nanos) {
        add(new Entry(epochMicros(nanos), Direction.FROM_ENGINE, line));
    }

    /** A note of Taikai's about the engine (its standard error when it failed, say). */
    public synchronized void note(String text) {
        add(new Entry(epochMicros(System.nanoTime()), Direction.NOTE, text));
    }

    private void add(Entry entry) {
        if (chars + entry.text().length() + LINE_COST > capChars) {
            dropped++;
            return;
        }
        chars += entry.text().length() + LINE_COST;
        entries.add(entry);
    }

    /** The entries since the last take, oldest first, ending with how many lines the cap dropped, if any. */
    public synchronized List<Entry> take() {
        List<Entry> taken = entries;
        if (dropped > 0) {
            taken.add(new Entry(
                    epochMicros(System.nanoTime()),
                    Direction.NOTE,
                    dropped + (dropped == 1 ? " more line was" : " more lines were")
                            + " not kept: the log of one game keeps " + capChars + " characters of an engine"));
        }
        entries = new ArrayList<>();
        chars = 0;
        dropped = 0;
        return taken;
    }
}
