package dev.taikai.tournament.messages;

import dev.taikai.enginehost.catalog.EngineText;
import dev.taikai.enginehost.messages.CommonMessages;
import dev.taikai.proto.tournament.v1.TournamentSpec.Builder;
import dev.taikai.referee.game.Adjudication;
import dev.taikai.referee.game.Opening;
import dev.taikai.referee.game.OverrunMargin;
import dev.taikai.referee.game.TimeControl;
import dev.taikai.referee.messages.GameMessages;
import dev.taikai.rules.Variant;
import dev.taikai.tournament.Entrant;
import dev.taikai.tournament.Format;
import dev.taikai.tournament.OpeningSuite;
import dev.taikai.tournament.TournamentSpec;
import dev.taikai.tournament.league.League;
import dev.taikai.tournament.run.LeagueChange;
import dev.taikai.tournament.run.Stop;
import dev.taikai.tournament.stats.Sprt;
import java.util.ArrayList;
import java.util.List;

/**
 * Tournament specs as the contracts' protobuf messages and back. Reading a spec checks everything a
 * tournament file is checked for, plus what the cluster needs: engines are catalog ids (never command
 * lines, ARCHITECTURE.md decision 5) and sizes are bounded. Errors are {@link IllegalArgumentException}s
 * whose message names the field.
 */
public final class TournamentMessages {
    public static final int MAX_ENTRANTS = 64;
    public static final int MAX_GAMES = 100_000;
    public static final int MAX_OPENINGS = 10_000;

    private TournamentMessages() {}

    /**
     * The tournament a message describes.
     *
     * @param defaultConcurrency games in play at once when the spec leaves it 0
     */
    public static TournamentSpec spec(dev.taikai.proto.tournament.v1.TournamentSpec message, int defaultConcurrency) {
        String name = EngineText.line("name", message.getName().strip(), 100);
        if (name.isEmpty()) {
            throw new IllegalArgumentException("name is empty");
        }
        Variant variant = CommonMessages.variant(message.getVariant());
        Format format = switch (message.getFormat()) {
            case FORMAT_ROUND_ROBIN -> Format.ROUND_ROBIN;
            case FORMAT_GAUNTLET -> Format.GAUNTLET;
            case FORMAT_MATCH -> Format.MATCH;
            case FORMAT_LEAGUE -> Format.LEAGUE;
            case FORMAT_SWISS -> Format.SWISS;
            case FORMAT_KNOCKOUT -> Format.KNOCKOUT;
            default -> throw new IllegalArgumentException("format is missing or unknown");
        };
        if (message.getEntrantsCount() > MAX_ENTRANTS) {
            throw new IllegalArgumentException(
                    "entrants: " + message.getEntrantsCount() + " engines; at most " + MAX_ENTRANTS);
        }
        if (!message.hasTimeControl() && message.getEntrantsList().stream().anyMatch(e -> !e.hasTimeControl())) {
            throw new IllegalArgumentException("time_control is missing (and not every entrant has its own)");
        }
        TimeControl common =
                message.hasTimeControl() ? GameMessages.timeControl("time_control", message.getTimeControl()) : null;
        List<Entrant> entrants = new ArrayList<>();
        for (int i = 0; i < message.getEntrantsCount(); i++) {
            entrants.add(entrant("entrants[" + i + "]", message.getEntrants(i), common));
        }
        if (message.getOpeningsCount() > MAX_OPENINGS) {
            throw new IllegalArgumentException("openings: " + message.getOpeningsCount() + "; at most " + MAX_OPENINGS);
        }
        List<Opening> openings = new ArrayList<>();
        for (int i = 0; i < message.getOpeningsCount(); i++) {
            try {
                openings.add(OpeningSuite.parse(message.getOpenings(i).strip(), variant));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("openings[" + i + "]: " + e.getMessage());
            }
        }
        Sprt sprt = null;
        if (message.hasSprt()) {
            var s = message.getSprt();
            try {
                sprt = new Sprt(s.getElo0(), s.getElo1(), s.getAlpha(), s.getBeta());
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("sprt: " + e.getMessage());
            }
        }
        Adjudication adjudication =
                message.hasAdjudication() ? GameMessages.adjudication(message.getAdjudication()) : Adjudication.DEFAULT;
        OverrunMargin margin = message.hasOverrunMarginMs()
                ? margin("overrun_margin_ms", message.getOverrunMarginMs())
                : OverrunMargin.BY_RULE;
        int rounds = message.getRounds();
        int games = message.getGamesPerPairing();
        if ((rounds < 1 && format != Format.LEAGUE) || rounds < 0 || games < 1) {
            throw new IllegalArgumentException(
                    "rounds and games_per_pairing must be at least 1 (a league's rounds may be 0: no end)");
        }
        if (format == Format.LEAGUE) {
            leagueSettings(message);
        }
        // a league's engines may join while it runs: it is counted with as many as it may ever have
        long planned = TournamentSpec.gamesAtMost(
                format, format == Format.LEAGUE ? MAX_ENTRANTS : entrants.size(), message.getSeeds(), rounds, games);
        if (planned > MAX_GAMES) {
            throw new IllegalArgumentException("the tournament would have " + planned + " games; at most " + MAX_GAMES);
        }
        if (message.getConcurrency() < 0 || message.getConcurrency() > 10_000) {
            throw new IllegalArgumentException(
                    "concurrency must be 0 (the scheduler's default) to 10000, not " + message.getConcurrency());
        }
        int concurrency = message.getConcurrency() > 0 ? message.getConcurrency() : defaultConcurrency;
        return new TournamentSpec(
                name,
                variant,
                format,
                entrants,
                message.getSeeds(),
                rounds,
                games,
                openings,
                message.getRandomOrder(),
                margin,
                adjudication,
                concurrency,
                message.getSeed(),
                sprt);
    }

