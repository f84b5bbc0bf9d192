package dev.taikai.scheduler.book;

import dev.taikai.enginehost.catalog.EngineText;
import dev.taikai.proto.common.v1.GameRecord;
import dev.taikai.proto.scheduler.v1.GetGameRecordsResponse;
import dev.taikai.proto.tournament.v1.Status;
import dev.taikai.proto.tournament.v1.TournamentState;
import dev.taikai.referee.game.GameAssignment;
import dev.taikai.referee.game.Pairing;
import dev.taikai.referee.game.RecordCheck;
import dev.taikai.referee.messages.GameMessages;
import dev.taikai.tournament.Entrant;
import dev.taikai.tournament.Schedule;
import dev.taikai.tournament.Standings;
import dev.taikai.tournament.TournamentSpec;
import dev.taikai.tournament.messages.StandingsMessages;
import dev.taikai.tournament.messages.TournamentMessages;
import dev.taikai.tournament.stats.Sprt;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;

/**
 * Every tournament a scheduler knows, as plain data: its spec and plan, how much of the plan has been
 * handed out, the games counted (each id once, ARCHITECTURE.md decision 2) and the standings they make.
 * It is a projection of the Kafka topics and can be rebuilt from them at any time ({@link #restore} then
 * {@link #count} for every record). Thread-safe.
 */
public final class TournamentBook {
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
        final TournamentSpec spec;
        final List<GameAssignment> plan;
        final Map<String, Integer> planIndex = new LinkedHashMap<>();
        final Standings standings;
        final List<GameRecord> records = new ArrayList<>();
        final List<Watcher> watchers = new CopyOnWriteArrayList<>();
        final long created;
        /** The league, for a league; null for a tournament with a fixed plan. */
        final LeagueRun league;
        /** Rounds a league had paired in the state it was rebuilt from: they are paired again whatever its status. */
        int restoredRounds;

        Status status = Status.STATUS_RUNNING;
        String detail = "";
        int published;
        long updated;

        Tournament(
                String id, dev.taikai.proto.tournament.v1.TournamentSpec message, TournamentSpec spec, long created) {
            this.id = id;
            this.message = message;
            this.spec = spec;
            this.plan = Schedule.plan(spec);
            for (int i = 0; i < plan.size(); i++) {
                planIndex.put(plan.get(i).gameId(), i);
            }
            this.standings =
                    new Standings(spec.entrants().stream().map(Entrant::name).toList());
            this.league = spec.format() == dev.taikai.tournament.Format.LEAGUE ? new LeagueRun(spec, message) : null;
            this.created = created;
            this.updated = created;
        }

        TournamentState state() {
            TournamentState.Builder state = TournamentState.newBuilder()
                    .setTournamentId(id)
                    .setSpec(message)
                    .setStatus(status)
                    .setStatusDetail(detail)
                    .setPlannedGames(league == null ? plan.size() : league.pairedGames())
                    .setPublishedGames(published)
                    .setFinishedGames(standings.gamesPlayed())
                    .setCreatedUnixMs(created)
                    .setUpdatedUnixMs(updated);
            if (league != null) {
                state.addAllLeagueChanges(league.changes()).setLeagueRounds(league.rounds());
            }
            return state.build();
        }

