package dev.taikai.rules;

import java.util.Locale;
import java.util.Optional;

/**
 * The two ways Kyoto shogi is written. Minishogi reads the same in both.
 *
 * <ul>
 *   <li>{@link #FAIRY_STOCKFISH}: the notation of RULES.md and of the engines: faces as {@code L +L S +S
 *       N +N P +P}, hands {@code L S N P}, a {@code +} suffix when an unpromoted face turns over and
 *       {@code -} when a promoted face does. Taikai prints this by default and speaks it to engines.
 *   <li>{@link #LISHOGI}: one letter per face ({@code T L S B G N P R}), hands {@code T G S P}, and a
 *       {@code +} on every turning move. Accepted as input and printed on request.
 * </ul>
 */
public enum Notation {
    FAIRY_STOCKFISH("fsf"),
    LISHOGI("lishogi");

    private final String id;

    Notation(String id) {
        this.id = id;
    }

    /** The name used on the command line: {@code fsf} or {@code lishogi}. */
    public String id() {
        return id;
    }

    public static Optional<Notation> byId(String id) {
        String wanted = id.toLowerCase(Locale.ROOT);
        for (Notation notation : values()) {
            if (notation.id.equals(wanted)) {
                return Optional.of(notation);
            }
        }
        return Optional.empty();
    }
}
