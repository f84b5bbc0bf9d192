package dev.taikai.cli.run;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
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
        ObjectNode data = mapper.createObjectNode();
        data.set("results", mapper.readTree(resultsJson));
        data.put("written", Instant.now().truncatedTo(ChronoUnit.SECONDS).toString());
        data.put("finished", finished);
        if (sprt != null && standings != null && match.size() == 2) {
            ArrayNode path = data.putArray("llr_path");
            List<Pentanomial> pairs = standings.pentanomialPath(match.get(0), match.get(1));
            for (int i = 0; i < pairs.size(); i++) {
                path.addArray().add(2 * (i + 1)).add(sprt.llr(pairs.get(i)));
            }
        }
        String page = resource("dev/taikai/web/report.html");
        page = page.replace("/*taikai:uplot.css*/", resource(UPLOT + "uPlot.min.css"))
                .replace("/*taikai:taikai.css*/", resource(UI + "taikai.css"))
                .replace("/*taikai:uplot.js*/", script(resource(UPLOT + "uPlot.iife.min.js")))
                .replace("/*taikai:board.js*/", script(resource(UI + "board.js")))
                .replace("/*taikai:views.js*/", script(resource(UI + "views.js")));
        // the data last, so that nothing in it is taken for a placeholder
        return page.replace("/*taikai:data*/", json(mapper.writeValueAsString(data)));
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
