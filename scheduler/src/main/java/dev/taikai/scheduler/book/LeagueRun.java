package dev.taikai.scheduler.book;

import dev.taikai.proto.tournament.v1.CrosstableCell;
import dev.taikai.proto.tournament.v1.CrosstableRow;
import dev.taikai.proto.tournament.v1.LeagueChange;
import dev.taikai.proto.tournament.v1.LeagueRating;
import dev.taikai.proto.tournament.v1.LeagueTable;
import dev.taikai.proto.tournament.v1.RatingHistory;
import dev.taikai.proto.tournament.v1.RatingPoint;
import dev.taikai.referee.game.GameAssignment;
import dev.taikai.referee.game.TimeControl;
import dev.taikai.tournament.Entrant;
import dev.taikai.tournament.Schedule;
import dev.taikai.tournament.TournamentSpec;
import dev.taikai.tournament.league.League;
import dev.taikai.tournament.messages.TournamentMessages;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A league tournament inside the book: its {@link League}, the entrants that ever joined, the log of joins
 * and leaves (each stamped with the round it takes effect with) and the games paired so far.
 *
 * <p>Rounds are paired only when the previous round is complete, from the joins and leaves stamped for
 * them and the results counted before: so replaying the log and the game records in their order (a
 * rebuild from Kafka) pairs exactly the same rounds again.
 */
final class LeagueRun {
    private final TournamentSpec spec;
    private final TimeControl commonTimeControl;
    private final League league;
    private final Map<String, Entrant> entrants = new LinkedHashMap<>();
    private final List<LeagueChange> changes = new ArrayList<>();
    private int applied;
    private final Map<String, GameAssignment> games = new LinkedHashMap<>();
    private final Deque<GameAssignment> unpublished = new ArrayDeque<>();

    LeagueRun(TournamentSpec spec, dev.taikai.proto.tournament.v1.TournamentSpec message) {
        this.spec = spec;
        this.commonTimeControl = TournamentMessages.commonTimeControl(message);
        this.league = new League(TournamentMessages.leagueSettings(message));
        for (Entrant entrant : spec.entrants()) {
            entrants.put(entrant.name(), entrant);
            league.join(entrant.name());
        }
    }

    /**
     * Records a join or leave from the API for the next round.
     *
     * @throws IllegalArgumentException naming the field when it cannot be done
     */
    LeagueChange change(dev.taikai.proto.tournament.v1.Entrant entrant, boolean leave) {
        if (leave) {
            if (!league.pool().contains(entrant.getName())) {
                throw new IllegalArgumentException("name: '" + entrant.getName() + "' is not in the league's pool");
            }
        } else {
            Entrant parsed = TournamentMessages.entrant("entrant", entrant, commonTimeControl);
            if (entrants.containsKey(parsed.name())) {
                Entrant known = entrants.get(parsed.name());
                if (!known.engineId().equals(parsed.engineId()) || league.pool().contains(parsed.name())) {
                    throw new IllegalArgumentException("entrant.name: '" + parsed.name()
                            + "' is in the league already (a name stands for one engine for good)");
                }
            }
            if (entrants.size() >= TournamentMessages.MAX_ENTRANTS && !entrants.containsKey(parsed.name())) {
                throw new IllegalArgumentException(
                        "entrant: a league has at most " + TournamentMessages.MAX_ENTRANTS + " engines over its life");
            }
        }
        LeagueChange change = LeagueChange.newBuilder()
                .setEntrant(entrant)
                .setLeave(leave)
                .setBeforeRound(league.rounds() + 1)
                .build();
        changes.add(change);
        return change;
    }

    /** Takes the change log of a published state (rebuilding); changes already known are kept. */
    void restore(List<LeagueChange> published) {
        for (int i = changes.size(); i < published.size(); i++) {
            changes.add(published.get(i));
        }
    }

    /**
     * Pairs the next round when the current one is complete and {@code mayPair}, applying the joins and
     * leaves stamped for it. Returns false when no round could be paired (fewer than two engines).
     */
    boolean pairNextRound() {
        if (league.outstanding() > 0 || (spec.rounds() > 0 && league.rounds() >= spec.rounds())) {
            return false;
        }
        int next = league.rounds() + 1;
        while (applied < changes.size() && changes.get(applied).getBeforeRound() <= next) {
            LeagueChange change = changes.get(applied++);
            String name = change.getEntrant().getName();
            if (change.getLeave()) {
                league.leave(name);
            } else {
                Entrant entrant = TournamentMessages.entrant("entrant", change.getEntrant(), commonTimeControl);
                entrants.put(entrant.name(), entrant);
                league.join(entrant.name());
            }
        }
        List<League.Game> round = league.nextRound();
        for (League.Game game : round) {
            GameAssignment assignment =
                    Schedule.leagueGame(spec, game, entrants.get(game.sente()), entrants.get(game.gote()));
            games.put(assignment.gameId(), assignment);
            unpublished.addLast(assignment);
        }
        return !round.isEmpty();
    }

    /** The game paired under {@code id} with exactly these colours, if it is one. */
    Optional<GameAssignment> game(String id, String sente, String gote) {
        GameAssignment game = games.get(id);
        return game != null && game.sente().equals(sente) && game.gote().equals(gote)
                ? Optional.of(game)
                : Optional.empty();
    }

    /** Counts a game once; false for a game counted already or never paired. */
    boolean count(String id, double senteScore) {
        return league.record(id, senteScore);
    }

    /** True when every round there will be is played (never for a league without an end). */
    boolean complete() {
        return spec.rounds() > 0 && league.rounds() >= spec.rounds() && league.outstanding() == 0;
    }

    GameAssignment nextUnpublished() {
        return unpublished.pollFirst();
    }

    boolean hasUnpublished() {
        return !unpublished.isEmpty();
    }

    int unpublishedCount() {
        return unpublished.size();
    }

    Entrant entrant(String name) {
        return entrants.get(name);
    }

    int pairedGames() {
        return games.size();
    }

    int rounds() {
        return league.rounds();
    }

    List<LeagueChange> changes() {
        return List.copyOf(changes);
    }

    /** Ratings (best first), each engine's history and the crosstable. */
    LeagueTable table() {
        LeagueTable.Builder table = LeagueTable.newBuilder().setRounds(league.rounds());
        Map<String, League.Rating> ratings = league.ratings();
        ratings.entrySet().stream()
                .sorted((a, b) ->
                        Double.compare(b.getValue().elo(), a.getValue().elo()))
                .forEach(e -> table.addRatings(LeagueRating.newBuilder()
                        .setEngine(e.getKey())
                        .setElo(e.getValue().elo())
                        .setError(e.getValue().error())
                        .setGames(e.getValue().games())
                        .setActive(league.pool().contains(e.getKey()))));
        league.history().forEach((engine, points) -> {
            RatingHistory.Builder history = RatingHistory.newBuilder().setEngine(engine);
            for (League.HistoryPoint p : points) {
                history.addPoints(RatingPoint.newBuilder()
                        .setRound(p.round())
                        .setElo(p.elo())
                        .setError(p.error()));
            }
            table.addHistory(history);
        });
        league.crosstable().forEach((engine, cells) -> {
            CrosstableRow.Builder row = CrosstableRow.newBuilder().setEngine(engine);
            cells.forEach((opponent, score) -> row.addCells(CrosstableCell.newBuilder()
                    .setOpponent(opponent)
                    .setPoints(score.points())
                    .setGames(score.games())));
            table.addCrosstable(row);
        });
        return table.build();
    }
}
