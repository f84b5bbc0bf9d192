package dev.taikai.scheduler.registry;

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

        /** A league's pool changes (see {@link TournamentRegistry#changeLeague}); empty for an unknown id. */
        Optional<TournamentState> changeLeague(
                String id, dev.taikai.proto.tournament.v1.Entrant entrant, boolean leave);

        /** False until the book has been rebuilt from the topics. */
        boolean ready();
    }

    private final TournamentRegistry book;
    private final Publisher publisher;
    /** The workers' catalog, or null when this scheduler does not know it. */
    private final Catalog catalog;

    /**
     * A scheduler that does not know the workers' catalog: it accepts any well-formed engine id, and no
     * option that names a file (it cannot know which engine allows one).
     */
    public Scheduler(TournamentRegistry book, Publisher publisher) {
        this(book, publisher, null);
    }

    /**
     * @param catalog the workers' catalog: a tournament naming an engine outside it, or setting an option
     *     that names a file where the engine's entry does not allow it, is refused
     */
    public Scheduler(TournamentRegistry book, Publisher publisher, Catalog catalog) {
        this.book = book;
        this.publisher = publisher;
        this.catalog = catalog;
    }

    public TournamentRegistry book() {
        return book;
    }

    /**
     * Accepts a tournament under a new id (a slug of its name and a random suffix).
     *
     * @throws Refusal INVALID naming the field when the spec is not a tournament; UNAVAILABLE when the
     *     scheduler is not ready yet or cannot publish
     */
    public TournamentState create(TournamentSpec spec) {
        return refusing(() -> {
            ready();
            for (int i = 0; i < spec.getEntrantsCount(); i++) {
                checkAgainstCatalog("entrants[" + i + "]", spec.getEntrants(i));
            }
            return publisher.create(newId(spec.getName()), spec);
        });
    }

    /**
     * Runs {@code action}, turning what the cores throw into the scheduler's one {@link Refusal}: a name in
     * use is CONFLICT, any other invalid argument INVALID, a change to a stopped tournament STOPPED.
     */
    private static <T> T refusing(java.util.function.Supplier<T> action) {
        try {
            return action.get();
        } catch (Refusal refusal) {
            throw refusal;
        } catch (dev.taikai.tournament.run.NameTaken e) {
            throw new Refusal(Refusal.Reason.CONFLICT, e.getMessage());
        } catch (IllegalArgumentException e) {
            throw new Refusal(Refusal.Reason.INVALID, e.getMessage());
        } catch (IllegalStateException e) {
            throw new Refusal(Refusal.Reason.STOPPED, e.getMessage());
        }
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

    /**
     * Cancels a tournament, saying {@code reason} in its state.
     *
     * @throws Refusal INVALID for a reason of more than 500 characters or with a control character (it is
     *     published, kept, and printed on terminals), STOPPED when the tournament has stopped
     */
    public Optional<TournamentState> cancel(String id, String reason) {
        return refusing(() -> {
            EngineText.line("reason", reason, MAX_REASON_CHARS);
            return publisher.cancel(id, reason);
        });
    }

    /** The longest reason a cancel may give. */
    public static final int MAX_REASON_CHARS = 500;

    /**
     * An engine joins a league from its next round on.
     *
     * @throws Refusal INVALID naming the field when it cannot (see {@link TournamentRegistry#changeLeague}),
     *     CONFLICT for a name in use, STOPPED when the league has stopped, UNAVAILABLE when not ready
     */
    public Optional<TournamentState> joinLeague(String id, dev.taikai.proto.tournament.v1.Entrant entrant) {
        return refusing(() -> {
            ready();
            checkAgainstCatalog("entrant", entrant);
            return publisher.changeLeague(id, entrant, false);
        });
    }

    /** An engine leaves a league's pool; its games in play still count. Refusals as for a join. */
    public Optional<TournamentState> leaveLeague(String id, String name) {
        return refusing(() -> {
            ready();
            return publisher.changeLeague(
                    id,
                    dev.taikai.proto.tournament.v1.Entrant.newBuilder()
                            .setName(name)
                            .build(),
                    true);
        });
    }

    private void ready() {
        if (!publisher.ready()) {
            throw new Refusal(
                    Refusal.Reason.UNAVAILABLE,
                    "the scheduler is still reading its state from Kafka; try again shortly");
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
