package dev.taikai.enginehost.session;

import java.util.List;
import java.util.Optional;

/**
 * What an engine said about itself in the handshake.
 *
 * @param variantOption the option used to select the variant ({@code UCI_Variant} or {@code USI_Variant})
 * @param handshakeNanos from starting the process to reading {@code usiok}
 */
public record EngineIdentity(
        String name, String author, List<EngineOption> options, String variantOption, long handshakeNanos) {
    public EngineIdentity {
        options = List.copyOf(options);
    }

    public Optional<EngineOption> option(String optionName) {
        return options.stream().filter(o -> o.name().equals(optionName)).findFirst();
    }
}
