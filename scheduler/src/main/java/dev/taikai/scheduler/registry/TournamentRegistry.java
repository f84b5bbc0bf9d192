package dev.taikai.scheduler.registry;

import dev.taikai.enginehost.catalog.EngineText;
import dev.taikai.proto.common.v1.GameRecord;
import dev.taikai.proto.scheduler.v1.GetGameRecordsResponse;
import dev.taikai.proto.tournament.v1.LeagueChange;
import dev.taikai.proto.tournament.v1.Status;
import dev.taikai.proto.tournament.v1.TournamentState;
import dev.taikai.referee.game.GameAssignment;
import dev.taikai.referee.game.Pairing;
import dev.taikai.referee.game.RecordCheck;
import dev.taikai.referee.game.TimeControl;
import dev.taikai.referee.messages.GameMessages;
import dev.taikai.tournament.Entrant;
import dev.taikai.tournament.Format;
import dev.taikai.tournament.TournamentSpec;
import dev.taikai.tournament.messages.StandingsMessages;
import dev.taikai.tournament.messages.TournamentMessages;
import dev.taikai.tournament.run.Stop;
import dev.taikai.tournament.run.TournamentRun;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;

/**
 * Every tournament a scheduler knows: its {@link TournamentRun} (the one tournament core: hand-out,
 * counting, rounds and stopping, as the local runner drives it too) and what is the service's own: ids,
 * the spec and states as messages, the records as received, watchers. It is a projection of the Kafka
 * topics and can be rebuilt from them at any time ({@link #restore} then {@link #count} for every
 * record). Thread-safe.
 */
public final class TournamentRegistry {
    /** Hears about every counted game and status change of one tournament. Called under the book's lock. */
    public interface Watcher {
        /** @param game the game just counted, or null for a status change */
        void progressed(TournamentState state, GameRecord game);

        /** The tournament has stopped; no more calls follow. */
        void stopped(TournamentState state);
    }

    /** What counting a record did. */
    public enum Counted {
        /** A new game of a known tournament. */
        COUNTED,
        /** The same game id again (a replay or a duplicate delivery): ignored. */
        DUPLICATE,
        /** Not a game of any known tournament's plan: ignored. */
        UNKNOWN,
        /**
         * A game of a known plan whose record does not hold up: other engines than the pairing's, an illegal
         * move, an ending the rules do not give (see {@link RecordCheck}). Counted nowhere.
         */
        REFUSED
    }

    private static final class Tournament {
        final String id;
        final dev.taikai.proto.tournament.v1.TournamentSpec message;
        final TournamentRun run;
        /** The time control of entrants that join a league without their own. */
        final TimeControl commonTimeControl;
        /** A league's joins and leaves as they were asked for, the same list as the run's. */
        final List<LeagueChange> changes = new ArrayList<>();

        final List<GameRecord> records = new ArrayList<>();
        final List<Watcher> watchers = new CopyOnWriteArrayList<>();
        final long created;
        long updated;
        /**
         * How many games past those handed out may still have a record: 0 for a tournament created here; for
         * one rebuilt from Kafka its concurrency, the most a scheduler can have handed out after the last
         * state it published before it stopped.
         */
        int unpublished;

        Tournament(
                String id, dev.taikai.proto.tournament.v1.TournamentSpec message, TournamentSpec spec, long created) {
            this.id = id;
            this.message = message;
            this.run = new TournamentRun(
                    spec,
                    spec.format() == Format.LEAGUE
                            ? TournamentMessages.leagueSettings(message)
                            : dev.taikai.tournament.league.League.Settings.DEFAULT);
            this.commonTimeControl = TournamentMessages.commonTimeControl(message);
            this.created = created;
            this.updated = created;
        }

        boolean league() {
            return run.spec().format() == Format.LEAGUE;
        }

