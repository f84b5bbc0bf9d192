package dev.taikai.tournament.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.taikai.referee.game.GameAssignment;
import dev.taikai.referee.game.GameRecord;
import dev.taikai.rules.Result;
import dev.taikai.tournament.Entrant;
import dev.taikai.tournament.Format;
import dev.taikai.tournament.TournamentSpec;
import dev.taikai.tournament.stats.Sprt;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The one tournament core: hand-out under the concurrency, counting once, rounds, stopping, rebuilding. */
class TournamentRunTest {
    @Test
    void gamesAreHandedOutInPlanOrderKeepingAtMostTheConcurrencyInPlay() {
        TournamentRun run = new TournamentRun(Runs.spec(Format.ROUND_ROBIN, 3, 1, 2, 2, null));
        assertEquals(6, run.paired());
        List<GameAssignment> first = run.handOut();
        assertEquals(List.of("r1-p1-g1", "r1-p1-g2"), ids(first));
        assertEquals(List.of(), run.handOut(), "two in play: no room");
        assertEquals(2, run.inPlay());
        assertEquals(Counted.COUNTED, run.count(Runs.record(first.get(1), Result.DRAW)));
        assertEquals(List.of("r1-p2-g1"), ids(run.handOut()));
        assertEquals(3, run.handedOut());
    }

    @Test
    void aGameCountsOnceOnlyAsPairedAndOnlyWhenItsRecordHoldsUp() {
        TournamentRun run = new TournamentRun(Runs.spec(Format.MATCH, 2, 1, 2, 2, null));
        GameAssignment game = run.handOut().get(0);
        GameRecord forged = new GameRecord(
                game,
                Runs.record(game, Result.DRAW).startSfen(),
                List.of(),
                new dev.taikai.rules.Outcome(Result.SENTE_WINS, dev.taikai.rules.Termination.CHECKMATE, "forged"),
                1,
                2,
                0);
        List<String> reasons = new ArrayList<>();
        assertEquals(Counted.REFUSED, run.count(forged, reasons::add));
        assertTrue(reasons.get(0).contains("the rules do not end the game there"), reasons.toString());
        GameAssignment swapped = run.paired("r1-p1-g2").orElseThrow();
        assertEquals(Counted.UNKNOWN, run.count(Runs.record(withColours(swapped, game), Result.DRAW)));
        assertEquals(Counted.COUNTED, run.count(Runs.record(game, Result.DRAW)));
        assertEquals(Counted.DUPLICATE, run.count(Runs.record(game, Result.DRAW)));
        assertEquals(1, run.standings().gamesPlayed());
        assertEquals(1, run.inPlay(), "the other game of the pair");
    }

    @Test
    void theRunFinishesWithItsLastGameAndHandsOutNothingAfter() {
        TournamentRun run = new TournamentRun(Runs.spec(Format.MATCH, 2, 1, 2, 4, null));
        for (GameAssignment game : run.handOut()) {
            assertTrue(run.running());
            run.count(Runs.record(game, Result.DRAW));
        }
        assertEquals(
                new Stop(Stop.Kind.FINISHED, "all 2 games played"), run.stop().orElseThrow());
        assertEquals(List.of(), run.handOut());
    }

