package dev.taikai.cli.web;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.taikai.cli.run.Tournaments;
import dev.taikai.rules.Game;
import dev.taikai.rules.Notation;
import dev.taikai.rules.Sfen;
import dev.taikai.rules.Variant;
import dev.taikai.testkit.Await;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;

/**
 * report.html, the page a local run writes: opened from disk in headless Chromium with no network, it
 * shows the numbers of results.json, plots the SPRT's LLR path, and its viewer replays a game to the
 * record's final position.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class ReportPageTest {
    @Test
    void theReportOpensOfflineAndShowsTheRunsNumbersAndGames(@TempDir Path dir) throws Exception {
        Path out = Tournaments.playSprtMatch(dir);
        Path report = out.resolve("report.html");
        String html = Files.readString(report);
        assertFalse(html.matches("(?s).*(src|href)=\"https?:.*"), "nothing is loaded from the network");
        assertTrue(html.contains("\"finished\":true"), "the last report is the finished run's");
        try (var listing = Files.list(out)) {
            assertFalse(listing.anyMatch(p -> p.getFileName().toString().endsWith(".tmp")), "written whole");
        }
        JsonNode results = Tournaments.results(out);

        try (Browser browser = Browser.start(true)) {
            var driver = browser.driver();
            driver.get(report.toUri().toString());
            for (JsonNode row : results.get("standings")) {
                WebElement shown = driver.findElement(By.cssSelector(
                        "#standings tr[data-engine='" + row.get("engine").asText() + "']"));
                assertEquals(
                        row.get("points").asDouble(),
                        Double.parseDouble(shown.getAttribute("data-points")),
                        shown.getText());
                assertEquals(row.get("games").asText(), shown.getAttribute("data-games"));
                assertTrue(
                        shown.getText()
                                .contains(String.format(
                                        java.util.Locale.ROOT,
                                        "%.1f",
                                        row.get("elo").asDouble())),
                        shown.getText());
            }
            String sprt = driver.findElement(By.cssSelector("#match tr[data-measure='sprt']"))
                    .getText();
            assertTrue(
                    sprt.contains(results.get("match").get("sprt").get("status").asText()), sprt);
            JsonNode test = results.get("match").get("sprt");
            assertTrue(
                    sprt.contains("(alpha " + test.get("alpha").asText() + ", beta "
                            + test.get("beta").asText() + ")"),
                    "the test's error rates: " + sprt);
            assertFalse(
                    driver.findElements(By.cssSelector("#match .plot canvas")).isEmpty(), "the LLR path is drawn");
            // a run's results have each engine's clock figures (the dashboard's have none)
            String terminations = driver.findElement(By.id("terminations")).getText();
            assertTrue(terminations.contains("moves over time"), terminations);
            browser.screenshot(Path.of("target", "screenshots", "report-standings.png"));

            // results that did not vary: no interval on the page either (it showed "0.0 to 0.0")
            Path drawn = Tournaments.playDrawnMatch(dir);
            driver.get(drawn.resolve("report.html").toUri().toString());
            // a name with "<!--<script>" left the page blank: the data's script element never ended
            assertEquals("Taikai: " + Tournaments.DRAWN_MATCH_NAME, driver.getTitle());
            String elo = driver.findElement(By.cssSelector("#match tr[data-measure='elo']"))
                    .getText();
            assertTrue(elo.endsWith("0.0 (no interval)"), elo);
            // an infinite end (null in results.json) is said as the terminal says it, not as a dash
            String unbounded = eloRow(
                    driver,
                    drawn,
                    dir.resolve("one-sided"),
                    match -> match.put("elo", 607.4)
                            .put("elo_interval", true)
                            .put("elo_lower", 410.1)
                            .putNull("elo_upper"));
            assertTrue(unbounded.endsWith("607.4 (95%: 410.1 to +inf)"), unbounded);
            // an interval infinite at both ends was "(no interval)", and an infinite Elo a dash
            String open = eloRow(driver, drawn, dir.resolve("both-ends"), match -> match.put("elo_interval", true));
            assertTrue(open.endsWith("0.0 (95%: -inf to +inf)"), open);
            String won = eloRow(
                    driver,
                    drawn,
                    dir.resolve("infinite"),
                    match -> match.put("elo_infinite", 1).putNull("elo"));
            assertTrue(won.endsWith("+inf (no interval)"), won);

            Path kyoto = Tournaments.playRandomGames(dir);
            driver.get(kyoto.resolve("report.html").toUri().toString());
            JsonNode game = longest(Tournaments.results(kyoto).get("games"));
            driver.findElement(By.cssSelector(
                            "#games tr[data-game='" + game.get("id").asText() + "']"))
                    .click();
            driver.findElement(By.id("viewer-last")).click();
            WebElement board = driver.findElement(By.id("viewer-board"));
            String expected = finalBoard(game);
            Await.until(
                    Duration.ofSeconds(10),
                    "the viewer shows the final position " + expected,
                    () -> expected.equals(board.getAttribute("data-board-sfen")),
                    () -> board.getAttribute("data-board-sfen"));
            assertEquals(String.valueOf(game.get("plies").asInt()), board.getAttribute("data-ply"));
            assertFalse(
                    driver.findElements(By.cssSelector("#viewer .plot canvas")).isEmpty(), "the evaluation graph");
            driver.findElement(By.id("viewer-first")).click();
            assertEquals(game.get("start_sfen").asText().split(" ")[0], board.getAttribute("data-board-sfen"));
            assertEquals(25, board.findElements(By.cssSelector(".square")).size());
            driver.findElement(By.id("viewer-next")).click();
            assertEquals("1", board.getAttribute("data-ply"));
            browser.screenshot(Path.of("target", "screenshots", "report-viewer.png"));
            assertTrue(driver.findElement(By.cssSelector("#viewer .moves span[data-ply='1']"))
                    .getText()
                    .startsWith("1. "));

            // a game from a position with gote to move: its first move is gote's, not numbered as sente's
            String id = game.get("id").asText();
            Path goteFirst = Tournaments.reportEdited(
                    kyoto,
                    edited -> {
                        for (JsonNode each : edited.get("games")) {
                            if (each.get("id").asText().equals(id)) {
                                var g = (com.fasterxml.jackson.databind.node.ObjectNode) each;
                                var moves = (com.fasterxml.jackson.databind.node.ArrayNode) g.get("moves");
                                g.put("start_sfen", afterFirstMove(g));
                                moves.remove(0);
                                ((com.fasterxml.jackson.databind.node.ArrayNode) g.get("move_data")).remove(0);
                                g.put("plies", moves.size());
                            }
                        }
                    },
                    dir.resolve("gote-first"));
            driver.get(goteFirst.toUri().toString());
            driver.findElement(By.cssSelector("#games tr[data-game='" + id + "']"))
                    .click();
            assertTrue(
                    driver.findElement(By.cssSelector("#viewer .moves span[data-ply='1']"))
                            .getText()
                            .startsWith("1. … "),
                    driver.findElement(By.cssSelector("#viewer .moves")).getText());
            assertTrue(
                    driver.findElement(By.cssSelector("#viewer .moves span[data-ply='2']"))
                            .getText()
                            .startsWith("2. "),
                    driver.findElement(By.cssSelector("#viewer .moves")).getText());

            // a knockout's bracket and winner, and a Swiss's table, were in results.json and on the console only
            Path knockout = Tournaments.playFormat(dir, "knockout");
            JsonNode bracket = Tournaments.results(knockout).get("knockout");
            driver.get(knockout.resolve("report.html").toUri().toString());
            assertEquals(
                    "Winner: " + bracket.get("winner").asText(),
                    driver.findElement(By.id("knockout-winner")).getText());
            int matches = 0;
            for (JsonNode round : bracket.get("rounds")) {
                matches += round.size();
            }
            assertEquals(
                    matches,
                    driver.findElements(By.cssSelector("#knockout tr[data-round]"))
                            .size());
            Path swiss = Tournaments.playFormat(dir, "swiss");
            JsonNode table = Tournaments.results(swiss).get("swiss").get("table");
            driver.get(swiss.resolve("report.html").toUri().toString());
            var rows = driver.findElements(By.cssSelector("#swiss tr[data-engine]"));
            assertEquals(table.size(), rows.size());
            for (int i = 0; i < table.size(); i++) {
                assertEquals(
                        table.get(i).get("engine").asText(),
                        rows.get(i).getAttribute("data-engine"),
                        "in the table's order");
            }

            // a long run's page keeps the evaluations and times of its latest 1000 games only: a page of
            // every game's would be gigabytes at 100,000 games
            Path longRun = Tournaments.reportOfLongRun(kyoto, 1003, dir.resolve("long"));
            String page = Files.readString(longRun);
            assertEquals(1000, page.split("\"move_data\"", -1).length - 1, "move data of the latest 1000 games");
            driver.get(longRun.toUri().toString());
            assertTrue(
                    driver.findElement(By.id("header"))
                            .getText()
                            .contains("1003 games (evaluations and times of the" + " latest 1000)"),
                    driver.findElement(By.id("header")).getText());
            driver.findElement(By.cssSelector("#games tr[data-game='long-1']")).click();
            assertTrue(
                    driver.findElement(By.id("viewer-no-move-data")).getText().contains("in results.json"));
            assertTrue(
                    driver.findElements(By.cssSelector("#viewer .plot canvas")).isEmpty(), "no graph without data");
            driver.findElement(By.cssSelector("#games tr[data-game='long-1003']"))
                    .click();
            assertTrue(driver.findElements(By.id("viewer-no-move-data")).isEmpty());
            assertFalse(
                    driver.findElements(By.cssSelector("#viewer .plot canvas")).isEmpty(), "the latest game's graph");
        }
    }

    private static JsonNode longest(JsonNode games) {
        JsonNode longest = games.get(0);
        for (JsonNode game : games) {
            if (game.get("plies").asInt() > longest.get("plies").asInt()) {
                longest = game;
            }
        }
        return longest;
    }

    /** The board part of the game's final position, by the rules. */
    /** The SFEN of {@code game}'s position after its first move (gote to move). */
    private static String afterFirstMove(JsonNode game) {
        Variant variant = Variant.byName(game.get("variant").asText()).orElseThrow();
        try {
            Game replay = new Game(Sfen.parse(variant, game.get("start_sfen").asText()));
            replay.play(game.get("moves").get(0).asText(), Notation.FAIRY_STOCKFISH);
            return replay.position().toSfen();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static String finalBoard(JsonNode game) throws Exception {
        Game replay = Tournaments.replay(game);
        return replay.position().toSfen().split(" ")[0];
    }

    /** The Elo row of the page of {@code played} with its results' match edited by {@code edit}. */
    private static String eloRow(
            org.openqa.selenium.WebDriver driver,
            Path played,
            Path dir,
            java.util.function.Consumer<com.fasterxml.jackson.databind.node.ObjectNode> edit)
            throws Exception {
        Path page = Tournaments.reportEdited(
                played,
                edited -> edit.accept((com.fasterxml.jackson.databind.node.ObjectNode) edited.get("match")),
                dir);
        driver.get(page.toUri().toString());
        return driver.findElement(By.cssSelector("#match tr[data-measure='elo']"))
                .getText();
    }
}
