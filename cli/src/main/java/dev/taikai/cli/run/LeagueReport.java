package dev.taikai.cli.run;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.taikai.tournament.league.League;
import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A league's part of a run's report and of results.json: the ratings by which the league pairs (the same
 * fit and figures the cluster serves at /standings), each engine's rating after every round, and the
 * crosstable.
 */
final class LeagueReport {
    private LeagueReport() {}

    static void print(PrintWriter out, League league, Map<String, String> dropped) {
        out.printf(
                Locale.ROOT,
                "%nLeague ratings after %s (the pairing's ratings)%n",
                Plural.of(league.rounds(), "round", "rounds"));
        out.printf(Locale.ROOT, "%4s  %-20s %8s %7s %6s  %s%n", "Rank", "Engine", "Elo", "±95%", "Games", "");
        int rank = 0;
        for (Map.Entry<String, League.Rating> e : league.ratingsBestFirst()) {
            League.Rating r = e.getValue();
            out.printf(
                    Locale.ROOT,
                    "%4d  %-20s %8s %7s %6d  %s%n",
                    ++rank,
                    e.getKey(),
                    r.games() > 0 ? Report.elo(r.elo(), true) : "-",
                    r.games() > 0 ? Report.elo(r.error(), false) : "-",
                    r.games(),
                    league.pool().contains(e.getKey())
                            ? ""
                            : dropped.containsKey(e.getKey())
                                    ? "(taken out: " + dropped.get(e.getKey()) + ")"
                                    : "(left)");
        }
        out.printf("%nRating history (Elo after each round the engine had played in by then)%n");
        league.history().forEach((engine, points) -> {
            StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "  %-20s", engine));
            for (League.HistoryPoint p : points) {
                line.append(String.format(Locale.ROOT, " r%d %s", p.round(), Report.elo(p.elo(), true)));
            }
            out.println(line);
        });
        out.printf("%nCrosstable (points of the row's engine against the column's, games in brackets)%n");
        Map<String, Map<String, League.Score>> table = league.crosstable();
        List<String> engines = List.copyOf(table.keySet());
        StringBuilder header = new StringBuilder(String.format(Locale.ROOT, "  %-20s", ""));
        for (String engine : engines) {
            header.append(String.format(Locale.ROOT, " %10s", abbreviate(engine)));
        }
        out.println(header);
        for (String row : engines) {
            StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "  %-20s", row));
            for (String column : engines) {
                League.Score score = table.get(row).get(column);
                line.append(
                        score == null
                                ? String.format(Locale.ROOT, " %10s", row.equals(column) ? "x" : "-")
                                : String.format(Locale.ROOT, " %10s", score.points() + " (" + score.games() + ")"));
            }
            out.println(line);
        }
    }

    /** The league as results.json's {@code league}: ratings, history and crosstable. */
    static ObjectNode json(ObjectNode league, League l) {
        league.put("rounds", l.rounds());
        ArrayNode ratings = league.putArray("ratings");
        for (Map.Entry<String, League.Rating> e : l.ratingsBestFirst()) {
            ObjectNode r = ratings.addObject();
            r.put("engine", e.getKey());
            boolean rated = e.getValue().games() > 0; // without a game an engine has no rating
            RunRecords.putNumber(r, "elo", rated ? e.getValue().elo() : Double.NaN);
            RunRecords.putNumber(r, "error", rated ? e.getValue().error() : Double.NaN);
            r.put("games", e.getValue().games());
            r.put("active", l.pool().contains(e.getKey()));
        }
        ObjectNode history = league.putObject("history");
        l.history().forEach((engine, points) -> {
            ArrayNode list = history.putArray(engine);
            for (League.HistoryPoint p : points) {
                ObjectNode point = list.addObject();
                point.put("round", p.round());
                RunRecords.putNumber(point, "elo", p.elo());
                RunRecords.putNumber(point, "error", p.error());
            }
        });
        ObjectNode crosstable = league.putObject("crosstable");
        l.crosstable().forEach((engine, cells) -> {
            ObjectNode row = crosstable.putObject(engine);
            cells.forEach((opponent, score) -> {
                ObjectNode cell = row.putObject(opponent);
                cell.put("points", score.points());
                cell.put("games", score.games());
            });
        });
        return league;
    }

    private static String abbreviate(String engine) {
        return engine.length() <= 10 ? engine : engine.substring(0, 9) + "…";
    }
}