    /**
     * Refuses what a new tournament's message gives that its format or time controls have no use for, as
     * the tournament file does: taken, it would be ignored. Not for a state rebuilt from Kafka, which was
     * taken before.
     */
    public static void refuseIgnoredKeys(dev.taikai.proto.tournament.v1.TournamentSpec message) {
        if (message.hasLeague() && message.getFormat() != dev.taikai.proto.tournament.v1.Format.FORMAT_LEAGUE) {
            throw new IllegalArgumentException("league: tunes a league's pairing and ratings; this tournament's format"
                    + " is " + message.getFormat().name() + " (format FORMAT_LEAGUE, or leave league out)");
        }
        if (message.getSeeds() != 0 && message.getFormat() != dev.taikai.proto.tournament.v1.Format.FORMAT_GAUNTLET) {
            throw new IllegalArgumentException("seeds: a gauntlet's number of seeds; this tournament's format is "
                    + message.getFormat().name() + " (format FORMAT_GAUNTLET, or leave seeds out)");
        }
        if (message.hasTimeControl()) {
            GameMessages.refuseUnusedTimes("time_control", message.getTimeControl());
        }
        for (int i = 0; i < message.getEntrantsCount(); i++) {
            var entrant = message.getEntrants(i);
            if (entrant.hasTimeControl()) {
                GameMessages.refuseUnusedTimes("entrants[" + i + "].time_control", entrant.getTimeControl());
            }
            if (entrant.getFromRound() < 0 || entrant.getUntilRound() < 0) { // a negative start was taken as 1
                throw new IllegalArgumentException("entrants[" + i + "].from_round, until_round: rounds count from 1,"
                        + " not " + entrant.getFromRound() + " to " + entrant.getUntilRound());
            }
            if ((entrant.getFromRound() != 0 || entrant.getUntilRound() != 0)
                    && message.getFormat() != dev.taikai.proto.tournament.v1.Format.FORMAT_LEAGUE) {
                throw new IllegalArgumentException("entrants[" + i + "].from_round, until_round: only a league's"
                        + " engines play from or until a round; this tournament's format is "
                        + message.getFormat().name());
            }
        }
    }

    /**
     * One entrant of a message, checked: a catalog id (never a command line), a name, options of sensible
     * size, a time control (its own or {@code common}).
     *
     * @param field how to name it in errors, e.g. {@code entrants[2]}
     */
    public static Entrant entrant(String field, dev.taikai.proto.tournament.v1.Entrant e, TimeControl common) {
        String engineId = EngineText.engineId(field + ".engine_id", e.getEngineId());
        String entrantName = e.getName().isEmpty() ? engineId : EngineText.name(field + ".name", e.getName());
        EngineText.options(field + ".options", e.getOptionsMap());
        if (common == null && !e.hasTimeControl()) {
            throw new IllegalArgumentException(field + ".time_control is missing (the tournament has none)");
        }
        TimeControl own =
                e.hasTimeControl() ? GameMessages.timeControl(field + ".time_control", e.getTimeControl()) : common;
        OverrunMargin margin =
                e.hasOverrunMarginMs() ? margin(field + ".overrun_margin_ms", e.getOverrunMarginMs()) : null;
        Entrant.Rounds rounds;
        try {
            rounds = new Entrant.Rounds(Math.max(1, e.getFromRound()), e.getUntilRound());
        } catch (IllegalArgumentException bad) {
            throw new IllegalArgumentException(field + ".from_round, until_round: " + bad.getMessage());
        }
        return new Entrant(entrantName, engineId, e.getOptionsMap(), own, margin, rounds);
    }

    private static OverrunMargin margin(String field, long millis) {
        try {
            return OverrunMargin.of(millis);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(field + ": " + e.getMessage());
        }
    }

    /** The stop a published status stands for; null for a run that is still running. */
    public static Stop stop(dev.taikai.proto.tournament.v1.Status status, String detail) {
        return switch (status) {
            case STATUS_FINISHED -> new Stop(Stop.Kind.FINISHED, detail);
            case STATUS_SPRT_CONCLUDED -> new Stop(Stop.Kind.SPRT_CONCLUDED, detail);
            case STATUS_CANCELLED -> new Stop(Stop.Kind.CANCELLED, detail);
            case STATUS_ABORTED -> new Stop(Stop.Kind.ABORTED, detail);
            default -> null;
        };
    }

