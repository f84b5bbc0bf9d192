package dev.taikai.scheduler.registry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.taikai.proto.common.v1.GameRecord;
import dev.taikai.proto.common.v1.TimeControl;
import dev.taikai.proto.common.v1.Variant;
import dev.taikai.proto.tournament.v1.Entrant;
import dev.taikai.proto.tournament.v1.Format;
import dev.taikai.proto.tournament.v1.Sprt;
import dev.taikai.proto.tournament.v1.Status;
import dev.taikai.proto.tournament.v1.TournamentSpec;
import dev.taikai.proto.tournament.v1.TournamentState;
import dev.taikai.referee.game.Pairing;
import dev.taikai.referee.messages.GameMessages;
import dev.taikai.rules.Result;
import dev.taikai.testkit.Await;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

public class TournamentRegistryTest {
    /** How long a step that should be immediate may take on a loaded machine. */
    private static final Duration WITHIN = Duration.ofSeconds(30);

    /** A wait far longer than {@link #WITHIN}: returning within that proves it was not waited out. */
    private static final long LONG_WAIT_MILLIS = 4 * WITHIN.toMillis();

    public static TournamentSpec spec(Format format, int engines, int rounds, int concurrency) {
        TournamentSpec.Builder spec = TournamentSpec.newBuilder()
                .setName("Book test")
                .setVariant(Variant.VARIANT_MINISHOGI)
                .setFormat(format)
                .setRounds(rounds)
                .setGamesPerPairing(2)
                .setConcurrency(concurrency)
                .setTimeControl(TimeControl.newBuilder()
                        .setKind(TimeControl.Kind.KIND_BYOYOMI)
                        .setByoyomiMs(100))
                // a draw after two plies: drawn test records are two legal moves long
                .setAdjudication(
                        dev.taikai.proto.common.v1.Adjudication.newBuilder().setMoveLimitPlies(2));
        for (int i = 0; i < engines; i++) {
            spec.addEntrants(Entrant.newBuilder().setName("e" + i).setEngineId("taikai-1"));
        }
        return spec.build();
    }

    /**
     * A record a referee could publish for {@code pairing} with {@code result}, one that holds up when the
     * scheduler replays it: a draw at the move limit after two legal plies (the test specs adjudicate
     * there), or a win by resignation (gote after sente's first move, or sente at once).
     */
    public static GameRecord record(Pairing pairing, Result result) {
        return GameMessages.toProto(
                pairing, dev.taikai.tournament.run.Runs.record(pairing.game(), result), "ref", "w", "w");
    }

    /**
     * Records of planned games that do not hold up (forged, or from a broken referee) are refused with the
     * reason and count nowhere; the honest record of the same game still counts afterwards.
     */
    @Test
    void recordsThatDoNotHoldUpAreRefusedWithTheReasonAndCountNowhere() {
        TournamentRegistry book = new TournamentRegistry(16);
        book.create("t1", spec(Format.FORMAT_ROUND_ROBIN, 2, 1, 4), 100);
        Pairing pairing = book.nextPairings("t1").get(0);
        GameRecord honest = record(pairing, Result.DRAW);
        var forged = new java.util.LinkedHashMap<String, GameRecord>();
        forged.put(
                "it ends by checkmate after 0 plies, but the rules do not end the game there",
                honest.toBuilder()
                        .clearMoves()
                        .setResult(dev.taikai.proto.common.v1.Result.RESULT_SENTE_WINS)
                        .setTermination(dev.taikai.proto.common.v1.Termination.TERMINATION_CHECKMATE)
                        .build());
        var otherEngine = honest.toBuilder();
        otherEngine.getAssignmentBuilder().getSenteBuilder().setEngineId("stockfish-17");
        forged.put(
                "sente was played by engine 'stockfish-17', but the pairing named engine 'taikai-1'",
                otherEngine.build());
        var illegal = honest.toBuilder();
        illegal.getMovesBuilder(1).setMove("5a4a"); // gote's rook onto its own bishop
        forged.put("ply 2 (5a4a) is not a legal move", illegal.build());
        forged.put(
                "it ends by resignation (gote wins), which can only be a loss for gote, the side to move",
                honest.toBuilder()
                        .removeMoves(1)
                        .setResult(dev.taikai.proto.common.v1.Result.RESULT_GOTE_WINS)
                        .setTermination(dev.taikai.proto.common.v1.Termination.TERMINATION_RESIGNATION)
                        .build());
        forged.put(
                "it ends by resignation (sente wins), but after its 2 plies the adjudication end it by adjudication"
                        + " (draw)",
                honest.toBuilder()
                        .setResult(dev.taikai.proto.common.v1.Result.RESULT_SENTE_WINS)
                        .setTermination(dev.taikai.proto.common.v1.Termination.TERMINATION_RESIGNATION)
                        .build());
        for (var forgery : forged.entrySet()) {
            List<String> reasons = new ArrayList<>();
            assertEquals(
                    TournamentRegistry.Counted.REFUSED, book.count(forgery.getValue(), reasons::add), forgery.getKey());
            assertEquals(1, reasons.size());
            assertTrue(reasons.get(0).startsWith(forgery.getKey()), reasons.get(0));
        }
        assertEquals(0, book.state("t1").orElseThrow().getFinishedGames(), "counted nowhere");
        assertEquals(0, book.records("t1", 0, 100).orElseThrow().getTotal());
        assertEquals(TournamentRegistry.Counted.COUNTED, book.count(honest));
        assertEquals(1, book.state("t1").orElseThrow().getFinishedGames());
    }