        TournamentState state() {
            Optional<Stop> stop = run.stop();
            TournamentState.Builder state = TournamentState.newBuilder()
                    .setTournamentId(id)
                    .setSpec(message)
                    .setStatus(stop.map(s -> status(s.kind())).orElse(Status.STATUS_RUNNING))
                    .setStatusDetail(stop.map(Stop::detail).orElse(""))
                    // a league's rounds come as engines join and leave: its games paired so far
                    .setPlannedGames(league() ? run.paired() : run.gamesExpected())
                    .setPublishedGames(run.handedOut())
                    .setFinishedGames(run.standings().gamesPlayed())
                    .setCreatedUnixMs(created)
                    .setUpdatedUnixMs(updated);
            if (league()) {
                state.addAllLeagueChanges(changes).setLeagueRounds(run.leagueRounds());
            }
            return state.build();
        }

        boolean running() {
            return run.running();
        }

        Pairing.Engine engine(String entrantName) {
            Entrant entrant = run.entrant(entrantName);
            return new Pairing.Engine(entrant.engineId(), entrant.options());
        }

        /** A published change as the run takes it. */
        dev.taikai.tournament.run.LeagueChange plain(LeagueChange change) {
            return TournamentMessages.leagueChange(change, commonTimeControl);
        }
    }

    private static Status status(Stop.Kind kind) {
        return switch (kind) {
            case FINISHED -> Status.STATUS_FINISHED;
            case SPRT_CONCLUDED -> Status.STATUS_SPRT_CONCLUDED;
            case CANCELLED -> Status.STATUS_CANCELLED;
            case ABORTED -> Status.STATUS_ABORTED;
        };
    }

    private final int defaultConcurrency;
    private final Map<String, Tournament> tournaments = new LinkedHashMap<>();

    /** @param defaultConcurrency games of one tournament in play at once when its spec leaves it open */
    public TournamentRegistry(int defaultConcurrency) {
        this.defaultConcurrency = defaultConcurrency;
    }

    /**
     * Accepts a new tournament under {@code id}.
     *
     * @throws IllegalArgumentException naming the field when the spec is not a tournament
     */
    public synchronized TournamentState create(
            String id, dev.taikai.proto.tournament.v1.TournamentSpec message, long nowMillis) {
        TournamentMessages.refuseIgnoredKeys(message);
        TournamentSpec spec = TournamentMessages.spec(message, defaultConcurrency);
        if (tournaments.containsKey(id)) {
            throw new Refusal(Refusal.Reason.CONFLICT, "tournament id " + id + " is taken");
        }
        Tournament t = new Tournament(id, message, spec, nowMillis);
        tournaments.put(id, t);
        return t.state();
    }

    /** Takes a state as published earlier (rebuilding); its games are counted separately. */
    public synchronized void restore(TournamentState state) {
        Tournament t = tournaments.get(state.getTournamentId());
        if (t == null) {
            TournamentSpec spec = TournamentMessages.spec(state.getSpec(), defaultConcurrency);
            t = new Tournament(state.getTournamentId(), state.getSpec(), spec, state.getCreatedUnixMs());
            tournaments.put(t.id, t);
        }
        t.run.restoreStop(TournamentMessages.stop(state.getStatus(), state.getStatusDetail()));
        t.run.handedOutUpTo(state.getPublishedGames());
        t.unpublished = t.run.spec().concurrency();
        t.updated = state.getUpdatedUnixMs();
        if (t.league()) {
            for (int i = t.changes.size(); i < state.getLeagueChangesCount(); i++) {
                t.changes.add(state.getLeagueChanges(i));
            }
            t.run.restoreLeague(t.changes.stream().map(t::plain).toList(), state.getLeagueRounds());
        }
    }

