package dev.taikai.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.taikai.access.Role;
import dev.taikai.access.tls.LocalCa;
import dev.taikai.access.tls.TlsFiles;
import dev.taikai.cli.cluster.LocalCluster;
import dev.taikai.cli.cluster.SchedulerClient;
import dev.taikai.cli.web.Browser;
import dev.taikai.proto.common.v1.GameRecord;
import dev.taikai.proto.tournament.v1.Status;
import dev.taikai.testkit.Await;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.chrome.ChromeDriver;

/**
 * The dashboard the scheduler serves, in Debian's headless Chromium against a real local cluster: the
 * login refuses a wrong token and takes a viewer's; the live view's board changes as Fairy-Stockfish
 * plays; a tournament's standings are the API's and its viewer replays a finished game to the record's
 * final position; a league's rating history is plotted after a round; the cluster page shows the referee
 * and its worker. Screenshots of each page go to target/screenshots and must not be blank.
 */
@Timeout(value = 600, unit = TimeUnit.SECONDS)
class DashboardTest {
    private static final Duration WITHIN = Duration.ofSeconds(120);
    private static final Path SHOTS = Path.of("target", "screenshots");

    @TempDir
    static Path dir;

    private static LocalCluster cluster;
    private static SchedulerClient admin;
    private static Browser browser;
    private static ChromeDriver driver;
    private static String base;

    @BeforeAll
    static void up() throws Exception {
        ClusterProbe.threeFakes(dir);
        // resigns at once: a match of two of them is won by gote in every game, one game each a pair
        Files.writeString(
                dir.resolve("fakes.yaml"),
                dev.taikai.cli.run.Tournaments.fakeEntry("fake-resign", "--resign"),
                java.nio.file.StandardOpenOption.APPEND);
        cluster = ClusterProbe.start(
                dir.resolve("cluster"),
                new LocalCluster.Shape(1, 1, 4, 2, dir.resolve("fakes.yaml").toString()));
        // the scheduler's certificate is of the cluster's own CA: the browser trusts that one key
        browser = Browser.start(
                false,
                List.of(LocalCa.readCertificate(
                        cluster.certificates().orElseThrow().folder("scheduler").resolve(TlsFiles.CERTIFICATE))));
        driver = browser.driver();
        admin = cluster.schedulerClient(Role.ADMIN);
        base = cluster.scheduler().http();
        login();
    }

    @AfterAll
    static void down() throws Exception {
        if (browser != null) {
            browser.close();
        }
        if (cluster != null) {
            ClusterProbe.stop(cluster, "dashboard-logs");
        }
    }

    /** A wrong token is refused on the page; the viewer's opens the dashboard. */
    private static void login() throws Exception {
        driver.get(base + "/");
        Await.until(
                WITHIN,
                "the dashboard sends a stranger to the login",
                () -> driver.getCurrentUrl().contains("/ui/login.html"),
                driver::getCurrentUrl);
        driver.findElement(By.id("token")).sendKeys("not-a-token");
        driver.findElement(By.id("submit")).click();
        Await.until(
                WITHIN,
                "a wrong token is refused",
                () -> driver.findElement(By.id("message")).getText().startsWith("Refused"),
                () -> driver.findElement(By.id("message")).getText());
        browser.screenshot(SHOTS.resolve("dashboard-login-refused.png"));
        driver.findElement(By.id("token")).sendKeys(cluster.token(Role.VIEWER));
        driver.findElement(By.id("submit")).click();
        Await.until(
                WITHIN,
                "the viewer's token opens the dashboard",
                () -> !driver.findElements(By.id("tournaments")).isEmpty(),
                driver::getCurrentUrl);
        assertFalse(driver.getCurrentUrl().contains(cluster.token(Role.VIEWER)), "no token in the URL");
        assertTrue(driver.manage().getCookieNamed("taikai_session").isHttpOnly(), "the session is an HttpOnly cookie");
    }