    /**
     * The planned games are the games the tournament will have played, as far as known: a Swiss's every
     * round, a knockout's bracket with the tiebreaks paired so far. They were the games paired so far, so a
     * follower's total caught up with the games begun and left out the rounds to come.
     */
    @Test
    void plannedGamesCountTheRoundsToComeAndTheTiebreaksPaired() {
        TournamentRegistry book = new TournamentRegistry(16);
        assertEquals(
                3 * 2 * 2,
                book.create("s", spec(Format.FORMAT_SWISS, 4, 3, 4), 100).getPlannedGames(),
                "three rounds of two pairings of two games, the first paired");
        TournamentState knockout = book.create("k", spec(Format.FORMAT_KNOCKOUT, 3, 1, 4), 100);
        assertEquals(4, knockout.getPlannedGames(), "a semifinal and a final of two games each");
        for (Pairing game : book.nextPairings("k")) {
            book.count(record(game, Result.DRAW));
        }
        assertEquals(6, book.state("k").orElseThrow().getPlannedGames(), "the tied semifinal's tiebreak pair");
    }

    /**
     * A record of a planned game whose pairing never went out (a forgery) was counted, and every game
     * before it was taken as handed out: those were then in play for good, nobody played them, and the
     * tournament stalled. It is refused now; a rebuilt scheduler still takes the records of games it handed
     * out after its last published state (at most its concurrency), without taking the games before them
     * as handed out.
     */
    @Test
    void aRecordOfAGameNeverHandedOutIsRefusedAndStallsNothing() {
        TournamentRegistry book = new TournamentRegistry(16);
        book.create("t1", spec(Format.FORMAT_ROUND_ROBIN, 3, 2, 2), 100); // 12 games, 2 at once
        TournamentRegistry planner = new TournamentRegistry(16); // the same plan, all of it handed out
        planner.create("t1", spec(Format.FORMAT_ROUND_ROBIN, 3, 2, 12), 100);
        List<Pairing> plan = planner.nextPairings("t1");
        assertEquals(12, plan.size());

        List<Pairing> inPlay = book.nextPairings("t1");
        assertEquals(List.of(0, 1), inPlay.stream().map(Pairing::planIndex).toList());
        List<String> reasons = new ArrayList<>();
        assertEquals(
                TournamentRegistry.Counted.REFUSED, book.count(record(plan.get(9), Result.SENTE_WINS), reasons::add));
        assertEquals(List.of("game r2-p2-g2 of t1 was never handed out (2 of its games have been)"), reasons);
        assertEquals(2, book.state("t1").orElseThrow().getPublishedGames());
        assertEquals(0, book.standings("t1").orElseThrow().getGames());

        assertEquals(TournamentRegistry.Counted.COUNTED, book.count(record(inPlay.get(0), Result.DRAW)));
        assertEquals(
                List.of(2),
                book.nextPairings("t1").stream().map(Pairing::planIndex).toList(),
                "play goes on");

        // rebuilt from the state published when 3 were handed out: the next 2 may have gone out since
        TournamentRegistry rebuilt = new TournamentRegistry(16);
        rebuilt.restore(book.state("t1").orElseThrow());
        assertEquals(TournamentRegistry.Counted.COUNTED, rebuilt.count(record(inPlay.get(0), Result.DRAW)));
        assertEquals(TournamentRegistry.Counted.COUNTED, rebuilt.count(record(plan.get(4), Result.DRAW)));
        assertEquals(TournamentRegistry.Counted.REFUSED, rebuilt.count(record(plan.get(5), Result.DRAW), reasons::add));
        assertEquals(List.of(), rebuilt.nextPairings("t1"), "games 1 and 2 are in play");
        assertEquals(TournamentRegistry.Counted.COUNTED, rebuilt.count(record(plan.get(1), Result.DRAW)));
        assertEquals(TournamentRegistry.Counted.COUNTED, rebuilt.count(record(plan.get(2), Result.DRAW)));
        assertEquals(
                List.of(3, 5),
                rebuilt.nextPairings("t1").stream().map(Pairing::planIndex).toList(),
                "game 3 is handed out (again, if it was): only a record tells that a game was, and 4 has one");
    }