    /**
     * An engine joins or leaves a running league from its next round on.
     *
     * @return the new state; empty for an unknown id
     * @throws IllegalArgumentException naming the field when the change cannot be made (not a league, an
     *     invalid entrant, a name in use, a leave of an engine not in the pool)
     * @throws IllegalStateException when the league has stopped
     */
    public synchronized Optional<TournamentState> changeLeague(
            String id, dev.taikai.proto.tournament.v1.Entrant entrant, boolean leave, long nowMillis) {
        Tournament t = tournaments.get(id);
        if (t == null) {
            return Optional.empty();
        }
        if (!t.league()) {
            throw new IllegalArgumentException("tournament_id: " + id + " is not a league");
        }
        if (!t.running()) {
            throw new IllegalStateException("the league " + id + " has stopped ("
                    + t.run.stop().orElseThrow().detail() + ")");
        }
        dev.taikai.tournament.run.LeagueChange change;
        dev.taikai.proto.tournament.v1.Entrant published = entrant;
        if (leave) {
            change = t.run.leave(entrant.getName());
        } else {
            if (entrant.hasTimeControl()) {
                GameMessages.refuseUnusedTimes("entrant.time_control", entrant.getTimeControl());
            }
            if (entrant.getFromRound() != 0 || entrant.getUntilRound() != 0) { // taken and ignored
                throw new IllegalArgumentException("entrant.from_round, until_round: an engine that joins plays from"
                        + " the league's next round until it leaves (leave both out)");
            }
            Entrant parsed = TournamentMessages.entrant("entrant", entrant, t.commonTimeControl);
            if (t.run.entrantsEver() >= TournamentMessages.MAX_ENTRANTS && !t.run.knows(parsed.name())) {
                throw new IllegalArgumentException(
                        "entrant: a league has at most " + TournamentMessages.MAX_ENTRANTS + " engines over its life");
            }
            change = t.run.join(parsed);
            published = entrant.toBuilder().setName(parsed.name()).build(); // the name it plays under
        }
        t.changes.add(LeagueChange.newBuilder()
                .setEntrant(published)
                .setLeave(leave)
                .setBeforeRound(change.beforeRound())
                .build());
        t.updated = Math.max(t.updated, nowMillis);
        return Optional.of(t.state());
    }

    /** {@link #count(GameRecord, Consumer)}, for callers that do not need the reason of a refusal. */
    public Counted count(GameRecord message) {
        return count(message, why -> {});
    }

    /**
     * Counts a finished game: once per id, only when it is the game the plan says (same id, same players in
     * the same colours, the same engines with the same options), its pairing was handed out (in a rebuilt
     * tournament: or could have been after its last published state) and its record holds up when replayed
     * with the rules ({@link RecordCheck}); otherwise {@link Counted#REFUSED}, with the reason given to
     * {@code refused}. Finishing the plan, or an SPRT crossing a bound, stops the tournament. The
     * tournament's update time becomes the game's end at the latest, so a rebuild gives the same state.
     */
    public synchronized Counted count(GameRecord message, Consumer<String> refused) {
        GameMessages.Read read;
        try {
            read = GameMessages.record(message);
        } catch (IllegalArgumentException e) {
            return Counted.UNKNOWN;
        }
        Tournament t = tournaments.get(read.pairing().tournamentId());
        if (t == null) {
            return Counted.UNKNOWN;
        }
        GameAssignment game = read.record().assignment();
        if (t.run.paired(game.gameId(), game.sente(), game.gote()).isEmpty()) {
            return Counted.UNKNOWN;
        }
        if (t.run.order(game.gameId()) >= t.run.handedOut() + t.unpublished) {
            // planned, but its pairing never went out: a forgery, which would stand for the game's real record
            refused.accept("game " + game.gameId() + " of " + t.id + " was never handed out (" + t.run.handedOut()
                    + " of its games have been)");
            return Counted.REFUSED;
        }
        Optional<String> problem = engineProblem(read, t.engine(game.sente()), t.engine(game.gote()));
        if (problem.isPresent()) {
            refused.accept(problem.get());
            return Counted.REFUSED;
        }
        Counted counted = switch (t.run.count(read.record(), refused)) {
            case COUNTED -> Counted.COUNTED;
            case DUPLICATE -> Counted.DUPLICATE;
            case UNKNOWN -> Counted.UNKNOWN;
            case REFUSED -> Counted.REFUSED;
        };
        if (counted != Counted.COUNTED) {
            return counted;
        }
        t.records.add(message);
        t.updated = Math.max(t.updated, message.getFinishedUnixMs());
        TournamentState state = t.state();
        for (Watcher watcher : t.watchers) {
            watcher.progressed(state, message);
        }
        if (t.run.settled()) {
            stopWatchers(t);
        }
        return Counted.COUNTED;
    }

