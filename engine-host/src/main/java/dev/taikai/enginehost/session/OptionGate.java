package dev.taikai.enginehost.session;

import dev.taikai.enginehost.catalog.EngineSpec;
import dev.taikai.enginehost.catalog.EngineText;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The last check of an option before its {@code setoption} line is written to the engine's pipe, made
 * whatever the caller checked before: the text is one printable line ({@link EngineText}), the engine
 * declared the option in its handshake, and an option that names a file is one the catalog entry allows
 * ({@link EngineSpec#fileOptions}), set to a path inside the engine's working directory.
 */
public final class OptionGate {
    /** The engine's options named in a refusal at most; an engine may declare thousands. */
    static final int NAMES_SHOWN = 40;

    private OptionGate() {}

    /**
     * Why {@code name} is not an option the engine declared in its handshake (a misspelling, usually), with
     * the options it has; empty when it declared it.
     */
    public static Optional<String> undeclared(EngineSpec spec, EngineIdentity identity, String name) {
        if (identity.option(name).isPresent()) {
            return Optional.empty();
        }
        // the engine's names as text that cannot move a terminal's cursor, and not all of a flood of them
        List<String> names = identity.options().stream()
                .map(EngineOption::name)
                .filter(n -> !n.equals(identity.variantOption()))
                .map(EngineText::shown)
                .toList();
        String has = names.stream().limit(NAMES_SHOWN).collect(Collectors.joining(", "))
                + (names.size() > NAMES_SHOWN ? " and " + (names.size() - NAMES_SHOWN) + " more" : "");
        return Optional.of("option '" + EngineText.shown(name) + "' is not an option of engine '" + spec.id() + "' ("
                + (names.isEmpty() ? "it lists none" : "it has: " + has) + ")");
    }

    /** Why {@code name} may not be set to {@code value} on this engine, or empty when it may. */
    public static Optional<String> refusal(
            EngineSpec spec, EngineIdentity identity, Path workingDirectory, String name, String value) {
        try {
            EngineText.option("option", name, value);
        } catch (IllegalArgumentException e) {
            return Optional.of(e.getMessage());
        }
        Optional<EngineOption> declared = identity.option(name);
        if (declared.isEmpty()) {
            return undeclared(spec, identity, name);
        }
        Optional<String> outside = outsideDeclaration(spec, declared.get(), value);
        if (outside.isPresent()) {
            return outside;
        }
        boolean namesAFile =
                EngineText.namesAFile(name) || declared.get().type().equals("filename");
        if (!namesAFile || value.isEmpty()) {
            return Optional.empty();
        }
        if (!spec.fileOptions().contains(name)) {
            return Optional.of(spec.fileOptionRefusal(name));
        }
        if (!value.equals(value.strip()) || value.contains("  ")) {
            // the engine reads the value as words: ' /tmp/x' is '/tmp/x' to it, outside the directory checked
            return Optional.of("option '" + name + "' = '" + EngineText.shown(value)
                    + "': a file option's value neither begins nor ends with a space, nor holds two in a row");
        }
        try {
            Path resolved = workingDirectory.resolve(value).normalize();
            if (resolved.startsWith(workingDirectory)) {
                return Optional.empty();
            }
        } catch (InvalidPathException e) {
            // not a path at all: refused below
        }
        return Optional.of("option '" + name + "' = '" + EngineText.shown(value)
                + "' is not a path inside the engine's working directory " + workingDirectory);
    }

    /**
     * Why {@code value} is not a value the engine declared for {@code option}: a spin's whole number within
     * its bounds, a check's true or false (XBoard's 1 or 0 too), one of a combo's choices (in any case);
     * empty when it is one, or the option's type sets no bounds.
     */
    private static Optional<String> outsideDeclaration(EngineSpec spec, EngineOption option, String value) {
        String declared = "; engine '" + spec.id() + "' declares it " + option.type();
        switch (option.type()) {
            case "spin" -> {
                Long min = number(option.min());
                Long max = number(option.max());
                String range = min != null && max != null ? " from " + min + " to " + max : "";
                // written plainly, as the engine gets it: ' 5', '+5' and '012' were checked as 5 and sent as given
                Long given = value.matches("-?(0|[1-9][0-9]{0,17})") ? number(value) : null;
                if (given == null || (min != null && given < min) || (max != null && given > max)) {
                    return Optional.of("option '" + option.name() + "' = '" + EngineText.shown(value)
                            + "' is not a whole number" + range + declared);
                }
            }
            case "check" -> {
                boolean digit = spec.protocol() == dev.taikai.enginehost.catalog.Protocol.XBOARD
                        && (value.equals("1") || value.equals("0"));
                if (!digit && !value.equalsIgnoreCase("true") && !value.equalsIgnoreCase("false")) {
                    return Optional.of("option '" + option.name() + "' = '" + EngineText.shown(value)
                            + "' is not true or false" + declared);
                }
            }
            case "combo" -> {
                if (!option.vars().isEmpty() && option.vars().stream().noneMatch(value::equalsIgnoreCase)) {
                    return Optional.of("option '" + option.name() + "' = '" + EngineText.shown(value)
                            + "' is not one of its choices (" + String.join(", ", option.vars()) + ")" + declared);
                }
            }
            default -> {
                // string, filename, button: any text
            }
        }
        return Optional.empty();
    }

    private static Long number(String text) {
        try {
            return text == null ? null : Long.valueOf(text.trim());
        } catch (NumberFormatException e) {
            return null;
        }
    }
}