    /**
     * One SPRT decision: at the crossing no new pair starts; the games in play, and the second game of a
     * pair begun, are still played and counted, so the pentanomial counts whole pairs, and the stop's line
     * gives the final count and LLR with the verdict taken at the crossing.
     */
    @Test
    void anSprtStopsNewPairsPlaysOutThePairsBegunAndReportsOneVerdict() {
        for (int concurrency : List.of(1, 3)) {
            Sprt sprt = new Sprt(0, 300, 0.2, 0.2);
            TournamentRun run = new TournamentRun(Runs.spec(Format.MATCH, 2, 100, 2, concurrency, sprt));
            List<GameAssignment> inPlay = new ArrayList<>(run.handOut());
            while (run.running()) {
                run.count(Runs.win(inPlay.remove(0), "e0"));
                inPlay.addAll(run.handOut());
            }
            int atCrossing = run.standings().gamesPlayed();
            assertTrue(
                    run.stop().orElseThrow().detail().contains("H1 accepted"),
                    run.stop().toString());
            while (!inPlay.isEmpty()) {
                assertFalse(run.settled(), "the games handed out are awaited");
                assertEquals(Counted.COUNTED, run.count(Runs.win(inPlay.remove(0), "e0")), "in play: counted");
                inPlay.addAll(run.handOut());
            }
            assertTrue(run.settled(), "every game handed out is counted");
            int games = run.standings().gamesPlayed();
            assertEquals(0, games % 2, "whole pairs only: " + games);
            assertEquals(games / 2, run.standings().pentanomial("e0", "e1").pairs());
            String detail = run.stop().orElseThrow().detail();
            double llr = sprt.llr(run.standings().pentanomial("e0", "e1"));
            assertTrue(
                    detail.startsWith(String.format(
                            java.util.Locale.ROOT, "SPRT concluded after %d games: H1 accepted (LLR %.2f", games, llr)),
                    detail);
            assertEquals(games == atCrossing, !detail.contains("the bound was crossed after"), detail);
        }
    }

    /**
     * A run interrupted after its SPRT crossed, while the games in play then were played out, and resumed
     * from its journal: those games were not played again (a game below the last one counted, the first of
     * its pair, was taken for a pair not begun), and the final count lacked them. The resumed run plays the
     * same games as the run that went on.
     */
    @Test
    void anSprtRunResumedAfterItsCrossingPlaysTheGamesThatWereInPlay() {
        TournamentSpec spec = Runs.spec(Format.MATCH, 2, 100, 2, 3, new Sprt(0, 300, 0.2, 0.2));
        TournamentRun straight = new TournamentRun(spec);
        List<GameRecord> journal = new ArrayList<>();
        List<GameAssignment> inPlay = new ArrayList<>(straight.handOut());
        while (straight.running()) {
            // the latest game ends first: the first two stay in play until the crossing
            GameRecord record = Runs.win(inPlay.remove(inPlay.size() - 1), "e0");
            straight.count(record);
            journal.add(record);
            inPlay.addAll(straight.handOut());
        }
        assertFalse(inPlay.isEmpty(), "games in play at the crossing");
        TournamentRun resumed = new TournamentRun(spec);
        journal.forEach(resumed::count);
        assertTrue(resumed.gamesLeftToHandOut(), "the games in play then are left to play");
        List<GameAssignment> again = new ArrayList<>(resumed.handOut());
        assertEquals(
                ids(inPlay).stream().sorted().toList(),
                ids(again).stream().sorted().toList());
        playOut(straight, inPlay);
        playOut(resumed, again);
        assertEquals(countedIds(straight), countedIds(resumed));
        assertFalse(resumed.gamesLeftToHandOut());
    }

    /**
     * The same, killed while the games in play at the crossing were played out, once the first game of the
     * last pair begun was counted and its second was in play: the resumed run stopped at the counted first
     * game, never reached the second, and ended with a pair short.
     */
    @Test
    void anSprtRunResumedWithTheSecondGameOfItsLastPairInPlayPlaysIt() {
        TournamentSpec spec = Runs.spec(Format.MATCH, 2, 100, 2, 2, new Sprt(0, 300, 0.2, 0.2));
        TournamentRun straight = new TournamentRun(spec);
        List<GameRecord> journal = new ArrayList<>();
        List<GameAssignment> inPlay = new ArrayList<>(straight.handOut());
        GameRecord last = null;
        while (straight.running() || last == null || last.assignment().gameInPairing() % 2 == 0 || inPlay.isEmpty()) {
            assertFalse(inPlay.isEmpty(), "a moment with a pair's first game counted and its second in play");
            last = Runs.win(inPlay.remove(0), "e0"); // the oldest ends first
            straight.count(last);
            journal.add(last);
            inPlay.addAll(straight.handOut());
        }
        GameAssignment second = inPlay.get(0);
        assertEquals(
                last.assignment().gameInPairing() + 1,
                second.gameInPairing(),
                ids(inPlay).toString());

        TournamentRun resumed = new TournamentRun(spec);
        journal.forEach(resumed::count);
        assertTrue(resumed.gamesLeftToHandOut(), "the second game of the last pair is left to play");
        List<GameAssignment> again = new ArrayList<>(resumed.handOut());
        assertEquals(ids(inPlay), ids(again));
        playOut(straight, inPlay);
        playOut(resumed, again);
        assertEquals(countedIds(straight), countedIds(resumed));
        assertEquals(0, countedIds(resumed).size() % 2, "whole pairs");
    }