    @Test
    void theLiveBoardMovesAsFairyStockfishPlaysAndTheFinishedGameReplaysToItsEnd() throws Exception {
        String id = submit(
                "live.yaml",
                String.join(
                        "\n",
                        "name: live",
                        "variant: minishogi",
                        "games: 2",
                        "rounds: 1",
                        "time-control: byoyomi 0.3",
                        "adjudication: {move-limit: 40}",
                        "engines:",
                        "  - {engine: fairy-stockfish, name: fsf-a}",
                        "  - {engine: fairy-stockfish, name: fsf-b}",
                        ""));
        driver.get(base + "/ui/index.html#/live");
        // a game of this match: another test's finished games stay on the page for a while, marked over
        String ours = ".live-game[data-game^='" + id + "/']";
        AtomicReference<String> found = new AtomicReference<>();
        Await.until(WITHIN, "a game of this match in play on the live page", () -> {
            found.set(read(ours).get("data-game"));
            return found.get() != null;
        });
        String gameId = found.get();
        int firstPly = livePly(gameId);
        String firstBoard = liveBoard(gameId);
        Await.until(
                WITHIN,
                "the live board changes as moves are played",
                () -> livePly(gameId) >= firstPly + 2,
                () -> "ply " + livePly(gameId));
        assertFalse(firstBoard.equals(liveBoard(gameId)), "the board changed");
        browser.screenshot(SHOTS.resolve("dashboard-live.png"));

        ClusterProbe.await("the match ends", WITHIN, () -> admin.state(id).getStatus() == Status.STATUS_FINISHED);
        driver.get(base + "/ui/index.html#/t/" + id);
        Await.until(
                WITHIN,
                "the tournament page",
                () -> !driver.findElements(By.cssSelector("#standings tr[data-engine]"))
                        .isEmpty());
        JsonNode standings =
                new ObjectMapper().readTree(ClusterProbe.get(base + "/api/tournaments/" + id + "/standings"));
        for (JsonNode row : standings.get("rows")) {
            Map<String, String> shown =
                    read("#standings tr[data-engine='" + row.get("engine").asText() + "']");
            assertEquals(row.path("points").asDouble(), Double.parseDouble(shown.get("data-points")), shown.toString());
            assertEquals(row.path("games").asInt(), Integer.parseInt(shown.get("data-games")), shown.toString());
        }
        // every ending as results.json counts it: the API's counts have no checkmate, and the table showed none
        String terminations = read("#terminations").get("text");
        for (GameRecord each : admin.records(id, 0, 10).getRecordsList()) {
            String ending =
                    each.getTermination().name().replace("TERMINATION_", "").toLowerCase(java.util.Locale.ROOT);
            assertTrue(terminations.contains(ending), ending + " in " + terminations);
        }
        GameRecord record = admin.records(id, 0, 10).getRecords(0);
        assertTrue(click("#games tr[data-game='" + record.getAssignment().getLocalId() + "']"), "the game's row");
        String expected = finalBoard(record);
        // a redraw still under way when the match ended reopens the viewer at its start: "last" again then
        Await.until(
                WITHIN,
                "the viewer shows the record's final position " + expected,
                () -> {
                    if (expected.equals(read("#viewer-board").get("data-board-sfen"))) {
                        return true;
                    }
                    click("#viewer-last");
                    return false;
                },
                () -> read("#viewer-board"));
        assertEquals(
                String.valueOf(record.getMovesCount()), read("#viewer-board").get("data-ply"));
        browser.screenshot(SHOTS.resolve("dashboard-tournament.png"));
        String kif = ClusterProbe.get(base + "/api/tournaments/" + id + "/games/"
                + record.getAssignment().getLocalId() + "/kif");
        assertTrue(kif.contains("手合割：5五将棋"), "the viewer's KIF link: " + kif);
        assertFalse(driver.findElements(By.linkText("KIF")).isEmpty(), "linked from the viewer");
    }

