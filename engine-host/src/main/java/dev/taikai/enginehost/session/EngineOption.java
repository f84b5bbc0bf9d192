package dev.taikai.enginehost.session;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * One {@code option} line of the USI handshake: {@code option name <name> type <type> [default <x>]
 * [min <x>] [max <x>] [var <x>]*}. Names and values may contain spaces ({@code Skill Level}); a word is
 * part of the current field until the next keyword.
 */
public record EngineOption(String name, String type, String defaultValue, String min, String max, List<String> vars) {
    private static final Set<String> KEYWORDS = Set.of("name", "type", "default", "min", "max", "var");

    public EngineOption {
        vars = List.copyOf(vars);
    }

    /** The option described by {@code line}, or empty when the line is no well-formed option line. */
    public static Optional<EngineOption> parse(String line) {
        String[] words = line.trim().split("\\s+");
        if (words.length < 2 || !words[0].equals("option")) {
            return Optional.empty();
        }
        String name = null;
        String type = null;
        String defaultValue = null;
        String min = null;
        String max = null;
        List<String> vars = new ArrayList<>();
        int i = 1;
        while (i < words.length) {
            String keyword = words[i++];
            if (!KEYWORDS.contains(keyword)) {
                return Optional.empty();
            }
            StringBuilder value = new StringBuilder();
            while (i < words.length && !(KEYWORDS.contains(words[i]) && !(keyword.equals("name") && value.isEmpty()))) {
                value.append(value.isEmpty() ? "" : " ").append(words[i++]);
            }
            String text = value.toString();
            switch (keyword) {
                case "name" -> name = text;
                case "type" -> type = text;
                case "default" -> defaultValue = text.equals("<empty>") ? "" : text;
                case "min" -> min = text;
                case "max" -> max = text;
                default -> vars.add(text);
            }
        }
        if (name == null || name.isEmpty() || type == null) {
            return Optional.empty();
        }
        return Optional.of(new EngineOption(name, type, defaultValue, min, max, vars));
    }

    public boolean isCombo() {
        return type.equals("combo");
    }
}