    /** Counts the games in play and those handed out after them until the run awaits nothing. */
    private static void playOut(TournamentRun run, List<GameAssignment> inPlay) {
        while (!inPlay.isEmpty()) {
            run.count(Runs.win(inPlay.remove(0), "e0"));
            inPlay.addAll(run.handOut());
        }
        assertTrue(run.settled());
    }

    private static List<String> countedIds(TournamentRun run) {
        return run.standings().records().stream().map(GameRecord::id).sorted().toList();
    }

    @Test
    void aCancelledRunHandsOutNothingAndKeepsCountingItsGamesInPlay() {
        TournamentRun run = new TournamentRun(Runs.spec(Format.ROUND_ROBIN, 3, 1, 2, 2, null));
        List<GameAssignment> inPlay = run.handOut();
        assertFalse(run.settled());
        run.cancel("enough");
        assertTrue(run.settled(), "a cancelled run awaits nothing: games not begun never come");
        assertEquals(
                new Stop(Stop.Kind.CANCELLED, "cancelled: enough"), run.stop().orElseThrow());
        assertEquals(List.of(), run.handOut());
        assertEquals(Counted.COUNTED, run.count(Runs.record(inPlay.get(0), Result.DRAW)));
        run.abort("too late");
        assertEquals(Stop.Kind.CANCELLED, run.stop().orElseThrow().kind(), "the first stop stands");
    }

    @Test
    void aLeaguePairsItsNextRoundWhenTheLastGameOfARoundIsCountedAndFinishesAfterItsRounds() {
        TournamentRun run = new TournamentRun(Runs.spec(Format.LEAGUE, 4, 3, 2, 16, null));
        for (int round = 1; round <= 3; round++) {
            assertEquals(round, run.leagueRounds());
            List<GameAssignment> games = run.handOut();
            assertEquals(4, games.size(), "two pairings of two games");
            String prefix = "l" + round + "-";
            assertTrue(
                    games.stream().allMatch(g -> g.gameId().startsWith(prefix)),
                    ids(games).toString());
            for (GameAssignment game : games) {
                assertEquals(round, run.leagueRounds(), "the next round waits for the last game");
                run.count(Runs.win(game, game.sente()));
            }
        }
        assertEquals(
                new Stop(Stop.Kind.FINISHED, "all 3 rounds played"), run.stop().orElseThrow());
        assertEquals(12, run.standings().gamesPlayed());
    }

    @Test
    void aLeagueTakesJoinsAndLeavesFromItsNextRound() {
        TournamentRun run = new TournamentRun(Runs.spec(Format.LEAGUE, 3, 0, 1, 16, null));
        List<GameAssignment> round1 = run.handOut();
        assertEquals(1, round1.size(), "three engines: one sits out");
        LeagueChange join = run.join(new Entrant("new", "fake", Runs.TC));
        assertEquals(2, join.beforeRound());
        run.leave("e0");
        assertThrows(IllegalArgumentException.class, () -> run.leave("e0"), "left already");
        assertThrows(IllegalArgumentException.class, () -> run.join(new Entrant("e1", "other", Runs.TC)));
        run.count(Runs.record(round1.get(0), Result.DRAW));
        List<GameAssignment> round2 = run.handOut();
        assertEquals(1, round2.size());
        List<String> players = List.of(round2.get(0).sente(), round2.get(0).gote());
        assertFalse(players.contains("e0"), players.toString());
        assertTrue(run.knows("new") && run.entrant("new").engineId().equals("fake"));
        assertTrue(run.running(), "a league without a round count runs until cancelled");
        run.cancel("");
        assertThrows(IllegalStateException.class, () -> run.join(new Entrant("late", "fake", Runs.TC)));
    }

