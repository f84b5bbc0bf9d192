package dev.taikai.enginehost.session;

import dev.taikai.enginehost.catalog.EngineText;
import java.io.IOException;
import java.io.InputStream;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.locks.ReentrantLock;

/**
 * An engine's standard output, read in bounded memory whatever the engine does. The session's caller
 * reads the pipe itself while it waits for an answer, so an answer costs no thread hand-off; between
 * waits {@link PipeWatcher} drains whatever the engine writes, so the engine never blocks on a full
 * pipe. The protocol's {@link LineClassifier} sorts each line: answers go to a bounded queue, telemetry
 * only updates the search's record, anything else is counted and the last such line kept for diagnostics.
 */
final class EngineOutput {
    static final OutputLine END = OutputLine.END;
    private static final int QUEUE_CAPACITY = 4096;
    /** How much the housekeeping thread reads from one engine per round, so one flood cannot starve the others. */
    private static final int DRAIN_BYTES_PER_ROUND = 1 << 20;

    private final BlockingQueue<OutputLine> protocol = new ArrayBlockingQueue<>(QUEUE_CAPACITY);
    private final ReentrantLock reading = new ReentrantLock();
    private final LineSplitter splitter;
    private final InputStream stdout;

    private volatile boolean ended;
    /** Whether the caller's reads measure its wait for a CPU: during a timed search. */
    private volatile boolean timeReads;

    private volatile String lastSearchInfo;
    private volatile long infoLines;
    private volatile long otherLines;
    private volatile String lastOtherLine;
    private volatile long droppedLines;
    private volatile long cutLines;
    /** Answers that came when none was asked for, dropped by the session ({@link #stray}). */
    private volatile long strayAnswers;

    private volatile String lastStrayAnswer = "";

    private final LineClassifier classifier;

    EngineOutput(InputStream stdout, int maxLineBytes, LineClassifier classifier) {
        this.stdout = stdout;
        this.classifier = classifier;
        this.splitter = new LineSplitter(stdout, maxLineBytes, this::route);
    }

    /** Where every line read is logged as it is read, or null. */
    private volatile PipeLog log;

    void logTo(PipeLog log) {
        this.log = log;
    }

    /** Sorts one line; runs under {@link #reading}, so the counters have a single writer. */
    private void route(String text, boolean cut, long readNanos) {
        if (cut) {
            cutLines++;
        }
        PipeLog log = this.log;
        if (log != null) {
            log.received(cut ? text + " [line cut: too long]" : text, readNanos);
        }
        String line = text.strip();
        switch (classifier.classify(line)) {
            case ANSWER -> {
                if (!protocol.offer(new OutputLine(line, readNanos, splitter.lastReadWaitNanos()))) {
                    droppedLines++;
                }
            }
            case SEARCH_INFO -> {
                infoLines++;
                lastSearchInfo = line;
            }
            case INFO -> infoLines++;
            case IGNORED -> {}
            case OTHER -> {
                otherLines++;
                lastOtherLine = line;
            }
        }
    }

    /**
     * The next protocol line, reading the pipe on this thread until one arrives: {@link #END} when the
     * output has ended, or, with {@code block} false, null when nothing is there yet. A blocking wait
     * ends when a line arrives or the pipe closes; deadlines are kept by killing the engine.
     */
    OutputLine next(boolean block) {
        OutputLine line = protocol.poll();
        if (line != null) {
            return line;
        }
        reading.lock();
        try {
            while (true) {
                line = protocol.poll();
                if (line != null) {
                    return line;
                }
                if (ended) {
                    return END;
                }
                if (!block && splitter.available() == 0) {
                    return null;
                }
                if (!splitter.readOnce(timeReads)) {
                    ended = true;
                }
            }
        } catch (IOException e) {
            ended = true; // the stream was closed under us: the session is ending
            return END;
        } finally {
            reading.unlock();
        }
    }

    /**
     * Reads what the engine has written while nobody waits on it; once a dead engine's output is read,
     * marks the output ended. Called by {@link PipeWatcher}; never blocks.
     */
    boolean drainAvailable(boolean processAlive) {
        if (ended || !reading.tryLock()) {
            return false;
        }
        boolean read = false;
        try {
            int budget = DRAIN_BYTES_PER_ROUND;
            int available;
            while (budget > 0 && (available = splitter.available()) > 0) {
                budget -= available;
                read = true;
                if (!splitter.readOnce()) {
                    ended = true;
                    return true;
                }
            }
            if (!processAlive && splitter.available() == 0) {
                // All a dead engine wrote is in the pipe, and it has been read. Not reading on to the end of
                // the stream keeps this from blocking while a process that escaped the engine holds the pipe.
                ended = true;
            }
            return read;
        } catch (IOException e) {
            ended = true;
            return true;
        } finally {
            reading.unlock();
        }
    }

    boolean ended() {
        return ended;
    }

    void close() {
        try {
            stdout.close();
        } catch (IOException e) {
            // already closed with the process
        }
    }

    /**
     * Forgets the telemetry of the previous search; in a {@code timed} one, the caller's reads measure how
     * long it waited for a CPU ({@link OutputLine#readWaitNanos}).
     */
    void beginSearch(boolean timed) {
        lastSearchInfo = null;
        infoLines = 0;
        timeReads = timed;
    }

    /** The last {@code info} line with search data since {@link #beginSearch}, or null. */
    String lastSearchInfo() {
        return lastSearchInfo;
    }

    long infoLines() {
        return infoLines;
    }

    /** Counts an answer that came when none was asked for, and was dropped. */
    void stray(String line) {
        strayAnswers++;
        lastStrayAnswer = line;
    }

    /** A short account of output that was not protocol: counts and the last unexpected line. */
    String oddities() {
        StringBuilder out = new StringBuilder();
        if (strayAnswers > 0) {
            String last = EngineText.shown(lastStrayAnswer);
            out.append(strayAnswers)
                    .append(" answer(s) nobody asked for dropped, last: '")
                    .append(last)
                    .append("'");
        }
        if (otherLines > 0) {
            out.append(out.isEmpty() ? "" : "; ");
            String last = EngineText.shown(lastOtherLine);
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
}