    @Test
    void aLeaguesRatingHistoryIsPlottedAfterARound() throws Exception {
        String id = submit(
                "league.yaml",
                String.join(
                        "\n",
                        "name: weekly",
                        "variant: kyotoshogi",
                        "format: league",
                        "rounds: 2",
                        "games: 2",
                        "time-control: nodes 1",
                        "adjudication: {move-limit: 30}",
                        "catalog: fakes.yaml",
                        "engines: [fake-a, fake-b, {engine: fake-c, from-round: 2}]",
                        ""));
        ClusterProbe.await(
                "the league plays a round",
                WITHIN,
                () -> admin.state(id).getLeagueRounds() >= 1 && admin.state(id).getFinishedGames() >= 2);
        ClusterProbe.await("the league ends", WITHIN, () -> admin.state(id).getStatus() == Status.STATUS_FINISHED);
        driver.get(base + "/ui/index.html#/t/" + id);
        Await.until(
                WITHIN,
                "the rating history is plotted",
                () -> !driver.findElements(By.cssSelector("#league[data-plotted] canvas"))
                        .isEmpty());
        assertTrue(Integer.parseInt(read("#league").get("data-plotted")) >= 1);
        String changes = read("#league-changes").getOrDefault("text", "");
        assertTrue(changes.contains("round 2: fake-c joins"), changes);
        browser.screenshot(SHOTS.resolve("dashboard-league.png"));
    }

    @Test
    void aLeaguePageSaysWhichRoundIsInPlayAndNamesAJoinWithoutAName() throws Exception {
        String id = submit(
                "endless.yaml",
                String.join(
                        "\n",
                        "name: endless",
                        "variant: minishogi",
                        "format: league",
                        "rounds: 0",
                        "games: 2",
                        "time-control: nodes 1",
                        "adjudication: {move-limit: 60}",
                        "catalog: fakes.yaml",
                        "engines: [fake-a, fake-b]",
                        ""));
        try {
            // a join without a name plays under its engine id
            int joined = ClusterProbe.http()
                    .send(
                            java.net.http.HttpRequest.newBuilder(
                                            java.net.URI.create(base + "/api/tournaments/" + id + "/entrants"))
                                    .header("Authorization", "Bearer " + cluster.token(Role.ADMIN))
                                    .header("Content-Type", "application/json")
                                    .POST(java.net.http.HttpRequest.BodyPublishers.ofString(
                                            "{\"engineId\": \"fake-c\"}"))
                                    .timeout(Duration.ofSeconds(10))
                                    .build(),
                            java.net.http.HttpResponse.BodyHandlers.ofString())
                    .statusCode();
            assertEquals(200, joined);
            driver.get(base + "/ui/index.html#/t/" + id);
            // a round is paired when the last is complete: while the league runs, one is always in play
            Await.until(
                    WITHIN,
                    "the round in play",
                    () -> read("#league-round").getOrDefault("text", "").contains("in progress"),
                    () -> read("#league-round") + " " + read("#tournament-state"));
            String changes = read("#league-changes").getOrDefault("text", "");
            assertTrue(changes.contains(": fake-c joins"), changes);
        } finally {
            admin.cancel(id, "the test is over");
        }
    }

    @Test
    void theClusterPageShowsTheRefereeAndItsWorker() throws Exception {
        driver.get(base + "/ui/index.html#/cluster");
        // The referee names a worker once its first status probe has been answered; until then the row
        // shows the address alone. The page redraws every 5 s.
        Await.until(
                WITHIN,
                "the referee's row naming its worker",
                () -> !driver.findElements(
                                By.cssSelector("#cluster tr[data-referee='referee-1'][data-worker='worker-1']"))
                        .isEmpty());
        Map<String, String> row = read("#cluster tr[data-referee='referee-1']");
        assertTrue(row.getOrDefault("text", "").contains("yes"), row.toString());
        assertEquals("worker-1", row.get("data-worker"), row.toString());
        browser.screenshot(SHOTS.resolve("dashboard-cluster.png"));
    }