    /**
     * The API's match statistics give the interval as results.json does: none where the games did not vary
     * (a half-width of 0 claimed certainty), and its ends where one is infinite (the dashboard, rebuilding
     * them from the half-width, showed none).
     */
    @Test
    void aMatchsIntervalIsAbsentWhereTheGamesDidNotVaryAndItsEndsMayBeInfinite() {
        var allDrawn = played(spec(Format.FORMAT_MATCH, 2, 1, 2), Result.DRAW).getMatch();
        assertEquals(0.0, allDrawn.getElo());
        assertFalse(allDrawn.hasEloError() || allDrawn.hasEloLower() || allDrawn.hasEloUpper(), allDrawn.toString());

        // e0 wins one, e1 the other
        var oneEach =
                played(spec(Format.FORMAT_MATCH, 2, 1, 2), Result.SENTE_WINS).getMatch();
        assertEquals(Double.NEGATIVE_INFINITY, oneEach.getEloLower(), oneEach.toString());
        assertEquals(Double.POSITIVE_INFINITY, oneEach.getEloUpper(), oneEach.toString());
        assertFalse(oneEach.hasEloError(), "an infinite half-width is none: " + oneEach);
    }

    /** The standings of {@code spec} once the games it first hands out have ended with {@code result}. */
    private static dev.taikai.proto.tournament.v1.Standings played(TournamentSpec spec, Result result) {
        TournamentRegistry book = new TournamentRegistry(16);
        book.create("t", spec, 100);
        for (Pairing p : book.nextPairings("t")) {
            book.count(record(p, result));
        }
        return book.standings("t").orElseThrow();
    }

    /** A Swiss's table and a knockout's bracket are in the API's standings, as in results.json. */
    @Test
    void theStandingsOfASwissAndAKnockoutHaveItsTableAndItsBracket() {
        var swiss = played(spec(Format.FORMAT_SWISS, 4, 2, 16), Result.DRAW).getFormatOutcome();
        TournamentRegistry book = new TournamentRegistry(16);
        assertTrue(swiss.getFieldsOrThrow("after_rounds").getNumberValue() >= 1, swiss.toString());
        var table = swiss.getFieldsOrThrow("table").getListValue().getValuesList();
        assertEquals(4, table.size(), swiss.toString());
        assertEquals(1.0, table.get(0).getStructValue().getFieldsOrThrow("rank").getNumberValue(), swiss.toString());

        book.create("ko", spec(Format.FORMAT_KNOCKOUT, 3, 1, 16), 100);
        var bracket = book.standings("ko").orElseThrow().getFormatOutcome();
        assertTrue(bracket.getFieldsOrThrow("winner").hasNullValue(), "no winner yet: " + bracket);
        var first =
                bracket.getFieldsOrThrow("rounds").getListValue().getValues(0).getListValue();
        assertEquals(
                "bye",
                first.getValues(0).getStructValue().getFieldsOrThrow("how").getStringValue(),
                "the best seed's bye: " + bracket);

        book.create("rr", spec(Format.FORMAT_ROUND_ROBIN, 3, 1, 16), 100);
        assertFalse(book.standings("rr").orElseThrow().hasFormatOutcome(), "a round robin has neither");
    }

