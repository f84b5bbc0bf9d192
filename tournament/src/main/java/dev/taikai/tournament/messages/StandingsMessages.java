package dev.taikai.tournament.messages;

import dev.taikai.proto.tournament.v1.MatchStatistics;
import dev.taikai.proto.tournament.v1.PairingScore;
import dev.taikai.proto.tournament.v1.StandingsRow;
import dev.taikai.proto.tournament.v1.TerminationCounts;
import dev.taikai.rules.Termination;
import dev.taikai.tournament.Entrant;
import dev.taikai.tournament.Standings;
import dev.taikai.tournament.TournamentSpec;
import dev.taikai.tournament.stats.EloInterval;
import dev.taikai.tournament.stats.Pentanomial;
import dev.taikai.tournament.stats.Wdl;
import java.util.List;
import java.util.Map;

/** Standings as the {@code taikai.tournament.v1.Standings} message: the same figures the local report prints. */
public final class StandingsMessages {
    private StandingsMessages() {}

    public static dev.taikai.proto.tournament.v1.Standings toProto(
            String tournamentId, TournamentSpec spec, Standings standings) {
        var builder = dev.taikai.proto.tournament.v1.Standings.newBuilder()
                .setTournamentId(tournamentId)
                .setGames(standings.gamesPlayed());
        for (Standings.Row row : standings.table()) {
            builder.addRows(StandingsRow.newBuilder()
                    .setRank(row.rank())
                    .setEngine(row.engine())
                    .setGames((int) row.games())
                    .setPoints(row.points())
                    .setWins((int) row.wdl().wins())
                    .setDraws((int) row.wdl().draws())
                    .setLosses((int) row.wdl().losses())
                    .setElo(row.elo())
                    .setEloError(row.eloError()));
        }
        List<Entrant> entrants = spec.entrants();
        for (Standings.PairingScore pairing : standings.pairings()) {
            builder.addPairings(PairingScore.newBuilder()
                    .setFirst(pairing.first())
                    .setSecond(pairing.second())
                    .setFirstWins((int) pairing.wdl().wins())
                    .setDraws((int) pairing.wdl().draws())
                    .setSecondWins((int) pairing.wdl().losses()));
        }
        for (Entrant entrant : entrants) {
            Map<Termination, Integer> counts = standings.terminations(entrant.name());
            builder.addTerminations(TerminationCounts.newBuilder()
                    .setEngine(entrant.name())
                    .setTimeForfeits(counts.getOrDefault(Termination.TIME_FORFEIT, 0))
                    .setIllegalMoves(counts.getOrDefault(Termination.ILLEGAL_MOVE, 0))
                    .setDisconnects(counts.getOrDefault(Termination.DISCONNECT, 0))
                    .setStalls(counts.getOrDefault(Termination.STALL, 0))
                    .setResignations(counts.getOrDefault(Termination.RESIGNATION, 0))
                    .setAdjudications(counts.getOrDefault(Termination.ADJUDICATION, 0)));
        }
        if (entrants.size() == 2) {
            String a = entrants.get(0).name();
            String b = entrants.get(1).name();
            Wdl wdl = standings.between(a, b);
            EloInterval elo = EloInterval.of(wdl);
            Pentanomial pairs = standings.pentanomial(a, b);
            var match = MatchStatistics.newBuilder()
                    .setElo(elo.elo())
                    .setLos(wdl.los())
                    .setDrawRatio(wdl.drawRatio());
            // as results.json: no interval where the games did not vary, which a half-width of 0 would
            // claim as certain
            if (elo.defined(wdl.games())) {
                match.setEloLower(elo.lower()).setEloUpper(elo.upper());
                if (Double.isFinite(elo.error())) {
                    match.setEloError(elo.error());
                }
            }
            for (long count : pairs.counts()) {
                match.addPentanomial((int) count);
            }
            if (spec.sprt() != null) {
                match.setLlr(spec.sprt().llr(pairs))
                        .setLlrLower(spec.sprt().lowerBound())
                        .setLlrUpper(spec.sprt().upperBound());
                for (Pentanomial after : standings.pentanomialPath(a, b)) {
                    match.addLlrPath(spec.sprt().llr(after));
                }
            }
            builder.setMatch(match);
        }
        return builder.build();
    }

    /** A league's table: ratings (best first), each engine's history and the crosstable. */
    public static dev.taikai.proto.tournament.v1.LeagueTable leagueTable(dev.taikai.tournament.league.League league) {
        var table = dev.taikai.proto.tournament.v1.LeagueTable.newBuilder().setRounds(league.rounds());
        league.ratingsBestFirst().forEach(e -> {
            var rating = dev.taikai.proto.tournament.v1.LeagueRating.newBuilder()
                    .setEngine(e.getKey())
                    .setGames(e.getValue().games())
                    .setActive(league.pool().contains(e.getKey()));
            if (e.getValue().games() > 0) { // without a game an engine has no rating (no elo, no error)
                rating.setElo(e.getValue().elo()).setError(e.getValue().error());
            }
            table.addRatings(rating);
        });
        league.history().forEach((engine, points) -> {
            var history =
                    dev.taikai.proto.tournament.v1.RatingHistory.newBuilder().setEngine(engine);
            for (var p : points) {
                history.addPoints(dev.taikai.proto.tournament.v1.RatingPoint.newBuilder()
                        .setRound(p.round())
                        .setElo(p.elo())
                        .setError(p.error()));
            }
            table.addHistory(history);
        });
        league.crosstable().forEach((engine, cells) -> {
            var row = dev.taikai.proto.tournament.v1.CrosstableRow.newBuilder().setEngine(engine);
            cells.forEach((opponent, score) -> row.addCells(dev.taikai.proto.tournament.v1.CrosstableCell.newBuilder()
                    .setOpponent(opponent)
                    .setPoints(score.points())
                    .setGames(score.games())));
            table.addCrosstable(row);
        });
        return table.build();
    }

    /**
     * A format's outcome ({@code TournamentRun.formatOutcome}: maps, lists, strings, numbers, booleans and
     * nulls) as a protobuf Struct, which the API's JSON gives as the same object results.json has.
     */
    public static com.google.protobuf.Struct struct(Map<?, ?> outcome) {
        com.google.protobuf.Struct.Builder struct = com.google.protobuf.Struct.newBuilder();
        outcome.forEach((key, value) -> struct.putFields(String.valueOf(key), value(value)));
        return struct.build();
    }

    private static com.google.protobuf.Value value(Object value) {
        com.google.protobuf.Value.Builder v = com.google.protobuf.Value.newBuilder();
        if (value == null) {
            v.setNullValue(com.google.protobuf.NullValue.NULL_VALUE);
        } else if (value instanceof Number number) {
            v.setNumberValue(number.doubleValue());
        } else if (value instanceof Boolean bool) {
            v.setBoolValue(bool);
        } else if (value instanceof Map<?, ?> map) {
            v.setStructValue(struct(map));
        } else if (value instanceof java.util.Collection<?> list) {
            com.google.protobuf.ListValue.Builder items = com.google.protobuf.ListValue.newBuilder();
            list.forEach(item -> items.addValues(value(item)));
            v.setListValue(items);
        } else {
            v.setStringValue(String.valueOf(value));
        }
        return v.build();
    }
}
