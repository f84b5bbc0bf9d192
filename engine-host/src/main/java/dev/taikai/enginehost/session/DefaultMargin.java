package dev.taikai.enginehost.session;

/**
 * The overrun margin that follows from a time control when nobody chose one: how far past its allowance
 * a move may end before the engine loses on time. One rule for the referee's clocks and for the engine
 * check, so that what the check passes a tournament with default settings does not forfeit
 * (docs/tournaments.md gives the measurements behind it):
 *
 * <ul>
 *   <li>a fixed time per move, or a byoyomi, of {@code t}: a tenth of {@code t}, at least {@value
 *       #FLOOR_MILLIS} ms (the scheduling noise of a loaded machine, measured up to 56 ms with four
 *       engines on two cores), but less than {@code t} (at most nine tenths), so that an engine that takes
 *       twice its time still loses;
 *   <li>Fischer and sudden death, where the engine spends its own clock: {@value #FLOOR_MILLIS} ms, or a
 *       tenth of the increment when that is more;
 *   <li>nodes and depth: none, there is no time to overrun.
 * </ul>
 */
public final class DefaultMargin {
    /** Below this, the time a loaded machine takes to schedule an engine is no fault of the engine. */
    public static final long FLOOR_MILLIS = 100;

    private DefaultMargin() {}

    /** The margin for a move that may take {@code allowanceMillis} (movetime, byoyomi). */
    public static long perMove(long allowanceMillis) {
        return Math.min(Math.max(FLOOR_MILLIS, allowanceMillis / 10), allowanceMillis * 9 / 10);
    }

    /** The margin for an engine that spends its own clock with {@code incrementMillis} per move. */
    public static long ownClock(long incrementMillis) {
        return Math.max(FLOOR_MILLIS, incrementMillis / 10);
    }

    /** The margin for {@code side} searching under {@code limits}. */
    public static long of(SearchLimits limits, dev.taikai.rules.Color side) {
        return switch (limits.form()) {
            case MOVETIME -> perMove(limits.moveTimeMillis());
            case BYOYOMI -> limits.byoyomiMillis() > 0 ? perMove(limits.byoyomiMillis()) : ownClock(0);
            case FISCHER ->
                ownClock(
                        side == dev.taikai.rules.Color.SENTE
                                ? limits.senteIncrementMillis()
                                : limits.goteIncrementMillis());
            case NODES, DEPTH, INFINITE -> 0;
        };
    }
}