    @Test
    void pairingsGoOutWithinTheConcurrencyAndEachGameCountsOnce() {
        TournamentRegistry book = new TournamentRegistry(16);
        TournamentState created = book.create("t1", spec(Format.FORMAT_ROUND_ROBIN, 3, 1, 4), 100);
        assertEquals(6, created.getPlannedGames());
        assertEquals(Status.STATUS_RUNNING, created.getStatus());

        List<Pairing> first = book.nextPairings("t1");
        assertEquals(4, first.size(), "at most the tournament's concurrency in play");
        assertEquals(List.of(), book.nextPairings("t1"), "nothing more until a game is counted");
        assertEquals("t1/r1-p1-g1", first.get(0).gameId());

        assertEquals(TournamentRegistry.Counted.COUNTED, book.count(record(first.get(0), Result.SENTE_WINS)));
        assertEquals(TournamentRegistry.Counted.DUPLICATE, book.count(record(first.get(0), Result.GOTE_WINS)));
        List<Pairing> more = book.nextPairings("t1");
        assertEquals(1, more.size());
        assertEquals(4, more.get(0).planIndex());

        java.util.ArrayDeque<Pairing> inPlay = new java.util.ArrayDeque<>(first.subList(1, first.size()));
        inPlay.addAll(more);
        while (!inPlay.isEmpty()) {
            book.count(record(inPlay.poll(), Result.DRAW));
            inPlay.addAll(book.nextPairings("t1"));
        }
        TournamentState done = book.state("t1").orElseThrow();
        assertEquals(Status.STATUS_FINISHED, done.getStatus());
        assertEquals(6, done.getFinishedGames());
        assertEquals(6, done.getPublishedGames());
        assertEquals(6, book.standings("t1").orElseThrow().getGames());
        assertEquals(List.of(), book.nextPairings("t1"));
    }

    @Test
    void aReaderWaitingForRecordsWakesOnTheNextGameOrTheEndAndOtherwiseWaitsItsTime() throws Exception {
        TournamentRegistry book = new TournamentRegistry(16);
        book.create("t1", spec(Format.FORMAT_ROUND_ROBIN, 2, 1, 2), 100);
        List<Pairing> inPlay = book.nextPairings("t1");

        long began = System.nanoTime();
        book.awaitRecords("t1", 0, 300);
        assertTrue(System.nanoTime() - began >= 250_000_000L, "no record: waited its time");

        RecordsReader waiting = RecordsReader.start(book, "t1", 0);
        waiting.awaitWaiting();
        assertFalse(waiting.done.isDone(), "waits while no game is counted");
        book.count(record(inPlay.get(0), Result.SENTE_WINS));
        waiting.done.get(WITHIN.toSeconds(), TimeUnit.SECONDS);

        var page = book.records("t1", 0, 10).orElseThrow();
        assertEquals(1, page.getRecordsCount());
        assertEquals(1, page.getTotal());
        assertEquals(Status.STATUS_RUNNING, page.getState().getStatus());

        assertReturnsAtOnce("a record past the offset", () -> book.awaitRecords("t1", 0, LONG_WAIT_MILLIS));
        waiting = RecordsReader.start(book, "t1", 1);
        waiting.awaitWaiting();
        book.cancel("t1", "stop", 200);
        waiting.done.get(WITHIN.toSeconds(), TimeUnit.SECONDS);
        assertReturnsAtOnce("a stopped tournament", () -> book.awaitRecords("t1", 1, LONG_WAIT_MILLIS));
        assertReturnsAtOnce("an unknown id", () -> book.awaitRecords("nobody", 0, LONG_WAIT_MILLIS));
        assertEquals(
                Status.STATUS_CANCELLED,
                book.records("t1", 1, 10).orElseThrow().getState().getStatus());
    }

    private interface Wait {
        void run() throws InterruptedException;
    }

    /** {@code wait} returns without waiting its time (well within {@link #LONG_WAIT_MILLIS}). */
    private static void assertReturnsAtOnce(String what, Wait wait) throws InterruptedException {
        long began = System.nanoTime();
        wait.run();
        assertTrue(System.nanoTime() - began < WITHIN.toNanos(), what + ": at once");
    }

    /** {@link TournamentRegistry#awaitRecords} called on a thread of its own, so a test can watch it wait. */
    private record RecordsReader(Thread thread, FutureTask<Void> done) {
        static RecordsReader start(TournamentRegistry book, String id, int count) {
            FutureTask<Void> done = new FutureTask<>(() -> {
                book.awaitRecords(id, count, LONG_WAIT_MILLIS);
                return null;
            });
            Thread thread = new Thread(done, "records-reader");
            thread.setDaemon(true);
            thread.start();
            return new RecordsReader(thread, done);
        }