    /**
     * The next games of a running tournament to hand out, keeping at most its concurrency in play (handed
     * out and not yet counted); they count as published from now on.
     */
    public synchronized List<Pairing> nextPairings(String id) {
        Tournament t = tournaments.get(id);
        if (t == null) {
            return List.of();
        }
        List<Pairing> next = new ArrayList<>();
        for (GameAssignment game : t.run.handOut()) {
            next.add(new Pairing(
                    id,
                    game,
                    t.engine(game.sente()),
                    t.engine(game.gote()),
                    t.run.order(game.gameId()),
                    t.message.getEngineLogs()));
        }
        return next;
    }

    /** Why a record's engines (ids and options) are not the ones the pairing named, if they are not. */
    private static Optional<String> engineProblem(GameMessages.Read read, Pairing.Engine sente, Pairing.Engine gote) {
        if (!read.pairing().sente().equals(sente)) {
            return Optional.of(engineProblem("sente", read.pairing().sente(), sente));
        }
        if (!read.pairing().gote().equals(gote)) {
            return Optional.of(engineProblem("gote", read.pairing().gote(), gote));
        }
        return Optional.empty();
    }

    private static String engineProblem(String side, Pairing.Engine played, Pairing.Engine paired) {
        return side + " was played by " + describe(played) + ", but the pairing named " + describe(paired);
    }

    private static String describe(Pairing.Engine engine) {
        return "engine '" + EngineText.shown(engine.engineId()) + "'"
                + (engine.options().isEmpty() ? "" : " with options " + engine.options());
    }

    /** Stops a running tournament: no further game starts; games in play are still counted. */
    public synchronized Optional<TournamentState> cancel(String id, String reason, long nowMillis) {
        Tournament t = tournaments.get(id);
        if (t == null) {
            return Optional.empty();
        }
        if (t.running()) {
            t.run.cancel(reason);
            t.updated = nowMillis;
            TournamentState state = t.state();
            for (Watcher watcher : t.watchers) {
                watcher.progressed(state, null);
            }
            stopWatchers(t);
        }
        return Optional.of(t.state());
    }

    private static void stopWatchers(Tournament t) {
        TournamentState state = t.state();
        for (Watcher watcher : t.watchers) {
            watcher.stopped(state);
        }
        t.watchers.clear();
    }

    /**
     * Watches a tournament: the state now at once, then every change. False for an unknown id. A stopped
     * tournament's watcher is told so at once.
     */
    public synchronized boolean watch(String id, Watcher watcher) {
        Tournament t = tournaments.get(id);
        if (t == null) {
            return false;
        }
        TournamentState state = t.state();
        watcher.progressed(state, null);
        if (!t.run.settled()) {
            t.watchers.add(watcher);
        } else {
            watcher.stopped(state);
        }
        return true;
    }

    public synchronized void unwatch(String id, Watcher watcher) {
        Tournament t = tournaments.get(id);
        if (t != null) {
            t.watchers.remove(watcher);
        }
    }

    public synchronized Optional<TournamentState> state(String id) {
        return Optional.ofNullable(tournaments.get(id)).map(Tournament::state);
    }

    public synchronized List<TournamentState> states() {
        return tournaments.values().stream().map(Tournament::state).toList();
    }

