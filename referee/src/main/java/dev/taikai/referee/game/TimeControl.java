package dev.taikai.referee.game;

import java.math.BigDecimal;
import java.util.Locale;

/**
 * How much an engine may think: sudden death, Fischer increment, byoyomi (main time, then a fixed time
 * for every move), a fixed time per move, a node count or a depth. Times in milliseconds.
 *
 * <p>Written as text ({@link #parse}): {@code 60} (sudden death, seconds), {@code 60+0.5} (Fischer),
 * {@code 60 byoyomi 1} or {@code byoyomi 1} (main time then byoyomi), {@code movetime 0.2}, {@code
 * nodes 1000}, {@code depth 5}.
 */
public record TimeControl(
        Kind kind,
        long mainMillis,
        long incrementMillis,
        long byoyomiMillis,
        long moveTimeMillis,
        long nodes,
        int depth) {
    public enum Kind {
        SUDDEN_DEATH,
        FISCHER,
        BYOYOMI,
        MOVETIME,
        NODES,
        DEPTH
    }

    public static TimeControl suddenDeath(long mainMillis) {
        return new TimeControl(Kind.SUDDEN_DEATH, mainMillis, 0, 0, 0, 0, 0);
    }

    public static TimeControl fischer(long mainMillis, long incrementMillis) {
        return incrementMillis == 0
                ? suddenDeath(mainMillis)
                : new TimeControl(Kind.FISCHER, mainMillis, incrementMillis, 0, 0, 0, 0);
    }

    public static TimeControl byoyomi(long mainMillis, long byoyomiMillis) {
        return new TimeControl(Kind.BYOYOMI, mainMillis, 0, byoyomiMillis, 0, 0, 0);
    }

    public static TimeControl moveTime(long millis) {
        return new TimeControl(Kind.MOVETIME, 0, 0, 0, millis, 0, 0);
    }

    public static TimeControl nodes(long nodes) {
        return new TimeControl(Kind.NODES, 0, 0, 0, 0, nodes, 0);
    }

    public static TimeControl depth(int depth) {
        return new TimeControl(Kind.DEPTH, 0, 0, 0, 0, 0, depth);
    }

    public TimeControl {
        if (mainMillis < 0
                || incrementMillis < 0
                || byoyomiMillis < 0
                || moveTimeMillis < 0
                || nodes < 0
                || depth < 0) {
            throw new IllegalArgumentException("a time control cannot be negative");
        }
        boolean valid = switch (kind) {
            case SUDDEN_DEATH -> mainMillis > 0;
            case FISCHER -> mainMillis > 0 && incrementMillis > 0;
            case BYOYOMI -> byoyomiMillis > 0;
            case MOVETIME -> moveTimeMillis > 0;
            case NODES -> nodes > 0;
            case DEPTH -> depth > 0;
        };
        if (!valid) {
            throw new IllegalArgumentException("a "
                    + kind.name().toLowerCase(Locale.ROOT).replace('_', ' ') + " time control needs a positive amount");
        }
    }

    /** Parses the text form; the message of the exception says what is wrong. */
    public static TimeControl parse(String text) {
        String[] words = text.trim().toLowerCase(Locale.ROOT).split("\\s+");
        try {
            if (words.length == 2 && words[0].equals("movetime")) {
                return moveTime(millis(words[1]));
            }
            if (words.length == 2 && words[0].equals("nodes")) {
                return nodes(Long.parseLong(words[1]));
            }
            if (words.length == 2 && words[0].equals("depth")) {
                return depth(Integer.parseInt(words[1]));
            }
            if (words.length == 2 && words[0].equals("byoyomi")) {
                return byoyomi(0, millis(words[1]));
            }
            if (words.length == 3 && words[1].equals("byoyomi")) {
                return byoyomi(millis(words[0]), millis(words[2]));
            }
            if (words.length == 1 && !words[0].isEmpty()) {
                int plus = words[0].indexOf('+');
                return plus < 0
                        ? suddenDeath(millis(words[0]))
                        : fischer(millis(words[0].substring(0, plus)), millis(words[0].substring(plus + 1)));
            }
        } catch (NumberFormatException | ArithmeticException e) {
            throw new IllegalArgumentException("time control '" + text + "': not a number where one is expected");
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("time control '" + text + "': " + e.getMessage());
        }
        throw new IllegalArgumentException("time control '" + text + "' is none of: 60, 60+0.5, 60 byoyomi 1,"
                + " byoyomi 1, movetime 0.2, nodes 1000, depth 5");
    }

    /** Seconds with up to three decimals, as milliseconds. */
    private static long millis(String seconds) {
        return new BigDecimal(seconds).movePointRight(3).longValueExact();
    }

    /** The text form, which {@link #parse} reads back to an equal value. */
    @Override
    public String toString() {
        return switch (kind) {
            case SUDDEN_DEATH -> seconds(mainMillis);
            case FISCHER -> seconds(mainMillis) + "+" + seconds(incrementMillis);
            case BYOYOMI -> (mainMillis == 0 ? "" : seconds(mainMillis) + " ") + "byoyomi " + seconds(byoyomiMillis);
            case MOVETIME -> "movetime " + seconds(moveTimeMillis);
            case NODES -> "nodes " + nodes;
            case DEPTH -> "depth " + depth;
        };
    }

    private static String seconds(long millis) {
        return BigDecimal.valueOf(millis).movePointLeft(3).stripTrailingZeros().toPlainString();
    }

    /** True when the referee keeps a clock for this control (not for nodes or depth). */
    public boolean timed() {
        return kind != Kind.NODES && kind != Kind.DEPTH;
    }
}