        /**
         * Waits until the reader has looked, found nothing to return at once and parked in its timed wait:
         * from then on only a counted game or the tournament's end wakes it early.
         */
        void awaitWaiting() {
            Await.until(
                    WITHIN,
                    "the reader waits for records",
                    () -> thread.getState() == Thread.State.TIMED_WAITING
                            && Arrays.stream(thread.getStackTrace())
                                    .anyMatch(frame -> frame.getClassName().equals(TournamentRegistry.class.getName())
                                            && frame.getMethodName().equals("awaitRecords")),
                    () -> thread.getState() + " " + Arrays.toString(thread.getStackTrace()));
        }
    }

    @Test
    void recordsOfNoPlanAreNotCounted() {
        TournamentRegistry book = new TournamentRegistry(16);
        book.create("t1", spec(Format.FORMAT_MATCH, 2, 1, 2), 100);
        Pairing real = book.nextPairings("t1").get(0);
        Pairing otherTournament = new Pairing("t2", real.game(), real.sente(), real.gote(), 0);
        assertEquals(TournamentRegistry.Counted.UNKNOWN, book.count(record(otherTournament, Result.DRAW)));
        var swapped = new dev.taikai.referee.game.GameAssignment(
                real.game().gameId(),
                1,
                1,
                1,
                real.game().variant(),
                real.game().gote(),
                real.game().sente(),
                real.game().opening(),
                real.game().senteTimeControl(),
                real.game().goteTimeControl(),
                real.game().goteMarginMillis(),
                real.game().senteMarginMillis(),
                real.game().adjudication());
        Pairing wrongColours = new Pairing("t1", swapped, real.gote(), real.sente(), 0);
        assertEquals(
                TournamentRegistry.Counted.UNKNOWN,
                book.count(record(wrongColours, Result.DRAW)),
                "a record must be the game the plan says, colours included");
        assertEquals(0, book.state("t1").orElseThrow().getFinishedGames());
    }

    @Test
    void aCancelledTournamentHandsOutNothingButStillCountsGamesInPlay() {
        TournamentRegistry book = new TournamentRegistry(16);
        book.create("t1", spec(Format.FORMAT_MATCH, 2, 5, 2), 100);
        List<Pairing> inPlay = book.nextPairings("t1");
        TournamentState cancelled = book.cancel("t1", "testing", 150).orElseThrow();
        assertEquals(Status.STATUS_CANCELLED, cancelled.getStatus());
        assertEquals("cancelled: testing", cancelled.getStatusDetail());
        assertEquals(TournamentRegistry.Counted.COUNTED, book.count(record(inPlay.get(0), Result.DRAW)));
        assertEquals(List.of(), book.nextPairings("t1"));
        assertEquals(Status.STATUS_CANCELLED, book.state("t1").orElseThrow().getStatus());
        assertTrue(book.cancel("nope", "", 1).isEmpty());
    }

    @Test
    void theSprtStopsAMatchAtItsBound() {
        TournamentRegistry book = new TournamentRegistry(16);
        TournamentSpec spec = spec(Format.FORMAT_MATCH, 2, 200, 400).toBuilder()
                .setSprt(Sprt.newBuilder().setElo0(0).setElo1(10).setAlpha(0.05).setBeta(0.05))
                .build();
        book.create("t1", spec, 1);
        int counted = 0;
        for (Pairing p : book.nextPairings("t1")) {
            if (book.state("t1").orElseThrow().getStatus() != Status.STATUS_RUNNING) {
                break;
            }
            // e0 wins every game: H1 is accepted long before the plan ends
            Result result = p.game().sente().equals("e0") ? Result.SENTE_WINS : Result.GOTE_WINS;
            book.count(record(p, result));
            counted++;
        }
        TournamentState state = book.state("t1").orElseThrow();
        assertEquals(Status.STATUS_SPRT_CONCLUDED, state.getStatus());
        assertTrue(state.getStatusDetail().contains("H1 accepted"), state.getStatusDetail());
        assertTrue(counted < 400, "stopped after " + counted + " games");
    }

