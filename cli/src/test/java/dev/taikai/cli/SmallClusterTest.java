package dev.taikai.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.taikai.access.Role;
import dev.taikai.cli.cluster.LocalCluster;
import dev.taikai.cli.cluster.SchedulerClient;
import dev.taikai.cli.run.Tournaments;
import dev.taikai.proto.tournament.v1.Status;
import dev.taikai.proto.tournament.v1.TournamentState;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A cluster as small as one game needs: one worker of two engine slots and one referee that plays two
 * games at once. Its games wait for slots instead of being abandoned, and an SPRT that crosses its bound
 * while games are in play says one thing in the client, the standings and the records. It runs without TLS
 * ({@code taikai cluster up --plaintext}), the debugging twin of the other cluster tests, which run with it.
 */
class SmallClusterTest {
    @TempDir
    static Path dir;

    private static LocalCluster cluster;
    private static SchedulerClient scheduler;

    @BeforeAll
    static void up() throws Exception {
        ClusterProbe.threeFakes(dir);
        cluster = ClusterProbe.start(
                dir.resolve("cluster"),
                new LocalCluster.Shape(1, 1, 2, 2, dir.resolve("fakes.yaml").toString(), true));
        scheduler = cluster.schedulerClient(Role.ADMIN);
    }

    @AfterAll
    static void down() throws Exception {
        if (cluster != null) {
            ClusterProbe.stop(cluster, "small-cluster-logs");
        }
    }

    @Test
    void aWorkerOfTwoSlotsPlaysSixGamesTwoAtATimeWithoutAnAbandonedAttempt() throws Exception {
        Path file = dir.resolve("six.yaml");
        Files.writeString(
                file,
                String.join(
                        "\n",
                        "name: six games",
                        "variant: minishogi",
                        "catalog: fakes.yaml",
                        "games: 2",
                        "time-control: byoyomi 0.3",
                        "adjudication: {move-limit: 40}",
                        "engines: [fake-a, fake-b, fake-c]",
                        ""));
        Path records = dir.resolve("six-records");
        ClusterProbe.Output submitted =
                ClusterProbe.submit(cluster, file, "--concurrency", "2", "--out", records.toString());
        assertEquals(0, submitted.code(), submitted.err() + submitted.out());
        assertTrue(submitted.err().contains("[6/6]"), submitted.err());
        assertEquals(0.0, ClusterProbe.metric(cluster, "referee", "taikai_referee_games_aborted_total"));
        List<String> abandoned = Files.readAllLines(cluster.directory().resolve("referee-1.log")).stream()
                .filter(line -> line.contains("abandoned") || line.contains("no free slot"))
                .toList();
        assertEquals(List.of(), abandoned, "no attempt was abandoned for want of a slot");
        try (var kifs = Files.list(records.resolve("games"))) {
            assertEquals(6, kifs.count(), "a KIF per game in the records folder");
        }
        assertEquals(6, Tournaments.results(records).get("games").size());
    }

    @Test
    void aClusterThatCannotHostAGameIsRefusedBeforeAnythingStarts() {
        StringWriter err = new StringWriter();
        int code = up(err, "--dir", dir.resolve("too-small").toString(), "--workers", "1", "--slots", "1");
        assertEquals(2, code, err.toString());
        assertTrue(
                err.toString().contains("a game needs two engine slots, and 1 worker(s) of 1 slot(s) have 1"),
                err.toString());
        assertTrue(!Files.exists(dir.resolve("too-small").resolve("cluster.json")), "nothing was started");

        StringWriter none = new StringWriter();
        int noReferee = up(none, "--dir", dir.resolve("no-referee").toString(), "--referees", "0");
        assertEquals(2, noReferee, none.toString());
        assertEquals(
                "taikai cluster up: --referees 0: a cluster needs at least one worker, referee, engine slot per worker"
                        + " and game per referee\n",
                none.toString());
    }

    /** 'cluster up' with {@code args}, in this process: its exit code; its standard error goes to {@code err}. */
    private static int up(StringWriter err, String... args) {
        List<String> line = new java.util.ArrayList<>(List.of("cluster", "up"));
        line.addAll(List.of(args));
        return Taikai.run(
                System.in,
                new PrintWriter(new StringWriter(), true),
                new PrintWriter(err, true),
                line.toArray(String[]::new));
    }

    /**
     * A strong engine against a random mover, two pairs handed out at once: the bound is crossed while
     * the next pair is in play. The client, the scheduler's state and standings
     * and the records folder then give the same game count, LLR and verdict.
     */
    @Test
    void anSprtCrossedWithGamesInPlayGivesOneCountAndVerdictEverywhere() throws Exception {
        Path file = dir.resolve("sprt.yaml");
        Files.writeString(
                file,
                String.join(
                        "\n",
                        "name: sprt in play",
                        "variant: minishogi",
                        "catalog: fakes.yaml",
                        "rounds: 40",
                        "games: 2",
                        "time-control: byoyomi 0.1",
                        "adjudication: {move-limit: 120}",
                        "sprt: {elo0: 0, elo1: 300, alpha: 0.2, beta: 0.2}",
                        "engines: [taikai-4, fake-a]",
                        ""));
        Path records = dir.resolve("sprt-records");
        // four games handed out at once, two pairs: when a pair crosses the bound, the next is in play
        ClusterProbe.Output submitted =
                ClusterProbe.submit(cluster, file, "--concurrency", "4", "--out", records.toString());
        assertEquals(0, submitted.code(), submitted.err() + submitted.out());
        TournamentState state = scheduler.state(submitted.tournamentId());
        assertEquals(Status.STATUS_SPRT_CONCLUDED, state.getStatus(), state.toString());
        int games = state.getFinishedGames();
        assertEquals(0, games % 2, "only whole pairs: " + state);
        String detail = state.getStatusDetail();
        assertTrue(detail.startsWith("SPRT concluded after " + games + " games: H1 accepted"), detail);
        assertTrue(
                detail.endsWith("games, and the games in play then were played out and counted"),
                "games were in play at the crossing: " + detail);

        assertTrue(
                submitted.out().contains("Tournament " + state.getTournamentId() + ": sprt_concluded (" + detail + ")"),
                submitted.out());
        assertTrue(submitted.err().contains("[" + games + "/"), submitted.err());
        assertTrue(!submitted.err().contains("[" + (games + 1) + "/"), submitted.err());

        JsonNode standings = new ObjectMapper()
                .readTree(ClusterProbe.get(
                        cluster.scheduler().http() + "/api/tournaments/" + state.getTournamentId() + "/standings"));
        assertEquals(games, standings.get("games").asInt(), standings.toString());
        double llr = standings.get("match").get("llr").asDouble();
        assertTrue(detail.contains(String.format(Locale.ROOT, "(LLR %.2f,", llr)), detail + " vs " + llr);

        JsonNode results = Tournaments.results(records);
        assertEquals(games, results.get("games").size());
        JsonNode sprt = results.get("match").get("sprt");
        assertEquals(llr, sprt.get("llr").asDouble(), 1e-9, "the records' LLR is the scheduler's");
        assertEquals("H1", sprt.get("status").asText(), sprt.toString());
        assertTrue(submitted.out().contains(String.format(Locale.ROOT, "LLR %.2f", llr)), submitted.out());
    }
}
