package dev.taikai.enginehost.session;

import dev.taikai.rules.Color;

/**
 * What a {@code go} command asks for, with every time in milliseconds. One factory per form:
 * {@code btime/wtime} with {@code byoyomi}, {@code btime/wtime} with {@code binc/winc}, {@code
 * movetime}, {@code nodes}, {@code depth}, {@code infinite}; any of them can be sent as {@code go
 * ponder}. {@code b} is always sente and {@code w} gote, unless the engine has the swapped-clocks quirk.
 *
 * @param graceMillis how long past the allowed time the referee still takes a move (its overrun margin):
 *     the driver waits that much longer before it calls a silent engine stalled; never sent to the engine
 */
public record SearchLimits(
        Form form,
        long senteMillis,
        long goteMillis,
        long byoyomiMillis,
        long senteIncrementMillis,
        long goteIncrementMillis,
        long moveTimeMillis,
        long nodes,
        int depth,
        boolean ponder,
        long graceMillis) {
    public enum Form {
        BYOYOMI,
        FISCHER,
        MOVETIME,
        NODES,
        DEPTH,
        INFINITE
    }

    public SearchLimits {
        if (senteMillis < 0
                || goteMillis < 0
                || byoyomiMillis < 0
                || senteIncrementMillis < 0
                || goteIncrementMillis < 0
                || moveTimeMillis < 0
                || nodes < 0
                || depth < 0
                || graceMillis < 0) {
            throw new IllegalArgumentException("search limits must not be negative: " + form);
        }
    }

    public static SearchLimits byoyomi(long senteMillis, long goteMillis, long byoyomiMillis) {
        return new SearchLimits(Form.BYOYOMI, senteMillis, goteMillis, byoyomiMillis, 0, 0, 0, 0, 0, false, 0);
    }

    public static SearchLimits fischer(
            long senteMillis, long goteMillis, long senteIncrementMillis, long goteIncrementMillis) {
        return new SearchLimits(
                Form.FISCHER, senteMillis, goteMillis, 0, senteIncrementMillis, goteIncrementMillis, 0, 0, 0, false, 0);
    }

    public static SearchLimits movetime(long millis) {
        return new SearchLimits(Form.MOVETIME, 0, 0, 0, 0, 0, millis, 0, 0, false, 0);
    }

    public static SearchLimits nodes(long nodes) {
        return new SearchLimits(Form.NODES, 0, 0, 0, 0, 0, 0, nodes, 0, false, 0);
    }

    public static SearchLimits depth(int depth) {
        return new SearchLimits(Form.DEPTH, 0, 0, 0, 0, 0, 0, 0, depth, false, 0);
    }

    public static SearchLimits infinite() {
        return new SearchLimits(Form.INFINITE, 0, 0, 0, 0, 0, 0, 0, 0, false, 0);
    }

    /** The same limits sent as {@code go ponder}. */
    public SearchLimits pondering() {
        return with(true, graceMillis);
    }

    /** The same limits with {@code millis} of grace past the allowed time ({@link #graceMillis}). */
    public SearchLimits withGrace(long millis) {
        return with(ponder, millis);
    }

    private SearchLimits with(boolean ponder, long graceMillis) {
        return new SearchLimits(
                form,
                senteMillis,
                goteMillis,
                byoyomiMillis,
                senteIncrementMillis,
                goteIncrementMillis,
                moveTimeMillis,
                nodes,
                depth,
                ponder,
                graceMillis);
    }

    /** The {@code go} line; with {@code swappedClocks} the sente and gote values trade places. */
    public String goCommand(boolean swappedClocks) {
        StringBuilder go = new StringBuilder("go");
        if (ponder) {
            go.append(" ponder");
        }
        long b = swappedClocks ? goteMillis : senteMillis;
        long w = swappedClocks ? senteMillis : goteMillis;
        switch (form) {
            case BYOYOMI ->
                go.append(" btime ")
                        .append(b)
                        .append(" wtime ")
                        .append(w)
                        .append(" byoyomi ")
                        .append(byoyomiMillis);
            case FISCHER ->
                go.append(" btime ")
                        .append(b)
                        .append(" wtime ")
                        .append(w)
                        .append(" binc ")
                        .append(swappedClocks ? goteIncrementMillis : senteIncrementMillis)
                        .append(" winc ")
                        .append(swappedClocks ? senteIncrementMillis : goteIncrementMillis);
            case MOVETIME -> go.append(" movetime ").append(moveTimeMillis);
            case NODES -> go.append(" nodes ").append(nodes);
            case DEPTH -> go.append(" depth ").append(depth);
            case INFINITE -> go.append(" infinite");
        }
        return go.toString();
    }

    /** Whether these limits give the engine a time to keep to (so a move can overrun it). */
    public boolean timed() {
        return form == Form.BYOYOMI || form == Form.FISCHER || form == Form.MOVETIME;
    }

    /**
     * How long {@code side} may think under these limits, as the referee's clock allows it, or −1 when they
     * set no time (nodes, depth, infinite): under Fischer the main time left, the increment coming only after
     * the move; under byoyomi the main time left and the byoyomi.
     */
    public long allowedMillis(Color side) {
        return switch (form) {
            case BYOYOMI -> (side == Color.SENTE ? senteMillis : goteMillis) + byoyomiMillis;
            case FISCHER -> side == Color.SENTE ? senteMillis : goteMillis;
            case MOVETIME -> moveTimeMillis;
            case NODES, DEPTH, INFINITE -> -1;
        };
    }
}