    @Test
    void theBookRebuiltFromItsStatesAndRecordsIsTheSame() {
        TournamentRegistry book = new TournamentRegistry(16);
        book.create("t1", spec(Format.FORMAT_ROUND_ROBIN, 3, 2, 5), 100);
        List<GameRecord> published = new ArrayList<>();
        for (Pairing p : book.nextPairings("t1")) {
            GameRecord r = record(p, p.planIndex() % 3 == 0 ? Result.DRAW : Result.SENTE_WINS);
            book.count(r);
            published.add(r);
        }
        TournamentRegistry rebuilt = new TournamentRegistry(16);
        rebuilt.restore(book.state("t1").orElseThrow());
        for (GameRecord r : published) {
            rebuilt.count(r);
            rebuilt.count(r); // delivered twice
        }
        assertEquals(book.standings("t1").orElseThrow(), rebuilt.standings("t1").orElseThrow());
        assertEquals(book.state("t1").orElseThrow(), rebuilt.state("t1").orElseThrow());
        assertEquals(
                book.nextPairings("t1").stream().map(Pairing::gameId).toList(),
                rebuilt.nextPairings("t1").stream().map(Pairing::gameId).toList());
    }

    @Test
    void aLeaguePairsRoundByRoundTakesJoinsAndLeavesAndRebuildsTheSame() {
        TournamentRegistry book = new TournamentRegistry(16);
        var spec = spec(Format.FORMAT_LEAGUE, 4, 6, 8).toBuilder()
                .setLeague(dev.taikai.proto.tournament.v1.LeagueSettings.newBuilder()
                        .setHalfLifeRounds(10))
                .build();
        TournamentState created = book.create("lg", spec, 100);
        assertEquals(4, created.getPlannedGames(), "round 1 paired: two pairs of two games");
        assertEquals(1, created.getLeagueRounds());
        List<GameRecord> published = new ArrayList<>();
        java.util.Map<String, Integer> strength = java.util.Map.of("e0", 3, "e1", 2, "e2", 1, "e3", 0, "late", 4);
        java.util.ArrayDeque<Pairing> inPlay = new java.util.ArrayDeque<>(book.nextPairings("lg"));
        assertEquals(4, inPlay.size());
        while (!inPlay.isEmpty()) {
            Pairing p = inPlay.poll();
            var game = p.game();
            int diff = strength.get(game.sente()) - strength.get(game.gote());
            GameRecord r = record(p, diff > 0 ? Result.SENTE_WINS : diff < 0 ? Result.GOTE_WINS : Result.DRAW);
            assertEquals(TournamentRegistry.Counted.COUNTED, book.count(r));
            published.add(r);
            if (published.size() == 6) { // mid-round 2: one joins, one leaves, from round 3 on
                book.changeLeague(
                        "lg",
                        dev.taikai.proto.tournament.v1.Entrant.newBuilder()
                                .setName("late")
                                .setEngineId("taikai-2")
                                .build(),
                        false,
                        200);
                book.changeLeague(
                        "lg",
                        dev.taikai.proto.tournament.v1.Entrant.newBuilder()
                                .setName("e3")
                                .build(),
                        true,
                        200);
            }
            inPlay.addAll(book.nextPairings("lg"));
        }
        TournamentState done = book.state("lg").orElseThrow();
        assertEquals(Status.STATUS_FINISHED, done.getStatus(), done.getStatusDetail());
        assertEquals(6, done.getLeagueRounds());
        assertEquals(24, done.getFinishedGames());
        for (GameRecord r : published) {
            var a = r.getAssignment();
            if (Integer.parseInt(a.getLocalId().substring(1, a.getLocalId().indexOf('-'))) >= 3) {
                assertTrue(
                        !a.getSente().getName().equals("e3")
                                && !a.getGote().getName().equals("e3"),
                        "e3 left");
            }
        }
        var table = book.standings("lg").orElseThrow().getLeague();
        assertEquals("late", table.getRatings(0).getEngine(), "the strongest, joined late, rates highest");
        assertTrue(table.getRatings(0).getError() > 0
                && Double.isFinite(table.getRatings(0).getError()));
        assertEquals(
                6,
                table.getHistoryList().stream()
                        .filter(h -> h.getEngine().equals("e0"))
                        .findFirst()
                        .orElseThrow()
                        .getPointsCount());
        assertTrue(table.getCrosstableCount() >= 5);
        assertTrue(table.getRatingsList().stream().anyMatch(r -> r.getEngine().equals("e3") && !r.getActive()));

        TournamentRegistry rebuilt = new TournamentRegistry(16);
        rebuilt.restore(done);
        for (GameRecord r : published) {
            rebuilt.count(r);
            rebuilt.count(r); // delivered twice
        }
        assertEquals(done, rebuilt.state("lg").orElseThrow(), "the same rounds, byte for byte");
        assertEquals(book.standings("lg").orElseThrow(), rebuilt.standings("lg").orElseThrow());

        var notALeague = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class, () -> {
            book.create("rr", spec(Format.FORMAT_ROUND_ROBIN, 3, 1, 2), 1);
            book.changeLeague(
                    "rr",
                    dev.taikai.proto.tournament.v1.Entrant.newBuilder()
                            .setName("x")
                            .setEngineId("taikai-1")
                            .build(),
                    false,
                    1);
        });
        assertTrue(notALeague.getMessage().contains("is not a league"));
    }

    /**
     * A join without a name plays under its engine id; it was published without a name, and a rebuilt
     * scheduler then knew no such engine: it counted none of the games it played (and threw at a later
     * leave). The change is published with the name it plays under, and one published without still
     * rebuilds.
     */
    @Test
    void aJoinWithoutANamePlaysAndRebuildsUnderItsEngineId() {
        TournamentRegistry book = new TournamentRegistry(16);
        book.create("lg", spec(Format.FORMAT_LEAGUE, 2, 3, 8), 100);
        List<GameRecord> published = new ArrayList<>();
        java.util.ArrayDeque<Pairing> inPlay = new java.util.ArrayDeque<>(book.nextPairings("lg"));
        boolean joined = false;
        while (!inPlay.isEmpty()) {
            GameRecord r = record(inPlay.poll(), Result.DRAW);
            assertEquals(TournamentRegistry.Counted.COUNTED, book.count(r));
            published.add(r);
            if (!joined) {
                joined = true;
                TournamentState state = book.changeLeague(
                                "lg",
                                dev.taikai.proto.tournament.v1.Entrant.newBuilder()
                                        .setEngineId("taikai-3")
                                        .build(),
                                false,
                                200)
                        .orElseThrow();
                assertEquals("taikai-3", state.getLeagueChanges(0).getEntrant().getName(), "published under its name");
            }
            inPlay.addAll(book.nextPairings("lg"));
        }
        TournamentState done = book.state("lg").orElseThrow();
        assertEquals(Status.STATUS_FINISHED, done.getStatus(), done.getStatusDetail());
        assertTrue(
                published.stream()
                        .anyMatch(r -> r.getAssignment().getSente().getName().equals("taikai-3")),
                "the engine that joined played");
        // as an earlier scheduler published it: without the name
        var change = done.getLeagueChanges(0);
        TournamentState nameless = done.toBuilder()
                .setLeagueChanges(
                        0,
                        change.toBuilder()
                                .setEntrant(change.getEntrant().toBuilder().clearName()))
                .build();
        for (TournamentState state : List.of(done, nameless)) {
            TournamentRegistry rebuilt = new TournamentRegistry(16);
            rebuilt.restore(state);
            for (GameRecord r : published) {
                assertEquals(
                        TournamentRegistry.Counted.COUNTED,
                        rebuilt.count(r),
                        r.getAssignment().getLocalId());
            }
            assertEquals(
                    done.getFinishedGames(), rebuilt.state("lg").orElseThrow().getFinishedGames());
        }
    }

    @Test
    void specsThatAreNotTournamentsAreRefusedWithTheField() {
        TournamentRegistry book = new TournamentRegistry(16);
        var commandLine = spec(Format.FORMAT_MATCH, 2, 1, 1).toBuilder()
                .setEntrants(0, Entrant.newBuilder().setName("x").setEngineId("/usr/bin/evil --flag"))
                .build();
        var e = assertThrows(IllegalArgumentException.class, () -> book.create("t", commandLine, 1));
        assertTrue(
                e.getMessage().startsWith("entrants[0].engine_id '/usr/bin/evil --flag' is not a catalog id"),
                e.getMessage());
        var huge = spec(Format.FORMAT_ROUND_ROBIN, 3, 1_000_000_000, 1);
        e = assertThrows(IllegalArgumentException.class, () -> book.create("t", huge, 1));
        assertTrue(e.getMessage().contains("at most 100000"), e.getMessage());
        var noVariant =
                spec(Format.FORMAT_MATCH, 2, 1, 1).toBuilder().clearVariant().build();
        e = assertThrows(IllegalArgumentException.class, () -> book.create("t", noVariant, 1));
        assertEquals("variant is missing or unknown", e.getMessage());
    }
}
