package dev.taikai.enginehost.session;

/**
 * An engine's {@code bestmove}, with the times measured at the pipe.
 *
 * @param move the move text as sent ({@code resign} and {@code win} included; only syntax is checked here,
 *     legality is the referee's)
 * @param ponder the {@code ponder} move, or null
 * @param goWrittenNanos {@link System#nanoTime()} as the {@code go} (or {@code ponderhit}) line was written to the
 *     engine, taken just before the write
 * @param bestMoveReadNanos {@link System#nanoTime()} when the {@code bestmove} line was read
 * @param info the last {@code info} line that carried search data, or null
 * @param infoLines how many {@code info} lines the engine sent during this search
 * @param cpuWaitNanos how long the engine was ready to run with no CPU during the search ({@link CpuWait}),
 *     plus how long the caller's thread waited for one while it wrote {@code go} and read {@code bestmove}; 0
 *     where not measured
 */
public record BestMove(
        String move,
        String ponder,
        long goWrittenNanos,
        long bestMoveReadNanos,
        SearchInfo info,
        long infoLines,
        long cpuWaitNanos)
        implements MoveReply {
    public boolean resigned() {
        return move.equals("resign");
    }

    /** {@code bestmove win}: an entering-king declaration, which does not exist in these variants. */
    public boolean declaredWin() {
        return move.equals("win");
    }

    /** Time between writing {@code go} and reading {@code bestmove}, in nanoseconds. */
    public long engineNanos() {
        return bestMoveReadNanos - goWrittenNanos;
    }
}
