package dev.taikai.rules;

/**
 * Why a game ended: one closed list for the whole project. The first four are decided by the rules
 * from the moves alone; the others are decided by the referee outside the rules.
 */
public enum Termination {
    /** The side to move is in check and has no legal move; it loses. */
    CHECKMATE(true),
    /** The side to move is not in check and has no legal move; it loses all the same. */
    STALEMATE(true),
    /** The repetition rule ended the game: a loss in Minishogi, a draw in Kyoto shogi. */
    REPETITION(true),
    /** Minishogi: fourfold repetition in which one player checked with every move; that player loses. */
    PERPETUAL_CHECK(true),
    /** A player resigned ({@code bestmove resign}). */
    RESIGNATION(false),
    /** A player ran out of time. */
    TIME_FORFEIT(false),
    /** A player sent a move that is malformed or illegal (including {@code bestmove win}). */
    ILLEGAL_MOVE(false),
    /** The referee ended the game on a move limit or on the engines' scores. */
    ADJUDICATION(false),
    /** A player's engine process died or closed its pipes. */
    DISCONNECT(false),
    /** A player's engine missed a deadline to answer. */
    STALL(false);

    private final boolean byRules;

    Termination(boolean byRules) {
        this.byRules = byRules;
    }

    /** True for the endings the rules decide from the moves; false for those the referee decides. */
    public boolean byRules() {
        return byRules;
    }
}