    @Test
    void aMatchShowsItsEloIntervalAndItsStatisticsThatAreZero() throws Exception {
        String id = submit(
                "even.yaml",
                String.join(
                        "\n",
                        "name: even",
                        "variant: minishogi",
                        "games: 4",
                        "time-control: nodes 1",
                        "catalog: fakes.yaml",
                        "engines: [{engine: fake-resign, name: r1}, {engine: fake-resign, name: r2}]",
                        ""));
        ClusterProbe.await("the match ends", WITHIN, () -> admin.state(id).getStatus() == Status.STATUS_FINISHED);
        driver.get(base + "/ui/index.html#/t/" + id);
        Await.until(
                WITHIN,
                "the match section",
                () -> !driver.findElements(By.cssSelector("#match tr[data-measure='elo']"))
                        .isEmpty());
        // 2 wins, 0 draws, 2 losses: Elo 0 and draw ratio 0, which protobuf's JSON leaves out
        var interval = dev.taikai.tournament.stats.EloInterval.of(new dev.taikai.tournament.stats.Wdl(2, 0, 2));
        String elo = read("#match tr[data-measure='elo']").get("text");
        assertTrue(
                elo.endsWith(String.format(
                        java.util.Locale.ROOT, "0.0 (95%%: %.1f to %.1f)", interval.lower(), interval.upper())),
                elo + " " + interval);
        assertTrue(read("#match tr[data-measure='draw-ratio']").get("text").endsWith("0.0 %"), "draw ratio");
        assertTrue(read("#match tr[data-measure='los']").get("text").endsWith("50.0 %"), "LOS");
        String row = read("#standings tr[data-engine='r1']").get("text");
        assertTrue(row.contains("\t0.0\t"), "an Elo of 0 in the standings: " + row);
        String terminations = read("#terminations").get("text");
        assertTrue(terminations.contains("resignation"), terminations);
        // the API has no clock figures: no columns of zeros for them
        assertFalse(terminations.contains("moves over time"), terminations);
        browser.screenshot(SHOTS.resolve("dashboard-match.png"));
    }

    /**
     * A knockout's bracket and winner are on the dashboard, as on report.html: the API did not give them,
     * and the standings by rating need not put the winner first.
     */
    @Test
    void aKnockoutShowsItsBracketAndItsWinner() throws Exception {
        String id = submit(
                "knockout.yaml",
                String.join(
                        "\n",
                        "name: cup",
                        "variant: minishogi",
                        "format: knockout",
                        "games: 2",
                        "time-control: nodes 1",
                        "adjudication: {move-limit: 30}",
                        "catalog: fakes.yaml",
                        "engines: [fake-a, fake-b, fake-c]",
                        ""));
        ClusterProbe.await("the cup ends", WITHIN, () -> admin.state(id).getStatus() == Status.STATUS_FINISHED);
        driver.get(base + "/ui/index.html#/t/" + id);
        Await.until(
                WITHIN,
                "the bracket's winner",
                () -> String.valueOf(read("#knockout-winner").get("text")).startsWith("Winner: fake-"),
                () -> String.valueOf(read("#knockout").get("text")));
        String bracket = read("#knockout").get("text");
        assertTrue(bracket.contains("fake-b vs fake-c") && bracket.contains("bye"), bracket);
        browser.screenshot(SHOTS.resolve("dashboard-knockout.png"));
    }

