package dev.taikai.scheduler.book;

import dev.taikai.proto.tournament.v1.TournamentSpec;
import dev.taikai.proto.tournament.v1.TournamentState;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;

/**
 * The scheduler's operations as its APIs offer them: create and cancel change the book and are published
 * (through {@link Publisher}); everything else reads the book.
 */
public final class Scheduler {
    /** Makes a change durable and hands out its games (the Kafka side, or a test double). */
    public interface Publisher {
        TournamentState create(String id, TournamentSpec spec);

        Optional<TournamentState> cancel(String id, String reason);

        /** A league's pool changes (see {@link TournamentBook#changeLeague}); empty for an unknown id. */
        Optional<TournamentState> changeLeague(
                String id, dev.taikai.proto.tournament.v1.Entrant entrant, boolean leave);

        /** False until the book has been rebuilt from the topics. */
        boolean ready();
    }

    private final TournamentBook book;
    private final Publisher publisher;
    private final Set<String> engines;

    /** A scheduler that does not know the workers' catalog, and so accepts any well-formed engine id. */
    public Scheduler(TournamentBook book, Publisher publisher) {
        this(book, publisher, Set.of());
    }

    /** @param engines the engine ids the workers' catalog has; a tournament naming another is refused */
    public Scheduler(TournamentBook book, Publisher publisher, Set<String> engines) {
        this.book = book;
        this.publisher = publisher;
        this.engines = Set.copyOf(engines);
    }

    public TournamentBook book() {
        return book;
    }

    /**
     * Accepts a tournament under a new id (a slug of its name and a random suffix).
     *
     * @throws IllegalArgumentException naming the field when the spec is not a tournament
     * @throws IllegalStateException when the scheduler is not ready yet
     */
    public TournamentState create(TournamentSpec spec) {
        ready();
        if (!engines.isEmpty()) {
            for (int i = 0; i < spec.getEntrantsCount(); i++) {
                String id = spec.getEntrants(i).getEngineId();
                if (!engines.contains(id)) {
                    throw new IllegalArgumentException("entrants[" + i + "].engine_id '"
                            + (id.length() > 64 ? id.substring(0, 64) + "..." : id)
                            + "' is not in the workers' catalog (" + String.join(", ", new TreeSet<>(engines)) + ")");
                }
            }
        }
        return publisher.create(newId(spec.getName()), spec);
    }

    public Optional<TournamentState> cancel(String id, String reason) {
        return publisher.cancel(id, reason);
    }

    /**
     * An engine joins a league from its next round on.
     *
     * @throws IllegalArgumentException naming the field when it cannot (see {@link TournamentBook#changeLeague})
     * @throws IllegalStateException when the league has stopped or the scheduler is not ready
     */
    public Optional<TournamentState> joinLeague(String id, dev.taikai.proto.tournament.v1.Entrant entrant) {
        ready();
        if (!engines.isEmpty() && !engines.contains(entrant.getEngineId())) {
            throw new IllegalArgumentException("entrant.engine_id '" + shorten(entrant.getEngineId())
                    + "' is not in the workers' catalog (" + String.join(", ", new TreeSet<>(engines)) + ")");
        }
        return publisher.changeLeague(id, entrant, false);
    }

    /** An engine leaves a league's pool; its games in play still count. */
    public Optional<TournamentState> leaveLeague(String id, String name) {
        ready();
        return publisher.changeLeague(
                id,
                dev.taikai.proto.tournament.v1.Entrant.newBuilder()
                        .setName(name)
                        .build(),
                true);
    }

    private void ready() {
        if (!publisher.ready()) {
            throw new NotReady();
        }
    }

    /** The scheduler is still rebuilding its state from Kafka: try again shortly (UNAVAILABLE, 503). */
    public static final class NotReady extends IllegalStateException {
        NotReady() {
            super("the scheduler is still reading its state from Kafka; try again shortly");
        }
    }

    private static String shorten(String id) {
        return id.length() > 64 ? id.substring(0, 64) + "..." : id;
    }

    static String newId(String name) {
        String slug =
                name.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", "-").replaceAll("^-+|-+$", "");
        if (slug.length() > 40) {
            slug = slug.substring(0, 40);
        }
        String suffix = UUID.randomUUID().toString().substring(0, 8);
        return (slug.isEmpty() ? "tournament" : slug) + "-" + suffix;
    }
}
