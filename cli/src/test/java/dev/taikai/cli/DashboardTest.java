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
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;
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
        By ours = By.cssSelector(".live-game[data-game^='" + id + "/']");
        Await.until(
                WITHIN,
                "a game of this match in play on the live page",
                () -> !driver.findElements(ours).isEmpty());
        WebElement game = driver.findElements(ours).get(0);
        String gameId = game.getAttribute("data-game");
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
            WebElement shown = driver.findElement(By.cssSelector(
                    "#standings tr[data-engine='" + row.get("engine").asText() + "']"));
            assertEquals(
                    row.path("points").asDouble(),
                    Double.parseDouble(shown.getAttribute("data-points")),
                    shown.getText());
            assertEquals(row.path("games").asInt(), Integer.parseInt(shown.getAttribute("data-games")));
        }
        GameRecord record = admin.records(id, 0, 10).getRecords(0);
        driver.findElement(By.cssSelector(
                        "#games tr[data-game='" + record.getAssignment().getLocalId() + "']"))
                .click();
        driver.findElement(By.id("viewer-last")).click();
        String expected = finalBoard(record);
        WebElement board = driver.findElement(By.id("viewer-board"));
        Await.until(
                WITHIN,
                "the viewer shows the record's final position " + expected,
                () -> expected.equals(driver.findElement(By.id("viewer-board")).getAttribute("data-board-sfen")),
                () -> driver.findElement(By.id("viewer-board")).getAttribute("data-board-sfen"));
        assertEquals(
                String.valueOf(record.getMovesCount()),
                driver.findElement(By.id("viewer-board")).getAttribute("data-ply"));
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
        assertTrue(Integer.parseInt(driver.findElement(By.id("league")).getAttribute("data-plotted")) >= 1);
        String changes = driver.findElement(By.id("league-changes")).getText();
        assertTrue(changes.contains("round 2: fake-c joins"), changes);
        browser.screenshot(SHOTS.resolve("dashboard-league.png"));
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
        WebElement row = driver.findElement(By.cssSelector("#cluster tr[data-referee='referee-1']"));
        assertTrue(row.getText().contains("yes"), row.getText());
        assertEquals("worker-1", row.getAttribute("data-worker"), row.getText());
        browser.screenshot(SHOTS.resolve("dashboard-cluster.png"));
    }

    private static String submit(String name, String yaml) throws Exception {
        Path file = dir.resolve(name);
        Files.writeString(file, yaml);
        ClusterProbe.Output submitted = ClusterProbe.submit(cluster, file, "--detach");
        assertEquals(0, submitted.code(), submitted.err());
        return submitted.out().strip();
    }

    private static int livePly(String gameId) {
        List<WebElement> found = driver.findElements(By.cssSelector(".live-game[data-game='" + gameId + "']"));
        return found.isEmpty() ? -1 : Integer.parseInt(found.get(0).getAttribute("data-ply"));
    }

    private static String liveBoard(String gameId) {
        return driver.findElement(By.cssSelector(".live-game[data-game='" + gameId + "'] [data-board-sfen]"))
                .getAttribute("data-board-sfen");
    }

    private static String finalBoard(GameRecord record) throws Exception {
        return ClusterProbe.replay(record).position().toSfen().split(" ")[0];
    }
}
