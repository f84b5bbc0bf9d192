package dev.taikai.scheduler.book;

import dev.taikai.enginehost.catalog.Catalog;
import dev.taikai.enginehost.catalog.EngineSpec;
import dev.taikai.enginehost.catalog.EngineText;
import dev.taikai.proto.tournament.v1.TournamentSpec;
import dev.taikai.proto.tournament.v1.TournamentState;
import java.util.Locale;
import java.util.Optional;
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
    /** The workers' catalog, or null when this scheduler does not know it. */
    private final Catalog catalog;

    /**
     * A scheduler that does not know the workers' catalog: it accepts any well-formed engine id, and no
     * option that names a file (it cannot know which engine allows one).
     */
    public Scheduler(TournamentBook book, Publisher publisher) {
        this(book, publisher, null);
    }

    /**
     * @param catalog the workers' catalog: a tournament naming an engine outside it, or setting an option
     *     that names a file where the engine's entry does not allow it, is refused
     */
    public Scheduler(TournamentBook book, Publisher publisher, Catalog catalog) {
        this.book = book;
        this.publisher = publisher;
        this.catalog = catalog;
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
        for (int i = 0; i < spec.getEntrantsCount(); i++) {
            checkAgainstCatalog("entrants[" + i + "]", spec.getEntrants(i));
        }
        return publisher.create(newId(spec.getName()), spec);
    }

    /** Refuses an entrant whose engine the workers do not have, or whose options set a file it may not be given. */
    private void checkAgainstCatalog(String field, dev.taikai.proto.tournament.v1.Entrant entrant) {
        String id = entrant.getEngineId();
        EngineText.options(field + ".options", entrant.getOptionsMap()); // what the text is comes first
        if (catalog == null) {
            for (var option : entrant.getOptionsMap().entrySet()) {
                if (EngineText.namesAFile(option.getKey()) && !option.getValue().isEmpty()) {
                    throw new IllegalArgumentException(field + ".options: option '" + option.getKey()
                            + "' names a file, which a scheduler that does not know the workers' catalog"
                            + " (taikai.scheduler.catalog) never allows");
                }
            }
            return;
        }
        EngineSpec engine = catalog.engine(id)
                .orElseThrow(() -> new IllegalArgumentException(field + ".engine_id '" + EngineText.shown(id)
                        + "' is not in the workers' catalog (" + String.join(", ", catalog.ids()) + ")"));
        Optional<String> refused = engine.unallowedFileOption(entrant.getOptionsMap());
        if (refused.isPresent()) {
            throw new IllegalArgumentException(field + ".options: " + refused.get());
        }
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
        checkAgainstCatalog("entrant", entrant);
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