    /** Ids of the tournaments still handing out games (or, after an SPRT verdict, playing out those handed out). */
    public synchronized List<String> running() {
        return tournaments.values().stream()
                .filter(t -> !t.run.settled())
                .map(t -> t.id)
                .toList();
    }

    public synchronized Optional<dev.taikai.proto.tournament.v1.Standings> standings(String id) {
        Tournament t = tournaments.get(id);
        if (t == null) {
            return Optional.empty();
        }
        if (t.league()) {
            // a league's table is its ratings (the pool changes, so there is no fixed table of entrants)
            return Optional.of(dev.taikai.proto.tournament.v1.Standings.newBuilder()
                    .setTournamentId(id)
                    .setGames(t.run.standings().gamesPlayed())
                    .setLeague(StandingsMessages.leagueTable(t.run.league().orElseThrow()))
                    .build());
        }
        var standings = StandingsMessages.toProto(id, t.run.spec(), t.run.standings());
        var outcome = t.run.formatOutcome(); // a Swiss's table, a knockout's bracket
        return Optional.of(
                outcome.isEmpty()
                        ? standings
                        : standings.toBuilder()
                                .setFormatOutcome(StandingsMessages.struct(outcome))
                                .build());
    }

    /** The leader by points and its points, or empty before any game. */
    public synchronized Optional<Map.Entry<String, Double>> leader(String id) {
        Tournament t = tournaments.get(id);
        if (t == null || t.run.standings().gamesPlayed() == 0 || t.league()) {
            return Optional.empty(); // a league ranks by rating (its standings), not by points
        }
        return t.run.standings().table().stream()
                .max((x, y) -> Double.compare(x.points(), y.points()))
                .map(row -> Map.entry(row.engine(), row.points()));
    }

    /**
     * Counted records in the order they were counted, from {@code offset}, at most {@code limit}, with the
     * count of all records and the tournament's state, read at one instant.
     */
    public synchronized Optional<GetGameRecordsResponse> records(String id, int offset, int limit) {
        Tournament t = tournaments.get(id);
        if (t == null) {
            return Optional.empty();
        }
        int from = Math.min(Math.max(0, offset), t.records.size());
        int to = Math.min(t.records.size(), from + Math.max(0, limit));
        return Optional.of(GetGameRecordsResponse.newBuilder()
                .addAllRecords(t.records.subList(from, to))
                .setTotal(t.records.size())
                .setState(t.state())
                .build());
    }

    /**
     * A future that completes once the tournament has more than {@code count} records or has stopped: at
     * once when either already holds or the id is unknown. It holds no thread while it waits. Completing
     * it any other way (a timeout, a cancel) stops the watching, so a caller that gives up leaves nothing.
     */
    public CompletableFuture<Void> whenRecords(String id, int count) {
        CompletableFuture<Void> changed = new CompletableFuture<>();
        Watcher watcher = new Watcher() {
            @Override
            public void progressed(TournamentState state, GameRecord game) {
                if (game != null) {
                    changed.complete(null);
                }
            }

            @Override
            public void stopped(TournamentState state) { // every way a tournament stops ends here
                changed.complete(null);
            }
        };
        synchronized (this) {
            Tournament t = tournaments.get(id);
            if (t == null || t.records.size() > count || t.run.settled()) {
                changed.complete(null);
                return changed;
            }
            t.watchers.add(watcher);
        }
        changed.whenComplete((done, error) -> unwatch(id, watcher));
        return changed;
    }

    /**
     * Waits until the tournament has more than {@code count} records or has stopped, at most {@code millis}:
     * returns at once when either already holds or the id is unknown ({@link #whenRecords}, waited for).
     */
    public void awaitRecords(String id, int count, long millis) throws InterruptedException {
        CompletableFuture<Void> changed = whenRecords(id, count);
        try {
            changed.get(millis, TimeUnit.MILLISECONDS);
        } catch (TimeoutException | ExecutionException e) {
            // waited long enough: the caller reads whatever there is
        } finally {
            changed.complete(null);
        }
    }
}