    /**
     * A round in which fewer than two engines are in the pool passes without games when engines join
     * later, and says so: the league reached round 3, with its join, instead of stopping after round 1
     * (on one machine: exit 0, one round of three played, nothing said).
     */
    @Test
    void aRoundWithTooFewEnginesPassesWithoutGamesWhenEnginesJoinLater() {
        TournamentRun run = new TournamentRun(Runs.spec(
                        Format.LEAGUE,
                        List.of(Runs.inRounds("e0", 1, 1), Runs.inRounds("e1", 1, 0), Runs.inRounds("e2", 3, 0)),
                        3,
                        1,
                        16,
                        null))
                .closedPool();
        assertEquals(2, run.gamesExpected(), "round 1's game and round 3's");
        List<GameAssignment> round1 = run.handOut();
        assertEquals(List.of("l1-p1-g1"), ids(round1));
        run.count(Runs.record(round1.get(0), Result.DRAW));
        assertEquals(
                List.of("round 2 passes without games: fewer than two engines are in the pool (e1); more join later"),
                run.leagueRoundsPassed());
        List<GameAssignment> round3 = run.handOut();
        assertEquals(List.of("l3-p1-g1"), ids(round3));
        assertEquals(3, run.leagueRounds());
        run.count(Runs.record(round3.get(0), Result.DRAW));
        assertEquals(
                new Stop(Stop.Kind.FINISHED, "all 3 rounds played"), run.stop().orElseThrow());
        assertEquals(2, run.standings().gamesPlayed());
    }

    /** The games a league expects count its rounds to come from the pool as it is: an engine taken out plays none. */
    @Test
    void aLeaguesExpectedGamesLeaveOutAnEngineTakenOut() {
        TournamentRun league = new TournamentRun(Runs.spec(Format.LEAGUE, 4, 6, 2, 16, null));
        assertEquals(6 * 2 * 2, league.gamesExpected());
        countRoundLostByE3(league, Runs::didNotStart);
        countRoundLostByE3(league, Runs::didNotStart); // e3's 4th start failed: it is out from round 3
        assertFalse(
                league.league().orElseThrow().pool().contains("e3"),
                league.dropped().toString());
        // 2 rounds of 4 games played, 4 to come of three engines: one pairing of 2 games each
        assertEquals(2 * 4 + 4 * 2, league.gamesExpected());
    }

    /**
     * A run rebuilt from the same changes and records, counted in another order within each round,
     * reaches the same pairings, standings and stop; and a scheduler that had handed out games before does
     * not hand them out again, also in rounds paired again only later.
     */
    @Test
    void aRebuiltLeagueReachesTheSameStateAndHandsOutNothingTwice() {
        TournamentRun live = new TournamentRun(Runs.spec(Format.LEAGUE, 4, 4, 2, 16, null));
        List<GameRecord> records = new ArrayList<>();
        Random random = new Random(7);
        for (int round = 1; round <= 4; round++) {
            if (round == 2) {
                live.join(new Entrant("e4", "fake", Runs.TC));
            }
            if (round == 3) {
                live.leave("e1");
            }
            for (GameAssignment game : live.handOut()) {
                GameRecord record = Runs.record(game, Result.values()[random.nextInt(3)]);
                live.count(record);
                records.add(record);
            }
        }
        assertEquals(Stop.Kind.FINISHED, live.stop().orElseThrow().kind());

        TournamentRun rebuilt = new TournamentRun(Runs.spec(Format.LEAGUE, 4, 4, 2, 16, null));
        rebuilt.restoreLeague(live.leagueChanges(), live.leagueRounds());
        List<GameRecord> shuffled = new ArrayList<>();
        for (int round = 1; round <= 4; round++) {
            String prefix = "l" + round + "-";
            List<GameRecord> ofRound = new ArrayList<>(
                    records.stream().filter(r -> r.id().startsWith(prefix)).toList());
            Collections.shuffle(ofRound, random);
            shuffled.addAll(ofRound);
        }
        for (GameRecord record : shuffled) {
            assertEquals(Counted.COUNTED, rebuilt.count(record), record.id());
        }
        assertEquals(live.stop(), rebuilt.stop());
        assertEquals(games(live), games(rebuilt), "the same rounds, game by game");
        var liveTable = live.standings().table();
        var rebuiltTable = rebuilt.standings().table();
        for (int i = 0; i < liveTable.size(); i++) {
            assertEquals(liveTable.get(i).engine(), rebuiltTable.get(i).engine());
            assertEquals(liveTable.get(i).wdl(), rebuiltTable.get(i).wdl());
            // the fit sums the games in another order: equal up to rounding
            assertEquals(liveTable.get(i).elo(), rebuiltTable.get(i).elo(), 1e-6);
        }

        TournamentRun restarted = new TournamentRun(Runs.spec(Format.LEAGUE, 4, 0, 2, 16, null));
        List<GameAssignment> handedOut = restarted.handOut();
        restarted.count(Runs.record(handedOut.get(0), Result.DRAW));
        TournamentRun again = new TournamentRun(Runs.spec(Format.LEAGUE, 4, 0, 2, 16, null));
        again.handedOutUpTo(restarted.handedOut());
        again.count(Runs.record(handedOut.get(0), Result.DRAW));
        assertEquals(List.of(), again.handOut(), "the other three are in play already");
        assertEquals(3, again.inPlay());
    }