    /**
     * The page asked for the state, standings and records at once and stopped refreshing when the state
     * said finished: a state answered after the last games were counted, with records answered before,
     * left "finished: 4 of 4 games" over no game for good. A tournament that does not exist left the page
     * before on the screen with an error added every 5 s, and a malformed escape in the address threw.
     */
    @Test
    void theLastDrawingOfAFinishedTournamentHoldsEveryGameAndABadAddressLeavesNothingBehind() throws Exception {
        driver.get(base + "/ui/index.html#/");
        Await.until(
                WITHIN,
                "the list",
                () -> !driver.findElements(By.id("tournaments")).isEmpty());
        Object cache = driver.executeAsyncScript(
                "var done = arguments[arguments.length - 1];"
                        + " fetch('/ui/dashboard.js', {cache: 'no-store'}).then(function (r) { done(r.headers.get('cache-control')); });");
        assertTrue(String.valueOf(cache).contains("max-age=0"), "no day-long cache for unversioned scripts: " + cache);
        // the state's answer comes 4 s late, as from a busy scheduler: the match ends meanwhile
        driver.executeScript("window.realFetch = window.fetch; window.fetch = function (url, options) {"
                + " if (/\\/api\\/tournaments\\/[^\\/?]+$/.test(url)) {"
                + "   return new Promise(function (r) { setTimeout(r, 4000); }).then(function () { return window.realFetch(url, options); });"
                + " }"
                + " return window.realFetch(url, options); };");
        try {
            String id = submit(
                    "quick.yaml",
                    String.join(
                            "\n",
                            "name: quick",
                            "variant: minishogi",
                            "games: 4",
                            "time-control: nodes 1",
                            "catalog: fakes.yaml",
                            "engines: [{engine: fake-resign, name: q1}, {engine: fake-resign, name: q2}]",
                            ""));
            driver.executeScript("location.hash = '#/t/' + arguments[0];", id);
            Await.until(
                    WITHIN,
                    "the page says the match finished",
                    () -> String.valueOf(read("#tournament-state").get("text")).contains("finished: 4 of 4 games"),
                    () -> read("#main").toString());
            assertEquals(
                    4L,
                    driver.executeScript("return document.querySelectorAll('#games tr[data-game]').length;"),
                    "every game of the finished match: " + read("#main"));
        } finally {
            driver.executeScript("window.fetch = window.realFetch;");
        }
        driver.executeScript("location.hash = '#/t/no-such-tournament';");
        Await.until(
                WITHIN,
                "the error",
                () -> !driver.findElements(By.id("error")).isEmpty(),
                () -> read("#main").toString());
        assertTrue(
                read("#error").get("text").contains("no-such-tournament"),
                read("#error").toString());
        assertTrue(driver.findElements(By.id("tournament")).isEmpty(), "the match's page is gone: " + read("#main"));
        assertEquals(
                1,
                driver.findElements(By.cssSelector("#main p.bad")).size(),
                read("#main").toString());
        driver.executeScript("location.hash = '#/t/%E0%A4%A';");
        Await.until(
                WITHIN,
                "the malformed address is said",
                () -> String.valueOf(read("#error").get("text")).contains("is not a valid escape"),
                () -> read("#main").toString());
    }

    /** The SPRT's verdict is the one taken where its path first crossed a bound, as results.json has it. */
    @Test
    void anSprtMatchShowsTheVerdictOfItsCrossing() throws Exception {
        String id = submit(
                "sprt.yaml",
                String.join(
                        "\n",
                        "name: sprt",
                        "variant: minishogi",
                        "rounds: 100",
                        "games: 2",
                        "time-control: nodes 1",
                        "sprt: {elo0: 0, elo1: 10, alpha: 0.05, beta: 0.05}",
                        "catalog: fakes.yaml",
                        "engines: [{engine: fake-a, name: candidate}, {engine: fake-resign, name: baseline}]",
                        ""));
        ClusterProbe.await(
                "the SPRT concludes", WITHIN, () -> admin.state(id).getStatus() == Status.STATUS_SPRT_CONCLUDED);
        driver.get(base + "/ui/index.html#/t/" + id);
        Await.until(
                WITHIN,
                "the SPRT's line",
                () -> String.valueOf(read("#match tr[data-measure='sprt']").get("text"))
                        .endsWith(": H1"),
                () -> read("#match").toString());
    }

