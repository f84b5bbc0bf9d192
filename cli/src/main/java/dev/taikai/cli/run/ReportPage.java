package dev.taikai.cli.run;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.taikai.tournament.Standings;
import dev.taikai.tournament.stats.Pentanomial;
import dev.taikai.tournament.stats.Sprt;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;

/**
 * {@code report.html}: a run's results as a page that opens from disk with no network: the page, its
 * styles and scripts (the web module's, and uPlot from its webjar) and the run's results.json, all in one
 * file. The same numbers as results.json, because they are results.json; an SPRT match adds its LLR after
 * each pair, for the plot.
 */
final class ReportPage {
    /**
     * Games whose per-move data ({@code move_data}: times, scores, the viewer's evaluation graph) the page
     * holds: the latest ones. That data is nine tenths of a game's JSON, so a run of 100,000 games would
     * write a page of gigabytes, held several times in memory while it is written; older games keep
     * everything else (their row, result and moves), and results.json keeps all.
     */
    static final int GAMES_WITH_MOVE_DATA = 1000;

    private static final String UI = "META-INF/resources/ui/";
    private static final String UPLOT = "META-INF/resources/webjars/uplot/" + uplotVersion() + "/dist/";

    private ReportPage() {}

    /**
     * The page for {@code resultsJson} (results.json's text); with an SPRT, the LLR path from {@code
     * standings} (null: none yet); {@code finished} when the run has ended.
     */
    static String render(String resultsJson, Standings standings, Sprt sprt, List<String> match, boolean finished)
            throws IOException {
        ObjectMapper mapper = new ObjectMapper();
        java.io.StringWriter data = new java.io.StringWriter(resultsJson.length() + 1024);
        try (JsonGenerator out = mapper.getFactory().createGenerator(data)) {
            out.writeStartObject();
            out.writeFieldName("results");
            int games = copyResults(resultsJson, mapper, out);
            out.writeNumberField("games_with_move_data", Math.min(games, GAMES_WITH_MOVE_DATA));
            out.writeStringField(
                    "written", Instant.now().truncatedTo(ChronoUnit.SECONDS).toString());
            out.writeBooleanField("finished", finished);
            if (sprt != null && standings != null && match.size() == 2) {
                out.writeArrayFieldStart("llr_path");
                List<Pentanomial> pairs = standings.pentanomialPath(match.get(0), match.get(1));
                for (int i = 0; i < pairs.size(); i++) {
                    out.writeStartArray();
                    out.writeNumber(2 * (i + 1));
                    out.writeNumber(sprt.llr(pairs.get(i)));
                    out.writeEndArray();
                }
                out.writeEndArray();
            }
            out.writeEndObject();
        }
        String page = resource("dev/taikai/web/report.html");
        page = page.replace("/*taikai:uplot.css*/", resource(UPLOT + "uPlot.min.css"))
                .replace("/*taikai:taikai.css*/", resource(UI + "taikai.css"))
                .replace("/*taikai:uplot.js*/", script(resource(UPLOT + "uPlot.iife.min.js")))
                .replace("/*taikai:board.js*/", script(resource(UI + "board.js")))
                .replace("/*taikai:views.js*/", script(resource(UI + "views.js")));
        // the data last, so that nothing in it is taken for a placeholder
        return page.replace("/*taikai:data*/", json(data.toString()));
    }

    /**
     * Copies results.json to {@code out} a game at a time (never the whole file as a tree), without the
     * {@code move_data} of all but the latest {@value #GAMES_WITH_MOVE_DATA} games; the number of games.
     */
    private static int copyResults(String resultsJson, ObjectMapper mapper, JsonGenerator out) throws IOException {
        int games = countGames(resultsJson, mapper);
        try (JsonParser in = mapper.getFactory().createParser(resultsJson)) {
            in.nextToken();
            out.writeStartObject();
            while (in.nextToken() == JsonToken.FIELD_NAME) {
                String field = in.currentName();
                JsonToken value = in.nextToken();
                out.writeFieldName(field);
                if (!field.equals("games") || value != JsonToken.START_ARRAY) {
                    out.copyCurrentStructure(in);
                    continue;
                }
                out.writeStartArray();
                for (int i = 0; in.nextToken() != JsonToken.END_ARRAY; i++) {
                    JsonNode game = mapper.readTree(in);
                    if (i < games - GAMES_WITH_MOVE_DATA && game instanceof ObjectNode object) {
                        object.remove("move_data");
                    }
                    mapper.writeTree(out, game);
                }
                out.writeEndArray();
            }
            out.writeEndObject();
        }
        return games;
    }

    /** The games in results.json's text: the elements of its top-level {@code games} array. */
    private static int countGames(String resultsJson, ObjectMapper mapper) throws IOException {
        try (JsonParser in = mapper.getFactory().createParser(resultsJson)) {
            in.nextToken();
            while (in.nextToken() == JsonToken.FIELD_NAME) {
                String field = in.currentName();
                JsonToken value = in.nextToken();
                if (field.equals("games") && value == JsonToken.START_ARRAY) {
                    int games = 0;
                    while (in.nextToken() != JsonToken.END_ARRAY) {
                        in.skipChildren();
                        games++;
                    }
                    return games;
                }
                in.skipChildren();
            }
            return 0;
        }
    }

    /**
     * JSON to inline in a script element: every {@code <} (JSON has them only in strings) as {@code \u003c},
     * so that no text of a run, an engine's or tournament's name, can close the element or open
     * {@code <!--<script>}, after which the browser reads the rest of the page as script.
     */
    private static String json(String json) {
        return json.replace("<", "\\u003c");
    }

    /** Text to inline in a script element: no "</" can close it early. */
    private static String script(String text) {
        return text.replace("</", "<\\/");
    }

    private static String resource(String path) {
        try (InputStream in = ReportPage.class.getClassLoader().getResourceAsStream(path)) {
            if (in == null) {
                throw new IllegalStateException("the report's resource " + path + " is missing from the build");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** uPlot's version, from its webjar's Maven properties. */
    private static String uplotVersion() {
        java.util.Properties properties = new java.util.Properties();
        try (InputStream in = ReportPage.class
                .getClassLoader()
                .getResourceAsStream("META-INF/maven/org.webjars.npm/uplot/pom.properties")) {
            if (in == null) {
                throw new IllegalStateException("uPlot's webjar is missing from the build");
            }
            properties.load(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return properties.getProperty("version");
    }
}
