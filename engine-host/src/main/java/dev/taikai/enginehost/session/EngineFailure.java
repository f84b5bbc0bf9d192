package dev.taikai.enginehost.session;

import dev.taikai.enginehost.catalog.EngineText;
import dev.taikai.rules.Termination;
import java.util.List;
import java.util.Locale;

/**
 * An engine session that ended because the engine misbehaved. Once a session has failed, the engine
 * process is gone and every later call returns the same failure.
 *
 * @param detail one line saying what happened, with the deadline or exit status
 * @param stderrTail the last lines the engine wrote to standard error
 */
public record EngineFailure(Kind kind, String detail, List<String> stderrTail) implements MoveReply, StartResult {
    public enum Kind {
        /** The program could not be started at all (not found, not executable). */
        START_FAILED,
        /** The engine missed a deadline: usiok, readyok, bestmove, or bestmove after stop. */
        STALL,
        /** The engine's process ended or closed its output. */
        DISCONNECT,
        /** The engine answered with something that is not what the protocol allows there. */
        PROTOCOL_ERROR,
        /** The engine does not offer the variant to be played. */
        VARIANT_UNSUPPORTED
    }

    public EngineFailure {
        stderrTail = List.copyOf(stderrTail);
    }

    /** How a game ends when its engine fails this way. */
    public Termination termination() {
        return switch (kind) {
            case STALL -> Termination.STALL;
            case PROTOCOL_ERROR -> Termination.ILLEGAL_MOVE;
            case START_FAILED, DISCONNECT, VARIANT_UNSUPPORTED -> Termination.DISCONNECT;
        };
    }

    /**
     * True when every game of this engine in this tournament would fail alike: it does not offer the variant,
     * or cannot be given what the tournament asks of it (a position to begin at, a node limit). A
     * tournament stops on the first such game, where other failures (a crash, a stall) may pass.
     */
    public boolean failsEveryGame() {
        return kind == Kind.VARIANT_UNSUPPORTED;
    }

    /** Whether {@code text}, a failure as {@link #toString} wrote it (in a game's record), {@link #failsEveryGame}. */
    public static boolean failsEveryGame(String text) {
        return text.startsWith(name(Kind.VARIANT_UNSUPPORTED) + ": ");
    }

    private static String name(Kind kind) {
        return kind.name().toLowerCase(Locale.ROOT).replace('_', ' ');
    }

    /** "stall: no readyok within 10000 ms of isready; stderr: ..." with the last line of standard error. */
    @Override
    public String toString() {
        String text = name(kind) + ": " + detail;
        if (!stderrTail.isEmpty()) {
            String last = stderrTail.get(stderrTail.size() - 1);
            text += "; stderr: " + EngineText.shown(last); // the engine's text, its control characters escaped
        }
        return text;
    }
}