    @Test
    void aRunningTournamentsRefreshKeepsTheViewerAndFetchesOnlyNewRecords() throws Exception {
        String id = submit(
                "long.yaml",
                String.join(
                        "\n",
                        "name: long",
                        "variant: minishogi",
                        "games: 200",
                        "time-control: nodes 1",
                        "adjudication: {move-limit: 40}",
                        "catalog: fakes.yaml",
                        "engines: [fake-a, fake-b]",
                        ""));
        try {
            ClusterProbe.await(
                    "a game of the match ends", WITHIN, () -> admin.state(id).getFinishedGames() >= 1);
            driver.get(base + "/ui/index.html#/t/" + id);
            // the requests from now on (the page may have lived through other tests' pages)
            driver.executeScript(
                    "performance.setResourceTimingBufferSize(100000); performance.clearResourceTimings();");
            Await.until(WITHIN, "a game's row", () -> click("#games tr[data-game]"), () -> read("#main"));
            Await.until(WITHIN, "the viewer", () -> click("#viewer-next"), () -> read("#viewer"));
            click("#viewer-next");
            click("#viewer-next");
            assertEquals("3", read("#viewer-board").get("data-ply"));
            driver.executeScript("document.getElementById('viewer-next').focus();"
                    + " window.drawnBefore = document.getElementById('tournament-state');");
            // the page draws itself again every 5 s while the match runs
            Await.until(
                    WITHIN,
                    "the page is drawn again",
                    () -> Boolean.TRUE.equals(driver.executeScript("return !document.body.contains(window.drawnBefore)"
                            + " && !!document.getElementById('tournament-state');")),
                    () -> read("#tournament-state"));
            assertEquals("3", read("#viewer-board").get("data-ply"), "the viewer stays at the ply it was stepped to");
            assertEquals(
                    true,
                    driver.executeScript("return document.getElementById('viewer').contains(document.activeElement);"),
                    "the focus stays in the viewer");
            // the redraw asks only for the records after those it has
            Object offsets = driver.executeScript("return performance.getEntriesByType('resource')"
                    + ".map(function (e) { return e.name; })"
                    + ".filter(function (n) { return n.indexOf('/games?offset=') >= 0; })"
                    + ".map(function (n) { return Number(/offset=(\\d+)/.exec(n)[1]); });");
            List<?> asked = (List<?>) offsets;
            assertFalse(asked.isEmpty(), "records asked for: " + asked);
            assertTrue(((Number) asked.get(asked.size() - 1)).longValue() > 0, "from offset 0 again: " + asked);

            // an answer for a page left already is not drawn over the next: the tournament's are still
            // under way when the live page is opened
            driver.get(base + "/ui/index.html#/cluster");
            Await.until(
                    WITHIN,
                    "the cluster page",
                    () -> !driver.findElements(By.id("cluster")).isEmpty());
            driver.executeScript(
                    "window.parsed = [];"
                            + " var json = Response.prototype.json;"
                            + " Response.prototype.json = function () {"
                            + "   var url = this.url;"
                            + "   return json.call(this).then(function (v) { window.parsed.push(url); return v; });"
                            + " };"
                            + " window.addEventListener('hashchange', function away() {"
                            + "   window.removeEventListener('hashchange', away);"
                            + "   location.hash = '#/live';"
                            + " });"
                            + " location.hash = '#/t/' + arguments[0];",
                    id);
            Await.until(
                    WITHIN,
                    "the tournament's answers are in",
                    () -> Boolean.TRUE.equals(driver.executeScript(
                            "var p = window.parsed; var id = arguments[0];"
                                    + " return p.some(function (u) { return u.endsWith('/api/tournaments/' + id); })"
                                    + " && p.some(function (u) { return u.endsWith('/standings'); })"
                                    + " && p.some(function (u) { return u.indexOf('/games?offset=') >= 0; });",
                            id)),
                    () -> String.valueOf(driver.executeScript("return window.parsed;")));
            // each answer's handlers have run once a task has come after it
            driver.executeAsyncScript("setTimeout(arguments[arguments.length - 1], 0);");
            assertEquals("#/live", driver.executeScript("return location.hash;"));
            assertFalse(driver.findElements(By.id("live")).isEmpty(), "the live page: " + read("#main"));
            assertTrue(driver.findElements(By.id("tournament")).isEmpty(), "not the tournament: " + read("#main"));
        } finally {
            admin.cancel(id, "the test is over");
        }
    }

