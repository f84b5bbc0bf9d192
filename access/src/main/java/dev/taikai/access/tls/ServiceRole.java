package dev.taikai.access.tls;

import java.util.Locale;
import java.util.Optional;

/**
 * What a certificate says its holder is: the organizational unit of its subject ({@code
 * CN=<name>,OU=<role>,O=Taikai}). A worker serves engine sessions only to a {@link #REFEREE}; the Kafka
 * broker lets each role write only its own topics (docs/security.md).
 */
public enum ServiceRole {
    SCHEDULER,
    REFEREE,
    WORKER,
    /** A Kafka broker (and controller). */
    KAFKA,
    /** An operator's tools: creates topics and ACLs. */
    ADMIN;

    public String id() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static Optional<ServiceRole> byId(String id) {
        for (ServiceRole role : values()) {
            if (role.id().equals(id)) {
                return Optional.of(role);
            }
        }
        return Optional.empty();
    }
}
