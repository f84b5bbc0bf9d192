package dev.taikai.enginehost.xboard;

import dev.taikai.enginehost.session.EngineOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What an XBoard engine announced with {@code feature} lines after {@code protover 2}: {@code name=value}
 * pairs, a value a number or a quoted string; {@code option="..."} may come many times. Features the
 * engine did not name keep the defaults of the protocol (version 2).
 */
final class Features {
    /** The features Taikai uses or that cannot change what the engine does here; the rest are rejected. */
    private static final List<String> ACCEPTED = List.of(
            "ping",
            "setboard",
            "playother",
            "time",
            "draw",
            "sigint",
            "sigterm",
            "reuse",
            "analyze",
            "myname",
            "variants",
            "colors",
            "ics",
            "name",
            "pause",
            "nps",
            "debug",
            "memory",
            "smp",
            "egt",
            "option",
            "exclude",
            "setscore",
            "highlight",
            "usermove",
            "done");

    private final Map<String, String> values = new LinkedHashMap<>();
    private final List<EngineOption> options = new ArrayList<>();
    private final List<String> unreadableOptions = new ArrayList<>();

    /**
     * Reads one {@code feature} line and returns the answers to send ({@code accepted NAME} or {@code
     * rejected NAME}, a line each), in order. {@code san=1} is rejected: moves are read in coordinates.
     */
    String read(String line) {
        StringBuilder answers = new StringBuilder();
        int i = "feature".length();
        while (i < line.length()) {
            while (i < line.length() && line.charAt(i) == ' ') {
                i++;
            }
            int equals = line.indexOf('=', i);
            if (equals < 0) {
                break;
            }
            String name = line.substring(i, equals).trim();
            String value;
            if (equals + 1 < line.length() && line.charAt(equals + 1) == '"') {
                int close = line.indexOf('"', equals + 2);
                if (close < 0) {
                    close = line.length();
                }
                value = line.substring(equals + 2, close);
                i = close + 1;
            } else {
                int space = line.indexOf(' ', equals);
                int end = space < 0 ? line.length() : space;
                value = line.substring(equals + 1, end);
                i = end;
            }
            if (name.isEmpty() || name.contains(" ")) {
                break;
            }
            if (name.equals("option")) {
                XBoardOptions.parse(value).ifPresentOrElse(options::add, () -> unreadableOptions.add(value));
            } else {
                values.put(name, value);
            }
            answers.append(answers.isEmpty() ? "" : "\n")
                    .append(ACCEPTED.contains(name) ? "accepted " : "rejected ")
                    .append(name);
        }
        return answers.toString();
    }

    /** A boolean feature: {@code 1} is true; a feature never named has {@code byDefault}. */
    boolean flag(String name, boolean byDefault) {
        String value = values.get(name);
        return value == null ? byDefault : value.equals("1");
    }

    Optional<String> value(String name) {
        return Optional.ofNullable(values.get(name));
    }

    /** {@code done=1} was said; {@code done=0} asks for time (up to the handshake's deadline). */
    Optional<Boolean> done() {
        return value("done").map(v -> v.equals("1"));
    }

    List<EngineOption> options() {
        return List.copyOf(options);
    }

    List<String> unreadableOptions() {
        return List.copyOf(unreadableOptions);
    }

    /** The variants the engine lists ({@code variants="minishogi,kyotoshogi"}); none when it named none. */
    List<String> variants() {
        return value("variants")
                .map(v -> List.of(v.split(",")).stream().map(String::trim).toList())
                .orElse(List.of());
    }
}
