package dev.taikai.tournament.run;

import dev.taikai.referee.game.GameAssignment;
import dev.taikai.referee.game.GameHost;
import dev.taikai.referee.game.GameRecord;
import dev.taikai.referee.game.RecordCheck;
import dev.taikai.rules.Color;
import dev.taikai.tournament.Entrant;
import dev.taikai.tournament.Format;
import dev.taikai.tournament.Standings;
import dev.taikai.tournament.TournamentSpec;
import dev.taikai.tournament.league.League;
import dev.taikai.tournament.stats.Sprt;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * One tournament as it is played, for both runners (ARCHITECTURE.md, decision 2): the games paired so
 * far in the order they are handed out, how many of them have been handed out, the games counted (each id
 * once) and the standings they make, and whether and why the run has stopped.
 *
 * <ul>
 *   <li>{@link #handOut} gives the next games to start, keeping at most the spec's concurrency in play
 *       (handed out and not counted), nothing once the run has stopped.
 *   <li>{@link #count} counts a finished game once, only a game the run paired with those colours and
 *       whose record holds up when replayed with the rules ({@link RecordCheck}). Counting the last game
 *       of a round pairs the next one (leagues); counting the last game of all finishes the run; an SPRT
 *       crossing a bound stops it. Games in play when the run stops are still counted when they end.
 *   <li>A run is rebuilt by counting the same records again (in any order within a round): a resumed
 *       local run from its journal, a scheduler from Kafka, both through this code.
 * </ul>
 *
 * <p>Not thread-safe: a runner serialises its calls.
 */
public final class TournamentRun {
    /**
     * Games in a row (in pairing order) that an engine may lose because it did not start (its session
     * failed before the first move: not found, no usiok, exited at once), before it is taken out: the
     * run stops, or a league drops the engine from its next round.
     */
    public static final int START_FAILURES = 3;

    private final TournamentSpec spec;
    private final Pairer pairer;
    private final LeaguePairer league;
    private final Standings standings;
    private final List<GameAssignment> paired = new ArrayList<>();
    private final Map<String, Integer> index = new HashMap<>();
    private int handedOut;
    /** Rebuilding: games handed out before, some perhaps in rounds not paired again yet. */
    private int handedOutBefore;

    private int countedHandedOut;
    private int restoredRounds;
    private Stop stop;
    /** The stop is an abort because an engine did not start or cannot be used ({@link #retryStarts}). */
    private boolean stoppedByStarts;
    /** Per engine, in pairing order, whether each of its counted games was lost before its first move. */
    private final Map<String, java.util.TreeMap<Integer, GameRecord>> startFailures = new HashMap<>();
    /**
     * Engines that lost a counted game by a failure every game of theirs would meet again (no such variant,
     * no way to give them the opening or the node limit: {@link GameHost#failureOfEveryGame}), with the
     * failure: the run stops on the first, a league drops the engine from its next round.
     */
    private final Map<String, String> failsEveryGame = new java.util.TreeMap<>();
    /** The SPRT's verdict and the games counted when its bound was crossed. */
    private Sprt.Status sprtVerdict;

    private int sprtCrossedAfter;
    /** No engine joins but those the spec names (a league on one machine): see {@link #closedPool()}. */
    private boolean closedPool;
    /** The highest place in pairing order of a game counted; -1 before any. */
    private int highestCounted = -1;

    /** A run of {@code spec}; a league pairs with the default settings and the spec's games per pairing. */
    public TournamentRun(TournamentSpec spec) {
        this(spec, defaultLeague(spec));
    }

    /** A run of {@code spec}; {@code leagueSettings} are a league's (ignored for other formats). */
    public TournamentRun(TournamentSpec spec, League.Settings leagueSettings) {
        this.spec = spec;
        this.standings =
                new Standings(spec.entrants().stream().map(Entrant::name).toList());
        if (spec.format() == Format.LEAGUE) {
            this.league = new LeaguePairer(spec, leagueSettings);
            this.pairer = league;
        } else {
            this.league = null;
            this.pairer = switch (spec.format()) {
                case SWISS -> new SwissPairer(spec);
                case KNOCKOUT -> new KnockoutPairer(spec);
                default -> new FixedPlan(spec);
            };
        }
        advance();
    }

    private static League.Settings defaultLeague(TournamentSpec spec) {
        League.Settings d = League.Settings.DEFAULT;
        return spec.format() == Format.LEAGUE
                ? new League.Settings(spec.gamesPerPairing(), d.rematchPenalty(), d.rematchMemory(), d.halfLifeRounds())
                : d;
    }

    public TournamentSpec spec() {
        return spec;
    }

    /** The standings of the games counted. */
    public Standings standings() {
        return standings;
    }

    /** Why the run stopped; empty while it runs. */
    public Optional<Stop> stop() {
        return Optional.ofNullable(stop);
    }

    public boolean running() {
        return stop == null;
    }

    /**
     * True once no further record is awaited: the run has stopped and, after an SPRT verdict, every game it
     * had handed out is counted (those are played out). After a cancel or an abort the games in play may
     * still come and count, but games not yet begun never will, so nothing is waited for.
     */
    public boolean settled() {
        return stop != null && (stop.kind() != Stop.Kind.SPRT_CONCLUDED || inPlay() == 0);
    }

    /**
     * At most {@code max} games to start now, in pairing order, keeping at most the concurrency in play;
     * games counted already are passed over. Empty when the run has stopped, when the concurrency is used
     * up, or when the next round waits for games in play.
     */
    public List<GameAssignment> handOut(int max) {
        List<GameAssignment> next = new ArrayList<>();
        if (stop != null && !completingPairs()) {
            return next;
        }
        catchUp();
        int room = Math.min(max, spec.concurrency() - inPlay());
        while (room > 0 && handedOut < paired.size() && handOutAfterAStop(handedOut)) {
            GameAssignment game = paired.get(handedOut++);
            if (standings.contains(game.gameId())) {
                countedHandedOut++;
                continue;
            }
            next.add(game);
            room--;
        }
        return next;
    }

    /**
     * True when {@link #handOut} has a game to give, the concurrency aside: false for a run that has
     * stopped with nothing left to play (a resumed run that ended before).
     */
    public boolean gamesLeftToHandOut() {
        if (stop != null && !completingPairs()) {
            return false;
        }
        catchUp();
        for (int i = handedOut; i < paired.size() && handOutAfterAStop(i); i++) {
            if (!standings.contains(paired.get(i).gameId())) {
                return true;
            }
        }
        return false;
    }

    /**
     * Whether the game at {@code index} is handed out: every game while the run goes on; after an SPRT
     * verdict the second game of a pair begun, and any game up to the last one counted. Those were in play
     * when the bound was crossed; only a run counted again from its records (a resume) still has them to
     * hand out, since a run hands out in pairing order. The last counted itself is passed over (counted),
     * not stopped at: when it is a pair's first game, its second comes next (a resume stopped there, a pair
     * short).
     */
    private boolean handOutAfterAStop(int index) {
        return stop == null || secondOfABegunPair(index) || index <= highestCounted;
    }

    /** Every game there is to hand out now, within the concurrency ({@link #handOut}). */
    public List<GameAssignment> handOut() {
        return handOut(Integer.MAX_VALUE);
    }

    /**
     * Rebuilding: the first {@code games} games in pairing order were handed out before, also those of
     * rounds that are paired again only as their predecessors' records are counted.
     */
    public void handedOutUpTo(int games) {
        handedOutBefore = Math.max(handedOutBefore, games);
        catchUp();
    }

    private void catchUp() {
        while (handedOut < Math.min(handedOutBefore, paired.size())) {
            if (standings.contains(paired.get(handedOut++).gameId())) {
                countedHandedOut++;
            }
        }
    }

    /** Games handed out and not counted yet. */
    public int inPlay() {
        catchUp();
        return handedOut - countedHandedOut;
    }

    /** Games handed out so far, counted or not (after a rebuild, at least as many as before it). */
    public int handedOut() {
        return Math.max(handedOut, handedOutBefore);
    }

    /** The place of {@code gameId} in pairing order (the order games are handed out in); -1 if unknown. */
    public int order(String gameId) {
        Integer i = index.get(gameId);
        return i == null ? -1 : i;
    }

    /** True when {@code name} is an entrant: the spec's, or one that joined the league. */
    public boolean knows(String name) {
        try {
            pairer.entrant(name);
            return true;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    /**
     * The games the run will have played when it ends, as far as is known now: the spec's count ({@link
     * TournamentSpec#gamesExpected}) with a knockout's tiebreaks paired so far, never fewer than the games
     * paired; 0 for a league without an end.
     */
    public int gamesExpected() {
        int expected = spec.gamesExpected();
        return expected == 0 ? 0 : Math.max(paired.size(), pairer.gamesExpected(expected));
    }

    /** Games paired so far: a fixed plan's every game, a league's rounds up to now. */
    public int paired() {
        return paired.size();
    }

    /** Every game paired so far, in pairing order. */
    public List<GameAssignment> pairedGames() {
        return List.copyOf(paired);
    }

    /** The game paired under {@code gameId} with these colours, if there is one. */
    public Optional<GameAssignment> paired(String gameId, String sente, String gote) {
        Integer i = index.get(gameId);
        if (i == null) {
            return Optional.empty();
        }
        GameAssignment game = paired.get(i);
        return game.sente().equals(sente) && game.gote().equals(gote) ? Optional.of(game) : Optional.empty();
    }

    /** The game paired under {@code gameId}, if there is one. */
    public Optional<GameAssignment> paired(String gameId) {
        Integer i = index.get(gameId);
        return i == null ? Optional.empty() : Optional.of(paired.get(i));
    }

    /** {@link #count(GameRecord, Consumer)}, for callers that do not need the reason of a refusal. */
    public Counted count(GameRecord record) {
        return count(record, why -> {});
    }

    /**
     * Counts a finished game (see the class comment); the reason of a {@link Counted#REFUSED} goes to
     * {@code refused}.
     */
    public Counted count(GameRecord record, Consumer<String> refused) {
        GameAssignment game = record.assignment();
        Optional<GameAssignment> planned = paired(game.gameId(), game.sente(), game.gote());
        if (planned.isEmpty()) {
            return Counted.UNKNOWN;
        }
        Optional<String> problem = RecordCheck.problem(record, planned.get());
        if (problem.isPresent()) {
            refused.accept(problem.get());
            return Counted.REFUSED;
        }
        if (!standings.add(record)) {
            return Counted.DUPLICATE;
        }
        if (index.get(game.gameId()) < handedOut) {
            countedHandedOut++;
        }
        highestCounted = Math.max(highestCounted, index.get(game.gameId()));
        pairer.counted(planned.get(), record);
        noteStarts(index.get(game.gameId()), record);
        for (Color side : Color.values()) {
            GameHost.failureOfEveryGame(record, side)
                    .ifPresent(failure -> failsEveryGame.putIfAbsent(entrant(record, side), failure));
        }
        checkSprt();
        if (league == null && stop == null) {
            cannotStart().ifPresent(out -> {
                abort(out.why());
                stoppedByStarts = true;
            });
        }
        advance();
        return Counted.COUNTED;
    }

    /** Stops a running run at a user's request: no further game starts; games in play still count. */
    public void cancel(String reason) {
        if (stop == null) {
            stop = new Stop(
                    Stop.Kind.CANCELLED, reason == null || reason.isBlank() ? "cancelled" : "cancelled: " + reason);
        }
    }

    /** Stops a running run that cannot go on, with the reason. */
    public void abort(String reason) {
        if (stop == null) {
            stop = new Stop(Stop.Kind.ABORTED, reason);
        }
    }

    /**
     * For a run counted again from its records by a new process (a resumed local run): when it stopped
     * because an engine did not start in its last {@link #START_FAILURES} games, or lost one by a failure
     * every game of its would meet, that stop is lifted and every engine's failures forgotten, so that the
     * engine, mended since perhaps, is started again; the games it forfeited stay counted. Not when every
     * game is played already ({@link #forfeitsAreFinal}). The stop's line when one was lifted.
     */
    public Optional<String> retryStarts() {
        if (stop == null || !stoppedByStarts || forfeitsAreFinal()) {
            return Optional.empty();
        }
        String why = stop.detail();
        stop = null;
        stoppedByStarts = false;
        startFailures.clear();
        failsEveryGame.clear();
        advance();
        return Optional.of(why);
    }

    /**
     * This run takes no engine but those its spec names (a league on one machine, which nobody can join):
     * a league whose pool falls below two engines, with none to join later, then ends and says why, where
     * a cluster's league waits for a join. Call before counting.
     */
    public TournamentRun closedPool() {
        closedPool = true;
        advance();
        return this;
    }

    /**
     * True when the run stopped because an engine did not start or cannot be used, and every game there
     * was is played: nothing is left for a resume to play, so the games that engine forfeited are the run's
     * result and {@link #retryStarts} lifts nothing.
     */
    public boolean forfeitsAreFinal() {
        return stop != null && stoppedByStarts && pairer.complete();
    }

    /** True when the run finished before its plan did: a league on one machine left with too few engines. */
    public boolean endedBeforeItsPlan() {
        return stop != null && stop.kind() == Stop.Kind.FINISHED && !pairer.complete();
    }

    /** Rebuilding: the run's stop as it was published (null: running). */
    public void restoreStop(Stop published) {
        stop = published;
    }

    /** The format's pairer (for this package's tests). */
    Pairer pairer() {
        return pairer;
    }

    /** Lines the format adds to the report: a Swiss table, a knockout bracket; none for the others. */
    public List<String> summary() {
        return pairer.summary();
    }

    /** {@link #summary} as plain values for the records ({@link Pairer#outcome}); empty for most formats. */
    public Map<String, Object> formatOutcome() {
        return pairer.outcome();
    }

    /** The entrant under {@code name}: the spec's, or one that joined the league. */
    public Entrant entrant(String name) {
        return pairer.entrant(name);
    }

    // ---- leagues

    /** The league of a league run. */
    public Optional<League> league() {
        return league == null ? Optional.empty() : Optional.of(league.league());
    }

    /** The engines a league took out because they could not start, with why; empty for other formats. */
    public Map<String, String> dropped() {
        return league == null ? Map.of() : league.dropped();
    }

    /** A league's rounds that passed without games (too few engines until later joins), a line each, in order. */
    public List<String> leagueRoundsPassed() {
        return league == null ? List.of() : league.passed();
    }

    /** A league's joins and leaves so far, in order; empty for other formats. */
    public List<LeagueChange> leagueChanges() {
        return league == null ? List.of() : league.changes();
    }

    /** Rounds a league has paired; 0 for other formats. */
    public int leagueRounds() {
        return league == null ? 0 : league.rounds();
    }

    /** Engines that ever took part in a league (the spec's and every join); the spec's for other formats. */
    public int entrantsEver() {
        return league == null ? spec.entrants().size() : league.entrantsEver();
    }

    /**
     * {@code entrant} joins the league from its next round on.
     *
     * @throws IllegalArgumentException naming the field when it cannot (a name in use for another engine
     *     or in the pool)
     * @throws IllegalStateException when this run is not a league or has stopped
     */
    public LeagueChange join(Entrant entrant) {
        LeagueChange change = leagueOpen().change(entrant.name(), entrant);
        advance();
        return change;
    }

    /**
     * The engine {@code name} leaves the league's pool from its next round on; its games in play count.
     *
     * @throws IllegalArgumentException when it is not in the pool
     * @throws IllegalStateException when this run is not a league or has stopped
     */
    public LeagueChange leave(String name) {
        LeagueChange change = leagueOpen().change(name, null);
        advance();
        return change;
    }

    /**
     * Rebuilding a league: its change log as published, and the rounds it had paired (paired again
     * whatever its status, so that their games can be counted).
     */
    public void restoreLeague(List<LeagueChange> changes, int roundsPaired) {
        if (league == null) {
            return;
        }
        league.restore(changes);
        restoredRounds = Math.max(restoredRounds, roundsPaired);
        advance();
    }

    private LeaguePairer leagueOpen() {
        if (league == null) {
            throw new IllegalStateException("a " + spec.format().id() + " has no pool to join or leave");
        }
        if (stop != null) {
            throw new IllegalStateException("the league has stopped (" + stop.detail() + ")");
        }
        return league;
    }

    // ----

    /** Keeps, for both engines of a counted game, whether each lost it before its first move. */
    private void noteStarts(int order, GameRecord record) {
        for (Color side : Color.values()) {
            String engine = entrant(record, side);
            boolean failed = GameHost.didNotStart(record, side);
            startFailures
                    .computeIfAbsent(engine, e -> new java.util.TreeMap<>())
                    .put(order, failed ? record : null);
        }
    }

    private static String entrant(GameRecord record, Color side) {
        return side == Color.SENTE
                ? record.assignment().sente()
                : record.assignment().gote();
    }

    /** An engine to take out, with why. */
    private record CannotStart(String engine, String why) {}

    /**
     * An engine that lost a game by a failure every game of its would meet again, or whose last {@link
     * #START_FAILURES} games were all lost because it did not start.
     */
    private Optional<CannotStart> cannotStart() {
        for (var entry : failsEveryGame.entrySet()) {
            if (league == null || league.league().pool().contains(entry.getKey())) {
                return Optional.of(new CannotStart(
                        entry.getKey(), "engine '" + entry.getKey() + "' cannot be used: " + entry.getValue()));
            }
        }
        for (var entry : startFailures.entrySet()) {
            var games = entry.getValue();
            if (games.size() < START_FAILURES
                    || (league != null && !league.league().pool().contains(entry.getKey()))) {
                continue;
            }
            List<GameRecord> last = games.descendingMap().values().stream()
                    .limit(START_FAILURES)
                    .toList(); // a null for a game it played: toList keeps it
            if (last.stream().allMatch(java.util.Objects::nonNull)) {
                return Optional.of(new CannotStart(
                        entry.getKey(),
                        "engine '" + entry.getKey() + "' did not start in its last " + START_FAILURES + " games ("
                                + last.get(0).outcome().detail() + ")"));
            }
        }
        return Optional.empty();
    }

    /** Pairs what the format pairs next once every game paired so far is counted; finishes a complete run. */
    private void advance() {
        while ((stop == null || (league != null && league.rounds() < restoredRounds))
                && standings.gamesPlayed() == paired.size()) {
            if (league != null) {
                // a round is complete: an engine that cannot start leaves from the next one (decided from
                // whole rounds only, so a rebuild counting the round's games in another order decides alike)
                Optional<CannotStart> out;
                while ((out = cannotStart()).isPresent()) {
                    league.drop(out.get().engine(), out.get().why());
                    failsEveryGame.remove(out.get().engine()); // should it join again, mended, it plays
                }
            }
            List<GameAssignment> more = pairer.next();
            if (more.isEmpty()) {
                break;
            }
            for (GameAssignment game : more) {
                index.put(game.gameId(), paired.size());
                paired.add(game);
            }
            catchUp();
        }
        if (stop == null && closedPool && league != null && standings.gamesPlayed() == paired.size()) {
            // no engine joins a league on one machine but those its file names: one that cannot pair is over
            league.cannotPairAgain().ifPresent(why -> stop = new Stop(Stop.Kind.FINISHED, why));
        }
        if (stop == null && pairer.complete()) {
            Optional<CannotStart> never = league == null ? neverStarted() : Optional.empty();
            if (never.isPresent()) { // a run too short to stop on START_FAILURES does not pass for a finished one
                stop = new Stop(Stop.Kind.ABORTED, never.get().why());
                stoppedByStarts = true;
            } else {
                stop = new Stop(Stop.Kind.FINISHED, pairer.finishedDetail());
            }
        }
    }

    /** An engine that did not start in any of its games (fewer than {@link #START_FAILURES}). */
    private Optional<CannotStart> neverStarted() {
        for (var entry : startFailures.entrySet()) {
            var games = entry.getValue().values();
            if (!games.isEmpty() && games.stream().allMatch(java.util.Objects::nonNull)) {
                return Optional.of(new CannotStart(
                        entry.getKey(),
                        "engine '" + entry.getKey() + "' did not start in any of its " + games.size()
                                + (games.size() == 1 ? " game" : " games")
                                + " (" + games.iterator().next().outcome().detail() + ")"));
            }
        }
        return Optional.empty();
    }

    /**
     * The one SPRT decision: when the LLR crosses a bound, the run stops with that verdict. The games in
     * play then, and the second game of a pair whose first was handed out, are still played and counted
     * (as Fishtest counts the games in flight), so that the pentanomial counts whole pairs; the stop's
     * line then gives the final count and LLR with the verdict taken at the crossing, the same figures
     * the standings show.
     */
    private void checkSprt() {
        Sprt sprt = spec.sprt();
        if (sprt == null || (stop != null && stop.kind() != Stop.Kind.SPRT_CONCLUDED)) {
            return;
        }
        if (stop != null && sprtVerdict == null) {
            return; // a verdict restored from a published state stands as it was published
        }
        String a = spec.entrants().get(0).name();
        String b = spec.entrants().get(1).name();
        double llr = sprt.llr(standings.pentanomial(a, b));
        if (stop == null) {
            Sprt.Status verdict = sprt.status(llr);
            if (verdict == Sprt.Status.CONTINUE) {
                return;
            }
            sprtVerdict = verdict;
            sprtCrossedAfter = standings.gamesPlayed();
        }
        stop = new Stop(
                Stop.Kind.SPRT_CONCLUDED,
                String.format(
                        Locale.ROOT,
                        "SPRT concluded after %d games: %s accepted (LLR %s, bounds %.2f, %.2f)%s",
                        standings.gamesPlayed(),
                        sprtVerdict,
                        Sprt.format(llr),
                        sprt.lowerBound(),
                        sprt.upperBound(),
                        standings.gamesPlayed() == sprtCrossedAfter
                                ? ""
                                : "; the bound was crossed after " + sprtCrossedAfter
                                        + " games, and the games in play then were played out and counted"));
    }

    /** After an SPRT verdict: pairs begun are played out, so that every counted pair is whole. */
    private boolean completingPairs() {
        return stop.kind() == Stop.Kind.SPRT_CONCLUDED;
    }

    /** True when the game at {@code index} is the second of a pair whose first has been handed out. */
    private boolean secondOfABegunPair(int index) {
        if (index == 0 || index >= paired.size()) {
            return false;
        }
        GameAssignment game = paired.get(index);
        GameAssignment before = paired.get(index - 1);
        return game.gameInPairing() % 2 == 0
                && before.round() == game.round()
                && before.pairing() == game.pairing()
                && before.gameInPairing() == game.gameInPairing() - 1;
    }
}
