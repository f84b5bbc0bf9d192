package dev.taikai.enginehost.catalog;

import java.util.Optional;

/** Known deviations of real engines from USI that the driver compensates for, named in catalog entries. */
public enum Quirk {
    /**
     * The engine reads {@code btime}/{@code wtime} and {@code binc}/{@code winc} the wrong way round
     * (Debian's Fairy-Stockfish 11.1 does); the driver sends them swapped so the engine sees its own clock.
     */
    SWAPPED_CLOCKS("swapped-clocks");

    private final String id;

    Quirk(String id) {
        this.id = id;
    }

    /** The name used in catalog files and on the command line. */
    public String id() {
        return id;
    }

    public static Optional<Quirk> byId(String id) {
        for (Quirk quirk : values()) {
            if (quirk.id.equals(id)) {
                return Optional.of(quirk);
            }
        }
        return Optional.empty();
    }
}
