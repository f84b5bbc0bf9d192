package dev.taikai.access;

import java.util.Locale;
import java.util.Optional;

/** What a caller may do (docs/access.md has the whole table). */
public enum Role {
    /** Creates and cancels tournaments; reads everything. */
    ADMIN,
    /** A referee replica: plays engine sessions on workers, reads tournaments. */
    REFEREE,
    /** An engine worker's own identity: it serves sessions and may call nothing. */
    WORKER,
    /** Reads tournaments, standings, records, live games and metrics. */
    VIEWER;

    public String id() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static Optional<Role> byId(String id) {
        for (Role role : values()) {
            if (role.id().equals(id)) {
                return Optional.of(role);
            }
        }
        return Optional.empty();
    }
}
