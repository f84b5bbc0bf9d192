package dev.taikai.enginehost.catalog;

/**
 * Limits on one engine process.
 *
 * @param memoryMegabytes address-space limit (RLIMIT_AS through {@code prlimit}); 0 for none
 * @param processes process and thread limit (RLIMIT_NPROC through {@code prlimit}); 0 for none. The kernel
 *     counts it per user and does not apply it to root, so it bites when engines run under their own user.
 * @param maxLineBytes longest output line kept; longer lines are cut there and the rest is discarded unread
 * @param stderrLines how many of the last standard-error lines are kept for diagnostics
 */
public record ProcessLimits(long memoryMegabytes, int processes, int maxLineBytes, int stderrLines) {
    public static final ProcessLimits DEFAULT = new ProcessLimits(4096, 0, 64 * 1024, 50);

    public ProcessLimits {
        if (memoryMegabytes < 0 || processes < 0 || maxLineBytes < 256 || stderrLines < 1) {
            throw new IllegalArgumentException("invalid process limits: memory " + memoryMegabytes
                    + " MB, processes " + processes + ", line " + maxLineBytes + " bytes, stderr " + stderrLines
                    + " lines (line length at least 256, stderr at least 1)");
        }
    }
}