    @Test
    void logOutEndsTheSessionOnTheScheduler() throws Exception {
        driver.get(base + "/ui/index.html#/");
        Await.until(
                WITHIN,
                "the tournaments page",
                () -> !driver.findElements(By.id("tournaments")).isEmpty(),
                driver::getCurrentUrl);
        String session = driver.manage().getCookieNamed("taikai_session").getValue();
        assertEquals(200, withSession(session, "/api/tournaments"), "the session reads before the logout");
        try {
            assertTrue(click("#logout"), "the logout link");
            Await.until(
                    WITHIN,
                    "the logout goes to the login page",
                    () -> driver.getCurrentUrl().contains("/ui/login.html"),
                    () -> driver.getCurrentUrl() + " " + read("#logout-error"));
            assertEquals(401, withSession(session, "/api/tournaments"), "the scheduler ended the session");
            Object status = driver.executeAsyncScript("var done = arguments[arguments.length - 1];"
                    + " fetch('/api/tournaments', {credentials: 'same-origin'})"
                    + ".then(function (r) { done(r.status); }, function (e) { done(String(e)); });");
            assertEquals(401L, status, "a fetch of the page");
            driver.get(base + "/ui/index.html#/");
            Await.until(
                    WITHIN,
                    "the dashboard sends the logged-out browser to the login",
                    () -> driver.getCurrentUrl().contains("/ui/login.html"),
                    driver::getCurrentUrl);
            // the live page too (its stream, refused, said it was reconnecting for ever)
            driver.get(base + "/ui/index.html#/live");
            Await.until(
                    WITHIN,
                    "the live page sends the logged-out browser to the login",
                    () -> driver.getCurrentUrl().contains("/ui/login.html"),
                    () -> driver.getCurrentUrl() + " " + read("#live-note"));
        } finally {
            // the other tests share the browser: a stranger again (even were the session still open), logged in
            driver.manage().deleteCookieNamed("taikai_session");
            login();
        }
    }

    /** The status of a GET of {@code path} with the session cookie {@code session} alone. */
    private static int withSession(String session, String path) throws Exception {
        return ClusterProbe.http()
                .send(
                        java.net.http.HttpRequest.newBuilder(java.net.URI.create(base + path))
                                .header("Cookie", "taikai_session=" + session)
                                .header("Accept", "application/json")
                                .timeout(Duration.ofSeconds(10))
                                .build(),
                        java.net.http.HttpResponse.BodyHandlers.discarding())
                .statusCode();
    }

    private static String submit(String name, String yaml) throws Exception {
        Path file = dir.resolve(name);
        Files.writeString(file, yaml);
        ClusterProbe.Output submitted = ClusterProbe.submit(cluster, file, "--detach");
        assertEquals(0, submitted.code(), submitted.err());
        return submitted.out().strip();
    }

    /** The game's ply on the live page; -1 once the page no longer shows it. */
    private static int livePly(String gameId) {
        String ply = read(".live-game[data-game='" + gameId + "']").get("data-ply");
        return ply == null ? -1 : Integer.parseInt(ply);
    }

    private static String liveBoard(String gameId) {
        return read(".live-game[data-game='" + gameId + "'] [data-board-sfen]").get("data-board-sfen");
    }

    /** Clicks the first element matching {@code css} inside the page, in one step; false when none matches. */
    private static boolean click(String css) {
        return Boolean.TRUE.equals(driver.executeScript(
                "var e = document.querySelector(arguments[0]); if (e) e.click(); return !!e;", css));
    }

    /**
     * The first element matching {@code css}: its attributes and its text (under "text"), read in one step
     * inside the page; empty when nothing matches. The live page redraws every game each second and the
     * tournament and cluster pages every 5 s, so an element found by one WebDriver call may already be
     * replaced (stale) when the next call reads it.
     */
    private static Map<String, String> read(String css) {
        Object values = driver.executeScript(
                "var e = document.querySelector(arguments[0]);"
                        + " if (!e) return {};"
                        + " var out = {text: e.innerText};"
                        + " for (var i = 0; i < e.attributes.length; i++) out[e.attributes[i].name] = e.attributes[i].value;"
                        + " return out;",
                css);
        Map<String, String> out = new TreeMap<>();
        ((Map<?, ?>) values).forEach((name, value) -> out.put(String.valueOf(name), String.valueOf(value)));
        return out;
    }

    private static String finalBoard(GameRecord record) throws Exception {
        return ClusterProbe.replay(record).position().toSfen().split(" ")[0];
    }
}