        boolean running() {
            return status == Status.STATUS_RUNNING;
        }
    }

    private final int defaultConcurrency;
    private final Map<String, Tournament> tournaments = new LinkedHashMap<>();

    /** @param defaultConcurrency games of one tournament in play at once when its spec leaves it open */
    public TournamentBook(int defaultConcurrency) {
        this.defaultConcurrency = defaultConcurrency;
    }

    /**
     * Accepts a new tournament under {@code id}.
     *
     * @throws IllegalArgumentException naming the field when the spec is not a tournament
     */
    public synchronized TournamentState create(
            String id, dev.taikai.proto.tournament.v1.TournamentSpec message, long nowMillis) {
        TournamentSpec spec = TournamentMessages.spec(message, defaultConcurrency);
        if (tournaments.containsKey(id)) {
            throw new IllegalStateException("tournament id " + id + " is taken");
        }
        Tournament t = new Tournament(id, message, spec, nowMillis);
        tournaments.put(id, t);
        advanceLeague(t);
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
        t.status = state.getStatus();
        t.detail = state.getStatusDetail();
        t.published = Math.max(t.published, state.getPublishedGames());
        t.updated = state.getUpdatedUnixMs();
        if (t.league != null) {
            t.league.restore(state.getLeagueChangesList());
            t.restoredRounds = Math.max(t.restoredRounds, state.getLeagueRounds());
            advanceLeague(t);
        }
    }

    /**
     * Pairs a league's next round once the current one is complete: while it runs, and while rebuilding up
     * to the rounds it had paired before (also when it has stopped since).
     */
    private static void advanceLeague(Tournament t) {
        if (t.league == null) {
            return;
        }
        while ((t.running() || t.league.rounds() < t.restoredRounds) && t.league.pairNextRound()) {
            // one round at a time: pairing a round leaves it outstanding, which ends the loop
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
        if (t.league == null) {
            throw new IllegalArgumentException("tournament_id: " + id + " is not a league");
        }
        if (!t.running()) {
            throw new IllegalStateException("the league " + id + " has stopped (" + t.detail + ")");
        }
        t.league.change(entrant, leave);
        t.updated = Math.max(t.updated, nowMillis);
        advanceLeague(t);
        return Optional.of(t.state());
    }

    /** {@link #count(GameRecord, Consumer)}, for callers that do not need the reason of a refusal. */
    public Counted count(GameRecord message) {
        return count(message, why -> {});
    }

    /**
     * Counts a finished game: once per id, only when it is the game the plan says (same id, same players in
     * the same colours, the same engines with the same options) and its record holds up when replayed with
     * the rules ({@link RecordCheck}); otherwise {@link Counted#REFUSED}, with the reason given to
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
        if (t.league != null) {
            return countLeagueGame(t, message, read, refused);
        }
        Integer index = t.planIndex.get(game.gameId());
        if (index == null
                || !t.plan.get(index).sente().equals(game.sente())
                || !t.plan.get(index).gote().equals(game.gote())) {
            return Counted.UNKNOWN;
        }
        Optional<String> problem = problem(read, t.plan.get(index), engine(t, game.sente()), engine(t, game.gote()));
        if (problem.isPresent()) {
            refused.accept(problem.get());
            return Counted.REFUSED;
        }
        if (!t.standings.add(read.record())) {
            return Counted.DUPLICATE;
        }
        t.records.add(message);
        t.updated = Math.max(t.updated, message.getFinishedUnixMs());
        t.published = Math.max(t.published, index + 1);
        if (t.running() && t.standings.gamesPlayed() == t.plan.size()) {
            t.status = Status.STATUS_FINISHED;
            t.detail = "all " + t.plan.size() + " games played";
        }
        checkSprt(t);
        return counted(t, message);
    }

    private Counted countLeagueGame(
            Tournament t, GameRecord message, GameMessages.Read read, Consumer<String> refused) {
        GameAssignment game = read.record().assignment();
        Optional<GameAssignment> planned = t.league.game(game.gameId(), game.sente(), game.gote());
        if (planned.isEmpty()) {
            return Counted.UNKNOWN;
        }
        Optional<String> problem =
                problem(read, planned.get(), leagueEngine(t, game.sente()), leagueEngine(t, game.gote()));
        if (problem.isPresent()) {
            refused.accept(problem.get());
            return Counted.REFUSED;
        }
        if (!t.standings.add(read.record())) {
            return Counted.DUPLICATE;
        }
        t.league.count(game.gameId(), read.record().scoreOf(game.sente()));
        t.records.add(message);
        t.updated = Math.max(t.updated, message.getFinishedUnixMs());
        advanceLeague(t);
        if (t.running() && t.league.complete()) {
            t.status = Status.STATUS_FINISHED;
            t.detail = "all " + t.spec.rounds() + " rounds played";
        }
        return counted(t, message);
    }

    /** Tells the watchers about a counted game (and that the tournament stopped, when it did). */
    private static Counted counted(Tournament t, GameRecord message) {
        TournamentState state = t.state();
        for (Watcher watcher : t.watchers) {
            watcher.progressed(state, message);
        }
        if (!t.running()) {
            stopWatchers(t);
        }
        return Counted.COUNTED;
    }

    private static void checkSprt(Tournament t) {
        Sprt sprt = t.spec.sprt();
        if (sprt == null || !t.running()) {
            return;
        }
        String a = t.spec.entrants().get(0).name();
        String b = t.spec.entrants().get(1).name();
        double llr = sprt.llr(t.standings.pentanomial(a, b));
        Sprt.Status verdict = sprt.status(llr);
        if (verdict != Sprt.Status.CONTINUE) {
            t.status = Status.STATUS_SPRT_CONCLUDED;
            t.detail = String.format(
                    Locale.ROOT,
                    "SPRT concluded after %d games: %s accepted (LLR %.2f, bounds %.2f, %.2f)",
                    t.standings.gamesPlayed(),
                    verdict,
                    llr,
                    sprt.lowerBound(),
                    sprt.upperBound());
        }
    }

    /**
     * The next games of a running tournament to hand out, keeping at most its concurrency in play (handed
     * out and not yet counted); they count as published from now on.
     */
    public synchronized List<Pairing> nextPairings(String id) {
        Tournament t = tournaments.get(id);
        if (t == null || !t.running()) {
            return List.of();
        }
        int inPlay = t.published - t.standings.gamesPlayed();
        int room = Math.max(0, t.spec.concurrency() - inPlay);
        List<Pairing> next = new ArrayList<>();
        if (t.league != null) {
            // games paired but handed out before a rebuild are not handed out again
            while (t.league.hasUnpublished() && t.league.pairedGames() - t.league.unpublishedCount() < t.published) {
                t.league.nextUnpublished();
            }
            while (room-- > 0 && t.league.hasUnpublished()) {
                GameAssignment game = t.league.nextUnpublished();
                next.add(new Pairing(
                        id, game, leagueEngine(t, game.sente()), leagueEngine(t, game.gote()), t.published++));
            }
            return next;
        }
        while (room-- > 0 && t.published < t.plan.size()) {
            int index = t.published++;
            GameAssignment game = t.plan.get(index);
            if (t.standings.contains(game.gameId())) {
                continue;
            }
            next.add(new Pairing(id, game, engine(t, game.sente()), engine(t, game.gote()), index));
        }
        return next;
    }

    /**
     * Why a record of a planned game cannot be counted: its engines (ids and options) are not the ones the
     * pairing named, or it does not hold up when replayed with the rules.
     */
    private static Optional<String> problem(
            GameMessages.Read read, GameAssignment planned, Pairing.Engine sente, Pairing.Engine gote) {
        if (!read.pairing().sente().equals(sente)) {
            return Optional.of(engineProblem("sente", read.pairing().sente(), sente));
        }
        if (!read.pairing().gote().equals(gote)) {
            return Optional.of(engineProblem("gote", read.pairing().gote(), gote));
        }
        return RecordCheck.problem(read.record(), planned);
    }

    private static String engineProblem(String side, Pairing.Engine played, Pairing.Engine paired) {
        return side + " was played by " + describe(played) + ", but the pairing named " + describe(paired);
    }

    private static String describe(Pairing.Engine engine) {
        return "engine '" + EngineText.shown(engine.engineId()) + "'"
                + (engine.options().isEmpty() ? "" : " with options " + engine.options());
    }

    private static Pairing.Engine leagueEngine(Tournament t, String entrantName) {
        Entrant entrant = t.league.entrant(entrantName);
        return new Pairing.Engine(entrant.engineId(), entrant.options());
    }

    private static Pairing.Engine engine(Tournament t, String entrantName) {
        Entrant entrant = t.spec.entrant(entrantName);
        return new Pairing.Engine(entrant.engineId(), entrant.options());
    }

    /** Stops a running tournament: no further game starts; games in play are still counted. */
    public synchronized Optional<TournamentState> cancel(String id, String reason, long nowMillis) {
        Tournament t = tournaments.get(id);
        if (t == null) {
            return Optional.empty();
        }
        if (t.running()) {
            t.status = Status.STATUS_CANCELLED;
            t.detail = reason.isBlank() ? "cancelled" : "cancelled: " + reason;
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
        if (t.running()) {
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

    /** Ids of the tournaments still handing out games. */
    public synchronized List<String> running() {
        return tournaments.values().stream()
                .filter(Tournament::running)
                .map(t -> t.id)
                .toList();
    }

    public synchronized Optional<dev.taikai.proto.tournament.v1.Standings> standings(String id) {
        Tournament t = tournaments.get(id);
        if (t == null) {
            return Optional.empty();
        }
        if (t.league != null) {
            // a league's table is its ratings (the pool changes, so there is no fixed table of entrants)
            return Optional.of(dev.taikai.proto.tournament.v1.Standings.newBuilder()
                    .setTournamentId(id)
                    .setGames(t.standings.gamesPlayed())
                    .setLeague(t.league.table())
                    .build());
        }
        return Optional.of(StandingsMessages.toProto(id, t.spec, t.standings));
    }

    /** The leader by points and its points, or empty before any game. */
    public synchronized Optional<Map.Entry<String, Double>> leader(String id) {
        Tournament t = tournaments.get(id);
        if (t == null || t.standings.gamesPlayed() == 0 || t.league != null) {
            return Optional.empty(); // a league ranks by rating (its standings), not by points
        }
        return t.standings.table().stream()
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
            if (t == null || t.records.size() > count || !t.running()) {
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
