package dev.taikai.deploy;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reading what a started process wrote to its log, to tell a user in one line why it did not start. A
 * log may be appended to by several starts; each start reads from the offset at which it began.
 */
public final class ProcessLogs {
    private static final int MAX_READ = 1 << 20;
    private static final int MAX_REASON = 240;
    /** A log4j or JBoss log line: timestamp, level, logger in brackets, maybe a thread in parentheses. */
    private static final Pattern LOGGED =
            Pattern.compile(".*?\\b(ERROR|FATAL|SEVERE)\\b\\s*(\\[[^\\]]*\\])?\\s*(\\([^)]*\\))?\\s*(.*)");

    private ProcessLogs() {}

    /** The size of {@code log} now (0 when it does not exist): where the next start's output begins. */
    public static long offset(Path log) {
        try {
            return Files.exists(log) ? Files.size(log) : 0;
        } catch (IOException e) {
            return 0;
        }
    }

    /** What was written to {@code log} from {@code offset} on (at most its last megabyte). */
    public static String since(Path log, long offset) {
        try (RandomAccessFile file = new RandomAccessFile(log.toFile(), "r")) {
            long start = Math.max(offset, file.length() - MAX_READ);
            byte[] bytes = new byte[(int) Math.max(0, file.length() - start)];
            file.seek(start);
            file.readFully(bytes);
            return new String(bytes, StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "";
        }
    }

    /** Whether a process's log, from {@code offset} on, says that it could not bind a port. */
    public static boolean bindFailed(Path log, long offset) {
        String text = since(log, offset);
        return text.contains("Address already in use")
                || text.contains("already bound")
                || text.contains("seems to be in use by another process");
    }

    /**
     * Why a process did not start, in words, from what it logged since {@code offset}: a port taken by
     * another program, else its last error line, else {@code fallback}.
     */
    public static String reason(Path log, long offset, String fallback) {
        if (bindFailed(log, offset)) {
            return "a port it was given was taken by another program before it could bind it";
        }
        List<String> lines = since(log, offset).lines().toList();
        for (int i = lines.size() - 1; i >= 0; i--) {
            String line = lines.get(i).strip();
            Matcher logged = LOGGED.matcher(line);
            String text = logged.matches() && !logged.group(4).isBlank()
                    ? logged.group(4)
                    : line.toLowerCase(java.util.Locale.ROOT).contains("error:") ? line : null;
            if (text != null) {
                return text.length() > MAX_REASON ? text.substring(0, MAX_REASON) + "..." : text;
            }
        }
        return fallback;
    }
}