    /**
     * An engine that loses {@value TournamentRun#START_FAILURES} games in a row before its first move (it
     * does not start) stops a run, with the reason; one game it plays in between starts the count again.
     * A league drops it from the next round instead.
     */
    @Test
    void anEngineThatCannotStartStopsTheRunOrLeavesTheLeague() {
        TournamentRun run = new TournamentRun(Runs.spec(Format.MATCH, 2, 10, 2, 1, null));
        for (int i = 0; i < 6; i++) {
            GameAssignment game = run.handOut().get(0);
            boolean playsOnce = i == 2;
            var side = game.sente().equals("e1") ? dev.taikai.rules.Color.SENTE : dev.taikai.rules.Color.GOTE;
            run.count(playsOnce ? Runs.record(game, Result.DRAW) : Runs.didNotStart(game, side));
            assertEquals(i < 5, run.running(), "game " + (i + 1) + ": " + run.stop());
        }
        Stop stop = run.stop().orElseThrow();
        assertEquals(Stop.Kind.ABORTED, stop.kind());
        assertTrue(
                stop.detail().startsWith("engine 'e1' did not start in its last 3 games (")
                        && stop.detail().contains("before the first move: exited"),
                stop.detail());

        TournamentRun league = new TournamentRun(Runs.spec(Format.LEAGUE, 4, 0, 2, 16, null));
        for (int round = 1; round <= 3; round++) {
            countRoundLostByE3(league, Runs::didNotStart);
        }
        assertTrue(league.running(), "a league goes on without the engine");
        assertFalse(
                league.league().orElseThrow().pool().contains("e3"),
                league.dropped().toString());
        assertTrue(
                league.dropped().get("e3").startsWith("engine 'e3' did not start in its last 3 games"),
                league.dropped().toString());
        assertTrue(league.handOut().stream()
                .noneMatch(g -> g.sente().equals("e3") || g.gote().equals("e3")));
    }

