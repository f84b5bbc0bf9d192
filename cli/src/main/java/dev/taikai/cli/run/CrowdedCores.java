package dev.taikai.cli.run;

import dev.taikai.enginehost.session.DefaultMargin;
import dev.taikai.referee.game.TimeControl;
import dev.taikai.tournament.Entrant;
import dev.taikai.tournament.TournamentSpec;
import java.util.List;
import java.util.Optional;

/**
 * The warning a run gets before its first game when its clocks are too tight for the cores it runs on:
 * at least as many games at once as cores, so that the engines searching (one per game) leave no core for
 * Taikai and the system, and an engine whose overrun margin is below {@link DefaultMargin#FLOOR_MILLIS}
 * (a move time under 111 ms, or a margin chosen that small). There, an operating-system scheduling stall
 * can outlast the margin and an honest engine lose on time (docs/tournaments.md, "Clocks").
 */
final class CrowdedCores {
    private CrowdedCores() {}

    /** The warning for {@code spec} on a machine of {@code cores}, if it needs one. */
    static Optional<String> warning(TournamentSpec spec, int cores) {
        // games in play at once: the concurrency, or fewer when the tournament has fewer games
        int games = spec.gamesExpected();
        int atOnce = games > 0 ? Math.min(spec.concurrency(), games) : spec.concurrency();
        if (atOnce < cores) {
            return Optional.empty();
        }
        List<Entrant> tight = spec.entrants().stream()
                .filter(e -> timed(e.timeControl()))
                .filter(e -> e.marginMillis(spec.overrunMargin()) < DefaultMargin.FLOOR_MILLIS)
                .toList();
        if (tight.isEmpty()) {
            return Optional.empty();
        }
        long least = tight.stream()
                .mapToLong(e -> e.marginMillis(spec.overrunMargin()))
                .min()
                .getAsLong();
        // every engine with that margin: naming one, another of the same clock lost and went unnamed
        List<String> names = tight.stream()
                .filter(e -> e.marginMillis(spec.overrunMargin()) == least)
                .map(Entrant::name)
                .toList();
        return Optional.of(String.format(
                "%s on %d cores leaves no core for Taikai and the system, and %s may"
                        + " overrun %s time by only %d ms: a scheduling stall can be longer and"
                        + " lose an honest engine the game (docs/tournaments.md, \"Clocks\");"
                        + " -concurrency %d leaves a core free",
                atOnce == spec.concurrency()
                        ? "concurrency " + atOnce
                        : atOnce + " games at once (concurrency " + spec.concurrency() + ")",
                cores,
                names.size() == 1
                        ? names.get(0)
                        : String.join(", ", names.subList(0, names.size() - 1)) + " and " + names.get(names.size() - 1),
                names.size() == 1 ? "its" : "their",
                least,
                Math.max(1, cores - 1)));
    }

    private static boolean timed(TimeControl control) {
        return switch (control.kind()) {
            case NODES, DEPTH -> false;
            default -> true;
        };
    }
}
