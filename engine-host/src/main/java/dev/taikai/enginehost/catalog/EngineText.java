package dev.taikai.enginehost.catalog;

import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * What may reach an engine's pipe or a game record as text: engine ids, entrant names, option names
 * and values. The one check of it, called wherever such text is made (a catalog, a tournament file, a
 * flag, a protobuf message from the network) and once more by the driver before it writes to the pipe,
 * so that no hop accepts what the next one refuses. Every refusal is an {@link IllegalArgumentException}
 * whose message starts with the field at fault.
 *
 * <p>Text is one line of printable characters: no control character (CR, LF, NUL, ESC, DEL, NEL and the
 * rest of C0 and C1), no Unicode line or paragraph separator, no lone surrogate (which cannot be written
 * as UTF-8), and of bounded length.
 */
public final class EngineText {
    /** Engine ids: catalog names, never command lines. */
    public static final Pattern ENGINE_ID = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,63}");

    public static final int MAX_NAME = 64;
    public static final int MAX_OPTION_NAME = 100;
    public static final int MAX_OPTION_VALUE = 256;
    public static final int MAX_OPTIONS = 64;

    /** Set by Taikai from the tournament's variant, never by a caller. */
    private static final java.util.Set<String> VARIANT_OPTIONS = java.util.Set.of("UCI_Variant", "USI_Variant");

    private EngineText() {}

    /** {@code id} when it is a catalog id. */
    public static String engineId(String field, String id) {
        if (id == null || !ENGINE_ID.matcher(id).matches()) {
            throw new IllegalArgumentException(field + " '" + shown(id) + "' is not a catalog id (1 to 64 letters,"
                    + " digits, '.', '-', '_'; engines are named by catalog id, never by a command line)");
        }
        return id;
    }

    /**
     * {@code name} when it is a usable entrant or engine name: 1 to 64 printable characters on one line,
     * with no space at either end.
     */
    public static String name(String field, String name) {
        line(field, name, MAX_NAME);
        if (name.isBlank()) {
            throw new IllegalArgumentException(field + " is empty");
        }
        if (!name.equals(name.strip())) { // 'a ' and 'a' would read as one engine in every table and record
            throw new IllegalArgumentException(field + " '" + name + "' begins or ends with a space");
        }
        return name;
    }

    /**
     * {@code options} when every name and value can be written into a {@code setoption} line as it is: at
     * most {@value #MAX_OPTIONS} options; names of 1 to {@value #MAX_OPTION_NAME} characters without
     * surrounding spaces and without the word {@code value} between spaces (the line would read another
     * way); values of at most {@value #MAX_OPTION_VALUE}; the variant option left to Taikai.
     *
     * @param field how to name the options in errors, e.g. {@code entrants[2].options}
     */
    public static Map<String, String> options(String field, Map<String, String> options) {
        if (options.size() > MAX_OPTIONS) {
            throw new IllegalArgumentException(field + " has " + options.size() + " options; at most " + MAX_OPTIONS);
        }
        options.forEach((name, value) -> option(field, name, value));
        return options;
    }

    /** One option of {@link #options}. */
    public static void option(String field, String name, String value) {
        if (name == null || name.isEmpty()) {
            throw new IllegalArgumentException(field + ": an option needs a name");
        }
        String at = field + "['" + shown(name) + "']";
        line(at + " name", name, MAX_OPTION_NAME);
        if (!name.equals(name.strip())) {
            throw new IllegalArgumentException(at + " name starts or ends with a space");
        }
        if ((" " + name + " ").contains(" value ")) {
            throw new IllegalArgumentException(
                    at + " name holds the word 'value', which would end the name in the setoption line");
        }
        if (VARIANT_OPTIONS.contains(name)) {
            throw new IllegalArgumentException(at + ": the variant is set by Taikai from the tournament's variant");
        }
        line(at, value == null ? "" : value, MAX_OPTION_VALUE);
    }

    /**
     * Whether an option's name says that its value names a file or a directory ({@code Debug Log File},
     * {@code EvalFile}, {@code SyzygyPath}, {@code BookDir}): such options may write or read anywhere the
     * engine's user can, so they are set only where the catalog entry allows them.
     */
    public static boolean namesAFile(String optionName) {
        String name = optionName.toLowerCase(Locale.ROOT);
        return name.contains("file")
                || name.contains("path")
                || name.contains("dir")
                || name.contains("folder")
                || name.contains("log");
    }

    /**
     * {@code text} when it is one line of printable characters of at most {@code max} (a tournament's name,
     * a reason); otherwise an {@link IllegalArgumentException} naming {@code field}.
     */
    public static String line(String field, String text, int max) {
        if (text == null) {
            throw new IllegalArgumentException(field + " is missing");
        }
        if (text.length() > max) {
            throw new IllegalArgumentException(field + " is " + text.length() + " characters long; at most " + max);
        }
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (Character.isHighSurrogate(c) && i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1))) {
                i++; // a character outside the Basic Multilingual Plane
                continue;
            }
            boolean loneSurrogate = Character.isSurrogate(c);
            if (Character.isISOControl(c) || c == '\u2028' || c == '\u2029' || loneSurrogate) {
                throw new IllegalArgumentException(String.format(
                        Locale.ROOT,
                        "%s holds %s (U+%04X at %d): it must be one line of printable text",
                        field,
                        loneSurrogate ? "a lone surrogate" : "a control character",
                        (int) c,
                        i));
            }
        }
        return text;
    }

    /** {@code text} as it can be shown in a one-line message: cut, with control characters escaped. */
    public static String shown(String text) {
        if (text == null) {
            return "";
        }
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < text.length() && out.length() < 60; i++) {
            char c = text.charAt(i);
            out.append(
                    Character.isISOControl(c) || Character.isSurrogate(c) || c == '\u2028' || c == '\u2029'
                            ? String.format(Locale.ROOT, "\\u%04x", (int) c)
                            : String.valueOf(c));
        }
        return out.length() < text.length() && text.length() > 60 ? out + "..." : out.toString();
    }
}
