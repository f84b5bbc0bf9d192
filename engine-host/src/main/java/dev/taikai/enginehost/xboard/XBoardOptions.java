package dev.taikai.enginehost.xboard;

import dev.taikai.enginehost.session.EngineOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The options of {@code feature option="NAME -TYPE ..."} as the same {@link EngineOption} a USI engine's
 * declare: {@code -check} (check, default 0/1), {@code -spin} and {@code -slider} (spin: default, min, max),
 * {@code -combo} (combo: choices separated by {@code ///}, the default marked {@code *}), {@code -string},
 * {@code -file} and {@code -path} (filename: a file option's values are held to its catalog entry), and
 * {@code -button}, {@code -save}, {@code -reset} (button). The name may hold spaces.
 */
final class XBoardOptions {
    private static final List<String> TYPES =
            List.of("button", "save", "reset", "check", "string", "spin", "combo", "slider", "file", "path");

    private XBoardOptions() {}

    static Optional<EngineOption> parse(String text) {
        for (int at = text.indexOf(" -"); at > 0; at = text.indexOf(" -", at + 1)) {
            int end = text.indexOf(' ', at + 2);
            String type = text.substring(at + 2, end < 0 ? text.length() : end);
            if (!TYPES.contains(type)) {
                continue;
            }
            String name = text.substring(0, at).trim();
            String rest = end < 0 ? "" : text.substring(end + 1).trim();
            if (name.isEmpty()) {
                return Optional.empty();
            }
            return Optional.of(option(name, type, rest));
        }
        return Optional.empty();
    }

    private static EngineOption option(String name, String type, String rest) {
        String[] words = rest.isEmpty() ? new String[0] : rest.split("\\s+");
        return switch (type) {
            case "check" -> new EngineOption(name, "check", words.length > 0 ? words[0] : null, null, null, List.of());
            case "spin", "slider" ->
                new EngineOption(
                        name,
                        "spin",
                        words.length > 0 ? words[0] : null,
                        words.length > 1 ? words[1] : null,
                        words.length > 2 ? words[2] : null,
                        List.of());
            case "combo" -> {
                List<String> choices = new ArrayList<>();
                String chosen = null;
                for (String choice : rest.split("///")) {
                    String c = choice.trim();
                    if (c.startsWith("*")) {
                        c = c.substring(1).trim();
                        chosen = c;
                    }
                    if (!c.isEmpty()) {
                        choices.add(c);
                    }
                }
                yield new EngineOption(name, "combo", chosen, null, null, choices);
            }
            case "file", "path" -> new EngineOption(name, "filename", rest, null, null, List.of());
            case "string" -> new EngineOption(name, "string", rest, null, null, List.of());
            default -> new EngineOption(name, "button", null, null, null, List.of());
        };
    }
}