    /** A published join or leave of a league, as the run takes it. */
    public static LeagueChange leagueChange(dev.taikai.proto.tournament.v1.LeagueChange change, TimeControl common) {
        Entrant joins = change.getLeave() ? null : entrant("entrant", change.getEntrant(), common);
        // a join without a name plays under its engine id (earlier schedulers published it nameless)
        return new LeagueChange(
                joins == null ? change.getEntrant().getName() : joins.name(), joins, change.getBeforeRound());
    }

    /** The common time control of a spec message, or null when it has none. */
    public static TimeControl commonTimeControl(dev.taikai.proto.tournament.v1.TournamentSpec message) {
        return message.hasTimeControl() ? GameMessages.timeControl("time_control", message.getTimeControl()) : null;
    }

    /** A league's settings from its spec message; absent values take the defaults. */
    public static League.Settings leagueSettings(dev.taikai.proto.tournament.v1.TournamentSpec message) {
        var l = message.getLeague();
        try {
            return new League.Settings(
                    message.getGamesPerPairing(),
                    l.hasRematchPenalty() ? l.getRematchPenalty() : League.Settings.DEFAULT.rematchPenalty(),
                    l.hasRematchMemoryRounds() ? l.getRematchMemoryRounds() : League.Settings.DEFAULT.rematchMemory(),
                    l.getHalfLifeRounds());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("league: " + e.getMessage());
        }
    }

    /**
     * A spec as a message; every entrant carries its own time control, and the tournament carries the
     * one they share when they all share one.
     */
    public static dev.taikai.proto.tournament.v1.TournamentSpec toProto(TournamentSpec spec) {
        Builder builder = dev.taikai.proto.tournament.v1.TournamentSpec.newBuilder()
                .setName(spec.name())
                .setVariant(CommonMessages.toProto(spec.variant()))
                .setFormat(
                        switch (spec.format()) {
                            case ROUND_ROBIN -> dev.taikai.proto.tournament.v1.Format.FORMAT_ROUND_ROBIN;
                            case GAUNTLET -> dev.taikai.proto.tournament.v1.Format.FORMAT_GAUNTLET;
                            case MATCH -> dev.taikai.proto.tournament.v1.Format.FORMAT_MATCH;
                            case LEAGUE -> dev.taikai.proto.tournament.v1.Format.FORMAT_LEAGUE;
                            case SWISS -> dev.taikai.proto.tournament.v1.Format.FORMAT_SWISS;
                            case KNOCKOUT -> dev.taikai.proto.tournament.v1.Format.FORMAT_KNOCKOUT;
                        })
                // a gauntlet's only: elsewhere the key is refused, as taken and ignored
                .setSeeds(spec.format() == Format.GAUNTLET ? spec.seeds() : 0)
                .setRounds(spec.rounds())
                .setGamesPerPairing(spec.gamesPerPairing())
                .setRandomOrder(spec.randomOrder())
                .setSeed(spec.seed())
                .setAdjudication(GameMessages.toProto(spec.adjudication()))
                .setConcurrency(spec.concurrency());
        if (!spec.overrunMargin().byRule()) {
            builder.setOverrunMarginMs(spec.overrunMargin().fixedMillis());
        }
        // one control for all: the tournament's too, which an engine that joins a league later inherits
        if (spec.entrants().stream().map(Entrant::timeControl).distinct().count() == 1) {
            builder.setTimeControl(GameMessages.toProto(spec.entrants().get(0).timeControl()));
        }
        for (Entrant entrant : spec.entrants()) {
            var e = dev.taikai.proto.tournament.v1.Entrant.newBuilder()
                    .setName(entrant.name())
                    .setEngineId(entrant.engineId())
                    .putAllOptions(entrant.options())
                    .setTimeControl(GameMessages.toProto(entrant.timeControl()));
            if (entrant.overrunMargin() != null && !entrant.overrunMargin().byRule()) {
                e.setOverrunMarginMs(entrant.overrunMargin().fixedMillis());
            }
            if (!entrant.rounds().equals(Entrant.Rounds.ALL)) {
                e.setFromRound(entrant.rounds().from())
                        .setUntilRound(entrant.rounds().until());
            }
            builder.addEntrants(e);
        }
        for (Opening opening : spec.openings()) {
            builder.addOpenings(opening.toString());
        }
        if (spec.sprt() != null) {
            builder.setSprt(dev.taikai.proto.tournament.v1.Sprt.newBuilder()
                    .setElo0(spec.sprt().elo0())
                    .setElo1(spec.sprt().elo1())
                    .setAlpha(spec.sprt().alpha())
                    .setBeta(spec.sprt().beta()));
        }
        return builder.build();
    }
}