    /**
     * A game lost by a failure every game of that engine would meet again (here an XBoard engine without
     * setboard, given openings) stops the run when it is counted: as gote it lost after sente's first move,
     * so the start-failure rule never fired, and a cluster forfeited every game of the tournament. A league
     * drops the engine from its next round; a resumed run tries the engine again.
     */
    @Test
    void anEngineThatFailsEveryGameStopsTheRunAtItsFirstOrLeavesTheLeague() {
        TournamentRun run = new TournamentRun(Runs.spec(Format.MATCH, 2, 10, 2, 1, null));
        GameAssignment game = run.handOut().get(0);
        while (!game.gote().equals("e1")) {
            run.count(Runs.record(game, Result.DRAW));
            game = run.handOut().get(0);
        }
        GameRecord lost = Runs.cannotBeGivenTheOpening(game, dev.taikai.rules.Color.GOTE);
        assertEquals(1, lost.moves().size(), "a game with a move: not a start failure");
        run.count(lost);
        Stop stop = run.stop().orElseThrow();
        assertEquals(Stop.Kind.ABORTED, stop.kind());
        assertEquals(
                "engine 'e1' cannot be used: variant unsupported: the engine cannot be given a position (it has no"
                        + " feature setboard=1)",
                stop.detail());
        assertEquals(stop.detail(), run.retryStarts().orElseThrow(), "a resume tries the engine again");
        assertTrue(run.running());

        TournamentRun league = new TournamentRun(Runs.spec(Format.LEAGUE, 4, 0, 2, 16, null));
        countRoundLostByE3(league, Runs::cannotBeGivenTheOpening);
        assertTrue(league.running(), "a league goes on without the engine");
        assertTrue(
                league.dropped().get("e3").startsWith("engine 'e3' cannot be used: variant unsupported: "),
                league.dropped().toString());
        assertTrue(league.handOut().stream()
                .noneMatch(g -> g.sente().equals("e3") || g.gote().equals("e3")));
    }

    /**
     * A match too short to stop on {@value TournamentRun#START_FAILURES} start failures (two games) in
     * which an engine never started ended "finished", exit 0: it stops instead, with the reason.
     */
    @Test
    void anEngineThatNeverStartedInAShortRunDoesNotLetItPassForFinished() {
        TournamentRun run = new TournamentRun(Runs.spec(Format.MATCH, 2, 1, 2, 1, null));
        for (int i = 0; i < 2; i++) {
            GameAssignment game = run.handOut(1).get(0);
            var side = game.sente().equals("e1") ? dev.taikai.rules.Color.SENTE : dev.taikai.rules.Color.GOTE;
            run.count(Runs.didNotStart(game, side));
        }
        Stop stop = run.stop().orElseThrow();
        assertEquals(Stop.Kind.ABORTED, stop.kind(), stop.detail());
        assertTrue(stop.detail().startsWith("engine 'e1' did not start in any of its 2 games ("), stop.detail());

        TournamentRun played = new TournamentRun(Runs.spec(Format.MATCH, 2, 1, 2, 1, null));
        GameAssignment first = played.handOut(1).get(0);
        var side = first.sente().equals("e1") ? dev.taikai.rules.Color.SENTE : dev.taikai.rules.Color.GOTE;
        played.count(Runs.didNotStart(first, side));
        played.count(Runs.record(played.handOut(1).get(0), Result.DRAW));
        assertEquals(Stop.Kind.FINISHED, played.stop().orElseThrow().kind(), "it started once: the run finished");
    }

    /** Counts the games {@code league} hands out: e3's lost by e3 as {@code lost} makes them, the others drawn. */
    private static void countRoundLostByE3(
            TournamentRun league,
            java.util.function.BiFunction<GameAssignment, dev.taikai.rules.Color, GameRecord> lost) {
        for (GameAssignment game : league.handOut()) {
            var e3 = game.sente().equals("e3")
                    ? dev.taikai.rules.Color.SENTE
                    : game.gote().equals("e3") ? dev.taikai.rules.Color.GOTE : null;
            league.count(e3 != null ? lost.apply(game, e3) : Runs.record(game, Result.DRAW));
        }
    }

    private static GameAssignment withColours(GameAssignment game, GameAssignment colours) {
        return new GameAssignment(
                game.gameId(),
                game.round(),
                game.pairing(),
                game.gameInPairing(),
                game.variant(),
                colours.sente(),
                colours.gote(),
                game.opening(),
                game.senteTimeControl(),
                game.goteTimeControl(),
                game.senteMarginMillis(),
                game.goteMarginMillis(),
                game.adjudication());
    }

    /** Every game the run paired, as "id sente gote". */
    private static List<String> games(TournamentRun run) {
        return run.pairedGames().stream()
                .map(g -> g.gameId() + " " + g.sente() + " " + g.gote())
                .toList();
    }

    private static List<String> ids(List<GameAssignment> games) {
        return games.stream().map(GameAssignment::gameId).toList();
    }
}
