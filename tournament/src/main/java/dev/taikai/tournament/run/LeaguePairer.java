package dev.taikai.tournament.run;

import dev.taikai.referee.game.GameAssignment;
import dev.taikai.referee.game.GameRecord;
import dev.taikai.tournament.Entrant;
import dev.taikai.tournament.Schedule;
import dev.taikai.tournament.TournamentSpec;
import dev.taikai.tournament.league.League;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * A league: its {@link League}, the entrants that ever joined, and the log of joins and leaves, each
 * stamped with the round it takes effect with. A round is paired only when the previous one is complete,
 * from the changes stamped for it and the results counted before, so replaying the log and the results
 * pairs exactly the same rounds again.
 */
final class LeaguePairer implements Pairer {
    private final TournamentSpec spec;
    private final League league;
    private final Map<String, Entrant> entrants = new LinkedHashMap<>();
    /** Joins and leaves of the spec's entrants that play from or until a round. */
    private final List<LeagueChange> scheduled = new ArrayList<>();
    /** Joins and leaves asked for while the league runs, in order. */
    private final List<LeagueChange> changes = new ArrayList<>();

    private final Map<String, String> dropped = new LinkedHashMap<>();
    private final List<String> passed = new ArrayList<>();
    /** The changes applied to the pool so far (by identity: each entry of the two lists once). */
    private final Set<LeagueChange> applied = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());

    /** Game pairs handed out in earlier rounds: the next round's first opening (Schedule.leagueGame). */
    private int pairsOpened;

    /** Games handed out in every round so far. */
    private int gamesPaired;

    LeaguePairer(TournamentSpec spec, League.Settings settings) {
        this.spec = spec;
        this.league = new League(settings);
        for (Entrant entrant : spec.entrants()) {
            if (entrant.rounds().from() == 1) {
                entrants.put(entrant.name(), entrant);
                league.join(entrant.name());
            } else {
                scheduled.add(new LeagueChange(
                        entrant.name(), entrant, entrant.rounds().from()));
            }
            if (entrant.rounds().until() > 0) {
                scheduled.add(
                        new LeagueChange(entrant.name(), null, entrant.rounds().until() + 1));
            }
        }
    }

    /** Every change not applied yet that takes effect by {@code round}, scheduled ones first. */
    private List<LeagueChange> pending(int round) {
        List<LeagueChange> pending = new ArrayList<>();
        for (List<LeagueChange> list : List.of(scheduled, changes)) {
            for (LeagueChange change : list) {
                if (!applied.contains(change) && change.beforeRound() <= round) {
                    pending.add(change);
                }
            }
        }
        return pending;
    }

    League league() {
        return league;
    }

    /** The changes asked for while the league runs (the spec's own are not among them). */
    List<LeagueChange> changes() {
        return List.copyOf(changes);
    }

    /** Engines that ever joined, those whose join waits for the next round included. */
    int entrantsEver() {
        return engines().size();
    }

    /** The engine id of every name that ever joined, pending joins included. */
    private Map<String, String> engines() {
        Map<String, String> engines = new LinkedHashMap<>();
        entrants.forEach((name, entrant) -> engines.put(name, entrant.engineId()));
        for (LeagueChange change : pending(Integer.MAX_VALUE)) {
            if (!change.leave()) {
                engines.putIfAbsent(change.name(), change.entrant().engineId());
            }
        }
        return engines;
    }

    /** The pool the next round will be paired from: today's with the pending changes applied. */
    private Set<String> nextPool() {
        Set<String> pool = new LinkedHashSet<>(league.pool());
        for (LeagueChange change : pending(league.rounds() + 1)) {
            if (change.leave()) {
                pool.remove(change.name());
            } else {
                pool.add(change.name());
            }
        }
        return pool;
    }

    /**
     * Logs a join ({@code entrant}) or a leave (null) of {@code name} for the next round, judged against
     * the pool as the changes logged so far will leave it.
     *
     * @throws IllegalArgumentException naming the field when it cannot be done
     */
    LeagueChange change(String name, Entrant entrant) {
        Set<String> pool = nextPool();
        if (entrant == null) {
            if (!pool.contains(name)) {
                throw new IllegalArgumentException("name: '" + name + "' is not in the league's pool");
            }
        } else {
            String known = engines().get(name);
            if ((known != null && !known.equals(entrant.engineId())) || pool.contains(name)) {
                throw new NameTaken("entrant.name: '" + name
                        + "' is in the league already (a name stands for one engine for good)");
            }
        }
        LeagueChange change = new LeagueChange(name, entrant, league.rounds() + 1);
        changes.add(change);
        return change;
    }

    /**
     * Takes {@code name} out of the pool before the round about to be paired, for {@code why} (an engine
     * that cannot start): a change that follows from the results, so a rebuild makes it again.
     */
    void drop(String name, String why) {
        dropped.put(name, why);
        league.leave(name);
    }

    /** The engines a league took out because they could not start, with why. */
    Map<String, String> dropped() {
        return java.util.Collections.unmodifiableMap(dropped);
    }

    /** Takes a change log published earlier (rebuilding); changes already known are kept. */
    void restore(List<LeagueChange> published) {
        for (int i = changes.size(); i < published.size(); i++) {
            changes.add(published.get(i));
        }
    }

    /**
     * The next round's games once the round before is complete. A round in which fewer than two engines
     * are in the pool while engines are to join later passes without games (said in {@link #passed()}),
     * so that the later rounds come; without joins to come it is not counted, and the league waits for a
     * join (a cluster) or ends ({@link #cannotPairAgain()}).
     */
    @Override
    public List<GameAssignment> next() {
        while (league.outstanding() == 0 && (spec.rounds() == 0 || league.rounds() < spec.rounds())) {
            int round = league.rounds() + 1;
            for (LeagueChange change : pending(round)) {
                applied.add(change);
                if (change.leave()) {
                    league.leave(change.name());
                } else {
                    entrants.put(change.name(), change.entrant());
                    league.join(change.name());
                }
            }
            List<League.Game> paired = league.nextRound();
            if (!paired.isEmpty()) {
                return assignments(paired);
            }
            if (!joinsToCome()) {
                break;
            }
            passed.add("round " + round + " passes without games: fewer than two engines are in the pool"
                    + (league.pool().isEmpty() ? "" : " (" + String.join(", ", league.pool()) + ")")
                    + "; more join later");
            league.passRound();
        }
        return List.of();
    }

    private List<GameAssignment> assignments(List<League.Game> paired) {
        List<GameAssignment> games = new ArrayList<>();
        int perPairing = Schedule.pairsOf(league.settings().gamesPerPairing());
        int pairings = 0;
        for (League.Game game : paired) {
            int openingPair = Schedule.openingPair(pairsOpened, game.pairing() - 1, perPairing, game.game());
            games.add(Schedule.leagueGame(
                    spec, game, entrants.get(game.sente()), entrants.get(game.gote()), openingPair));
            pairings = Math.max(pairings, game.pairing());
        }
        pairsOpened += pairings * perPairing;
        gamesPaired += games.size();
        return games;
    }

    /**
     * The games paired so far and those of the rounds to come, each paired from the pool as it is now with
     * the joins and leaves logged for it (an engine taken out plays no more). Asked only of a league with a
     * round count: one without has no total.
     */
    @Override
    public int gamesExpected(int fromTheSpec) {
        Set<String> pool = new LinkedHashSet<>(league.pool());
        List<LeagueChange> pending = pending(Integer.MAX_VALUE);
        java.util.TreeSet<Integer> starts = new java.util.TreeSet<>(List.of(league.rounds() + 1));
        pending.forEach(change -> starts.add(Math.max(change.beforeRound(), league.rounds() + 1)));
        long games = gamesPaired;
        for (int first : starts) {
            if (first > spec.rounds()) {
                break;
            }
            for (LeagueChange change : pending) { // in the order next() applies them
                if (change.beforeRound() <= first) {
                    if (change.leave()) {
                        pool.remove(change.name());
                    } else {
                        pool.add(change.name());
                    }
                }
            }
            pending.removeIf(change -> change.beforeRound() <= first);
            Integer next = starts.higher(first);
            int last = next == null ? spec.rounds() : Math.min(spec.rounds(), next - 1);
            games += (long) (last - first + 1)
                    * (pool.size() / 2)
                    * league.settings().gamesPerPairing();
        }
        return (int) Math.min(games, Integer.MAX_VALUE);
    }

    /** True when an engine is to join in a round not paired yet. */
    private boolean joinsToCome() {
        return java.util.stream.Stream.of(scheduled, changes)
                .flatMap(List::stream)
                .anyMatch(change -> !applied.contains(change) && !change.leave());
    }

    /** The rounds that passed without games, each said as a line, in order. */
    List<String> passed() {
        return java.util.Collections.unmodifiableList(passed);
    }

    @Override
    public void counted(GameAssignment game, GameRecord record) {
        league.record(game.gameId(), record.scoreOf(game.sente()));
    }

    @Override
    public boolean complete() {
        return spec.rounds() > 0 && league.rounds() >= spec.rounds() && league.outstanding() == 0;
    }

    /**
     * Why no further round can be paired, when none can and no engine is to join: fewer than two engines
     * are left in the pool. Empty while a round is in play, after the last round, or when one can pair.
     */
    Optional<String> cannotPairAgain() {
        if (league.outstanding() > 0
                || complete()
                || joinsToCome()
                || league.pool().size() >= 2) {
            return Optional.empty();
        }
        return Optional.of("the league ended after round " + league.rounds()
                + (spec.rounds() > 0 ? " of " + spec.rounds() : "") + ": fewer than two engines are left in its pool"
                + (league.pool().isEmpty() ? "" : " (" + String.join(", ", league.pool()) + ")"));
    }

    @Override
    public String finishedDetail() {
        return "all " + spec.rounds() + " rounds played";
    }

    @Override
    public Entrant entrant(String name) {
        Entrant entrant = entrants.get(name);
        if (entrant == null) {
            throw new IllegalArgumentException("no engine named " + name + " in the league");
        }
        return entrant;
    }

    int rounds() {
        return league.rounds();
    }
}
