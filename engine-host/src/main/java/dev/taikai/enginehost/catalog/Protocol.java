package dev.taikai.enginehost.catalog;

import java.util.Locale;
import java.util.Optional;

/** The protocol an engine speaks over its pipes: a catalog entry's {@code protocol}, a flag's {@code proto=}. */
public enum Protocol {
    /** The Universal Shogi Interface: {@code usi}, {@code position}, {@code go}, {@code bestmove}. */
    USI("usi"),
    /**
     * The Chess Engine Communication Protocol, version 2 (XBoard, WinBoard): {@code xboard}, {@code protover
     * 2}, {@code feature}, {@code usermove}, {@code move}.
     */
    XBOARD("xboard");

    private final String id;

    Protocol(String id) {
        this.id = id;
    }

    /** The name in catalogs and flags: {@code usi} or {@code xboard}. */
    public String id() {
        return id;
    }

    public static Optional<Protocol> byId(String id) {
        String wanted = id.toLowerCase(Locale.ROOT);
        for (Protocol protocol : values()) {
            if (protocol.id.equals(wanted)) {
                return Optional.of(protocol);
            }
        }
        return Optional.empty();
    }
}
