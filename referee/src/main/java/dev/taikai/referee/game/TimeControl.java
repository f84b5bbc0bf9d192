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

    /** The longest time a control may give, a day: clocks in nanoseconds stay far from overflowing. */
    public static final long MAX_MILLIS = 86_400_000;

    /** The most nodes and the deepest depth a control may ask for. */
    public static final long MAX_NODES = 1_000_000_000_000L;

    public static final int MAX_DEPTH = 1000;

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
        if (Math.max(Math.max(mainMillis, incrementMillis), Math.max(byoyomiMillis, moveTimeMillis)) > MAX_MILLIS) {
            throw new IllegalArgumentException(
                    "a time control's times are at most " + MAX_MILLIS / 1000 + " seconds (a day)");
        }
        if (nodes > MAX_NODES || depth > MAX_DEPTH) {
            throw new IllegalArgumentException(
                    "a time control asks for at most " + MAX_NODES + " nodes or a depth of " + MAX_DEPTH);
        }
    }

    /** Parses the text form; the message of the exception says what is wrong. */
    public static TimeControl parse(String text) {
        String[] words = text.trim().toLowerCase(Locale.ROOT).split("\\s+");
        if (text.contains("/")) {
            throw new IllegalArgumentException("time control '" + text + "': moves/time controls are not supported;"
                    + " use 60, 60+0.5 or 60 byoyomi 1");
        }
        try {
            if (words.length == 2 && words[0].equals("movetime")) {
                return moveTime(millis(words[1]));
            }
            if (words.length == 2 && words[0].equals("nodes")) {
                return nodes(whole(words[1], MAX_NODES));
            }
            if (words.length == 2 && words[0].equals("depth")) {
                return depth((int) whole(words[1], MAX_DEPTH));
            }
            if (words.length == 2 && words[0].equals("byoyomi")) {
                return byoyomi(0, millis(words[1]));
            }
            if (words.length == 3 && words[1].equals("byoyomi") && words[0].contains("+")) {
                throw new IllegalArgumentException("an increment and a byoyomi are two time controls; give one");
            }
            if (words.length == 3 && words[1].equals("byoyomi")) {
                return byoyomi(mainMillis(words[0]), millis(words[2]));
            }
            if (words.length == 1 && words[0].equals("inf")) {
                throw new IllegalArgumentException("a search without a clock is 'nodes N' or 'depth N' here");
            }
            if (words.length == 1 && !words[0].isEmpty()) {
                int plus = words[0].indexOf('+');
                return plus < 0
                        ? suddenDeath(mainMillis(words[0]))
                        : fischer(mainMillis(words[0].substring(0, plus)), millis(words[0].substring(plus + 1)));
            }
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("time control '" + text + "': " + e.getMessage());
        }
        throw new IllegalArgumentException("time control '" + text + "' is none of: 60, 60+0.5, 60 byoyomi 1,"
                + " byoyomi 1, movetime 0.2, nodes 1000, depth 5");
    }

    /**
     * A main time: seconds as {@link #millis} reads them, or minutes and seconds as cutechess-cli writes
     * them ({@code 1:30}, {@code 0:10.5}: the seconds below 60).
     */
    private static long mainMillis(String text) {
        int colon = text.indexOf(':');
        if (colon < 0) {
            return millis(text);
        }
        String minutes = text.substring(0, colon);
        String seconds = text.substring(colon + 1);
        if (!minutes.matches("[0-9]{1,4}")
                || !SECONDS.matcher(seconds).matches()
                || seconds.startsWith(".")
                || new BigDecimal(seconds).compareTo(BigDecimal.valueOf(60)) >= 0) {
            throw new IllegalArgumentException("'" + text + "' is not minutes:seconds (1:30, 0:10.5)");
        }
        return millis(new BigDecimal(minutes)
                .multiply(BigDecimal.valueOf(60))
                .add(new BigDecimal(seconds))
                .toPlainString());
    }

    /** Seconds with up to three decimals, as milliseconds; the message says what is wrong with them. */
    private static long millis(String seconds) {
        if (!SECONDS.matcher(seconds).matches()) {
            throw new IllegalArgumentException("'" + seconds + "' is not a number of seconds");
        }
        BigDecimal millis = new BigDecimal(seconds).movePointRight(3);
        if (millis.stripTrailingZeros().scale() > 0) {
            throw new IllegalArgumentException(
                    "'" + seconds + "' has more than three decimals (times are whole milliseconds)");
        }
        if (millis.compareTo(BigDecimal.valueOf(MAX_MILLIS)) > 0) {
            throw new IllegalArgumentException(
                    "'" + seconds + "' seconds is more than a day (at most " + MAX_MILLIS / 1000 + ")");
        }
        return millis.longValueExact();
    }

    /** A whole number from 1 to {@code max}. */
    private static long whole(String text, long max) {
        if (!text.matches("[0-9]{1,19}") || new BigDecimal(text).compareTo(BigDecimal.valueOf(max)) > 0) {
            throw new IllegalArgumentException("'" + text + "' is not a whole number from 1 to " + max);
        }
        return Long.parseLong(text);
    }

    private static final java.util.regex.Pattern SECONDS =
            java.util.regex.Pattern.compile("[0-9]+(\\.[0-9]*)?|\\.[0-9]+");

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
