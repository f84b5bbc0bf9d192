package dev.taikai.enginehost.session;

/**
 * A line an engine wrote that a caller waits for, with the time it was read at the pipe ({@link
 * System#nanoTime()}) and how long the reading thread waited for a CPU during the read that brought it
 * ({@code readWaitNanos}: measured in a timed search, 0 otherwise; see {@link CpuWait#callerWaited}); {@link
 * #END} marks the end of the engine's output.
 */
public record OutputLine(String text, long readNanos, long readWaitNanos) {
    public static final OutputLine END = new OutputLine(null, 0, 0);

    /**
     * Whether the line is {@code keyword}, or starts with it and white space (a space or a tab: USI, as UCI,
     * allows any white space between tokens).
     */
    public boolean is(String keyword) {
        return text != null
                && text.startsWith(keyword)
                && (text.length() == keyword.length()
                        || text.charAt(keyword.length()) == ' '
                        || text.charAt(keyword.length()) == '\t');
    }
}
