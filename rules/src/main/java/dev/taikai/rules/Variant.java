package dev.taikai.rules;

import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * A 5×5 shogi variant: which pieces exist and how they move, promotion, drops, repetition and how the
 * variant is written. Each subclass states its rules in its own documentation.
 */
public abstract sealed class Variant permits Minishogi, KyotoShogi {
    public static final Minishogi MINISHOGI = new Minishogi();
    public static final KyotoShogi KYOTOSHOGI = new KyotoShogi();

    private final String name;
    private final String startSfen;
    private final int repetitionLimit;
    private final byte[] movementOfType;
    private final int[] handKinds;

    Variant(String name, String startSfen, int repetitionLimit, byte[] movementOfType, int[] handKinds) {
        this.name = name;
        this.startSfen = startSfen;
        this.repetitionLimit = repetitionLimit;
        this.movementOfType = movementOfType;
        this.handKinds = handKinds;
    }

    public static List<Variant> all() {
        return List.of(MINISHOGI, KYOTOSHOGI);
    }

    /** By the names USI engines use for {@code UCI_Variant}: {@code minishogi}, {@code kyotoshogi}. */
    public static Optional<Variant> byName(String name) {
        String wanted = name.toLowerCase(Locale.ROOT);
        return all().stream().filter(v -> v.name.equals(wanted)).findFirst();
    }

    /** The USI variant name: {@code minishogi} or {@code kyotoshogi}. */
    public String name() {
        return name;
    }

    /** Human-readable name, for records and messages. */
    public abstract String displayName();

    public String startSfen() {
        return startSfen;
    }

    /** How many times a position must occur for the game to end by repetition. */
    public int repetitionLimit() {
        return repetitionLimit;
    }

    /** The {@link Movement} of a piece type, or {@link Movement#NONE} when the type does not exist here. */
    final int movement(int type) {
        return movementOfType[type];
    }

    public final boolean hasType(int type) {
        return movementOfType[type] != Movement.NONE;
    }

    /** Kinds that can be in hand, in canonical SFEN order (R B G S N L P). */
    final int[] handKinds() {
        return handKinds;
    }

    /** Kinds that can be in hand, in the order hands are written in {@code notation}. */
    abstract int[] handKinds(Notation notation);

    /** A piece type as written on the board and in drops, upper case: {@code +P}, {@code T}, ... */
    public abstract String typeLetters(int type, Notation notation);

    /** A kind as written in a hand, upper case. */
    abstract char handLetter(int kind, Notation notation);

    /** Appends the legal board moves of a non-king piece to {@code out}; returns the new count. */
    abstract int addBoardMoves(int colorIndex, int type, int from, int targets, int[] out, int count);

    /** Appends the legal drops on {@code targets} (empty squares) to {@code out}; returns the new count. */
    abstract int addDrops(Position position, int targets, int[] out, int count);

    /** Why a drop that is not among the legal moves is illegal, for the variant's own drop rules. */
    abstract Optional<String> dropRuleViolation(Position position, int type, int to);

    /**
     * Why {@code suffix} ("", "+" or "-") is wrong for the piece on {@code from} moving to {@code to},
     * in the first of {@code notations}; empty when one of them writes the move that way.
     */
    abstract Optional<String> suffixViolation(
            Position position, int from, int to, String suffix, List<Notation> notations);

    /** The suffix of a board move in USI: "", "+" or "-". */
    abstract String boardMoveSuffix(int move, Notation notation);

    @Override
    public String toString() {
        return name;
    }
}
