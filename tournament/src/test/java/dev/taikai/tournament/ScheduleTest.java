package dev.taikai.tournament;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.taikai.referee.game.Adjudication;
import dev.taikai.referee.game.GameAssignment;
import dev.taikai.referee.game.Opening;
import dev.taikai.referee.game.OverrunMargin;
import dev.taikai.referee.game.TimeControl;
import dev.taikai.rules.Position;
import dev.taikai.rules.Variant;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ScheduleTest {
    private static final TimeControl TC = TimeControl.byoyomi(0, 100);

    static TournamentSpec spec(
            Format format,
            int engines,
            int seeds,
            int rounds,
            int games,
            List<Opening> openings,
            boolean random,
            long seed) {
        List<Entrant> entrants = new java.util.ArrayList<>();
        for (int i = 0; i < engines; i++) {
            entrants.add(new Entrant("e" + i, "fake", TC));
        }
        return new TournamentSpec(
                "t",
                Variant.MINISHOGI,
                format,
                entrants,
                seeds,
                rounds,
                games,
                openings,
                random,
                OverrunMargin.BY_RULE,
                Adjudication.DEFAULT,
                1,
                seed,
                null);
    }

    @Test
    void aDoubleRoundRobinPlaysEveryPairingWithColoursSwapped() {
        List<GameAssignment> games = Schedule.plan(spec(Format.ROUND_ROBIN, 3, 0, 2, 2, List.of(), false, 1));
        assertEquals(12, games.size(), "3 pairings x 2 rounds x 2 games");
        assertEquals(12, games.stream().map(GameAssignment::gameId).distinct().count());
        assertEquals("r1-p1-g1", games.get(0).gameId());
        assertEquals(
                List.of("e0", "e1"), List.of(games.get(0).sente(), games.get(0).gote()));
        assertEquals(
                List.of("e1", "e0"), List.of(games.get(1).sente(), games.get(1).gote()), "colours swapped in the pair");
        GameAssignment round2 = games.get(6);
        assertEquals("r2-p1-g1", round2.gameId());
        assertEquals("e1", round2.sente(), "the first mover alternates from round to round");
        for (String engine : List.of("e0", "e1", "e2")) {
            long asSente = games.stream().filter(g -> g.sente().equals(engine)).count();
            assertEquals(4, asSente, engine + " plays sente half its games");
        }
    }

    @Test
    void gauntletAndMatchPairings() {
        List<GameAssignment> gauntlet = Schedule.plan(spec(Format.GAUNTLET, 4, 1, 1, 2, List.of(), false, 1));
        assertEquals(6, gauntlet.size());
        assertTrue(
                gauntlet.stream()
                        .allMatch(g -> g.sente().equals("e0") || g.gote().equals("e0")),
                "seed in every game");
        List<GameAssignment> twoSeeds = Schedule.plan(spec(Format.GAUNTLET, 4, 2, 1, 1, List.of(), false, 1));
        assertEquals(4, twoSeeds.size(), "seeds do not meet each other");
        List<GameAssignment> match = Schedule.plan(spec(Format.MATCH, 2, 0, 5, 2, List.of(), false, 1));
        assertEquals(10, match.size());
        assertThrows(IllegalArgumentException.class, () -> spec(Format.MATCH, 3, 0, 1, 2, List.of(), false, 1));
        assertThrows(IllegalArgumentException.class, () -> spec(Format.GAUNTLET, 3, 3, 1, 2, List.of(), false, 1));
    }

    @Test
    void openingsGoToPairsDeterministically() throws Exception {
        List<Opening> openings =
                List.of(opening("5d5c"), opening("4e4d"), opening("2e3d"), opening("1e1d"), opening("3e4d"));
        List<GameAssignment> sequential = Schedule.plan(spec(Format.ROUND_ROBIN, 3, 0, 2, 2, openings, false, 1));
        assertEquals(sequential.get(0).opening(), sequential.get(1).opening(), "a pair shares its opening");
        assertEquals(openings.get(0), sequential.get(0).opening());
        assertEquals(openings.get(1), sequential.get(2).opening());
        assertEquals(openings.get(0), sequential.get(10).opening(), "the suite wraps around");

        List<String> random1 = openingsOf(Schedule.plan(spec(Format.ROUND_ROBIN, 3, 0, 2, 2, openings, true, 42)));
        List<String> random2 = openingsOf(Schedule.plan(spec(Format.ROUND_ROBIN, 3, 0, 2, 2, openings, true, 42)));
        List<String> random3 = openingsOf(Schedule.plan(spec(Format.ROUND_ROBIN, 3, 0, 2, 2, openings, true, 7)));
        assertEquals(random1, random2, "the same seed plans the same games");
        assertNotEquals(random1, random3, "another seed, another order");
        Set<String> used = new HashSet<>(random1);
        assertEquals(5, used.size(), "every opening is used");
    }

    @Test
    void openingSuiteFiles(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("openings.txt");
        Files.writeString(
                file,
                String.join(
                        "\n",
                        "# a comment",
                        "",
                        "startpos moves 5d5c 1b1c",
                        "rbsgk/4p/5/P4/KGSBR w - 1",
                        "rbsgk/4p/5/P4/KGSBR b - 1 moves 4e4d"));
        List<Opening> openings = OpeningSuite.read(file, Variant.MINISHOGI);
        assertEquals(3, openings.size());
        assertEquals(List.of("5d5c", "1b1c"), openings.get(0).moves());
        assertEquals("rbsgk/5/P3p/5/KGSBR b - 3", openings.get(0).position().toSfen());

        // tabs between the words, as a spreadsheet or an editor may write them
        Files.writeString(file, "startpos\tmoves\t5d5c 1b1c\nsfen\trbsgk/4p/5/P4/KGSBR b - 1\tmoves 4e4d\n");
        List<Opening> tabbed = OpeningSuite.read(file, Variant.MINISHOGI);
        assertEquals(List.of("5d5c", "1b1c"), tabbed.get(0).moves());
        assertEquals(List.of("4e4d"), tabbed.get(1).moves());

        Files.writeString(file, "startpos\nstartpos moves 5d5c 5c5b\n");
        IllegalArgumentException e =
                assertThrows(IllegalArgumentException.class, () -> OpeningSuite.read(file, Variant.MINISHOGI));
        assertTrue(e.getMessage().startsWith(file + ":2: illegal move 5c5b"), e.getMessage());
        Files.writeString(file, "rbsgk/4p/5/P4 b - 1\n");
        e = assertThrows(IllegalArgumentException.class, () -> OpeningSuite.read(file, Variant.MINISHOGI));
        assertTrue(e.getMessage().startsWith(file + ":1: invalid Minishogi SFEN"), e.getMessage());
        Files.writeString(file, "4k/2S2/4G/5/K4 w - 1\n");
        e = assertThrows(IllegalArgumentException.class, () -> OpeningSuite.read(file, Variant.MINISHOGI));
        assertTrue(e.getMessage().contains("the opening already ends the game (stalemate)"), e.getMessage());
        Files.writeString(file, "# nothing\n");
        assertThrows(IllegalArgumentException.class, () -> OpeningSuite.read(file, Variant.MINISHOGI));
    }

    /**
     * A line whose moves end a game (a previous run's all-games.sfen holds such lines) is refused as a
     * whole, and used when plies= cuts it short of the end or start= skips it, as cutechess-cli does. A
     * repetition inside the book ends nothing: the game starts after the book, with no history.
     */
    @Test
    void anOpeningIsJudgedAsItIsPlayedAfterItsCut(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("suite.txt");
        String mate = "rbsgk/4p/5/P4/KGSBR b - 1 moves 4e3d 3a4b 3e2d 4b3a 3d2c 3a4b 2e3d 4a5b 2c1b 2a1b 3d1b 4b4c"
                + " 2d2c G*4d";
        Files.writeString(file, mate + "\nstartpos\n");
        IllegalArgumentException whole =
                assertThrows(IllegalArgumentException.class, () -> OpeningSuite.read(file, Variant.MINISHOGI));
        assertTrue(
                whole.getMessage().startsWith(file + ":1: the opening already ends the game (checkmate)"),
                whole.getMessage());
        List<Opening> cut = OpeningSuite.read(file, Variant.MINISHOGI, 1, 2);
        assertEquals(List.of("4e3d", "3a4b"), cut.get(0).moves());
        assertEquals(2, cut.size());
        assertEquals(
                List.of(Position.start(Variant.MINISHOGI).toSfen()),
                OpeningSuite.read(file, Variant.MINISHOGI, 2, -1).stream()
                        .map(Opening::sfen)
                        .toList());

        String cycle = "4e4d 2a2b 4d4e 2b2a ";
        Files.writeString(file, "startpos moves " + cycle.repeat(3).strip() + "\n");
        Opening repeated = OpeningSuite.read(file, Variant.MINISHOGI).get(0);
        assertEquals(
                Position.start(Variant.MINISHOGI).key(), repeated.position().key(), "back at the start");
    }

    private static Opening opening(String move) throws Exception {
        return Opening.of(Position.start(Variant.MINISHOGI), List.of(move));
    }

    private static List<String> openingsOf(List<GameAssignment> games) {
        return games.stream().map(g -> g.opening().toString()).collect(Collectors.toList());
    }

    @Test
    void eachSideGetsItsOwnMarginResolvedForItsOwnControl() {
        TournamentSpec byRule = spec(Format.MATCH, 2, 0, 1, 2, List.of(), false, 1);
        GameAssignment first = Schedule.plan(byRule).get(0);
        assertEquals(90, first.senteMarginMillis(), "byoyomi 0.1: nine tenths of it");
        assertEquals(90, first.goteMarginMillis());

        List<Entrant> entrants = List.of(
                new Entrant("quick", "fake", java.util.Map.of(), TimeControl.moveTime(1000), null),
                new Entrant("own", "fake", java.util.Map.of(), TC, OverrunMargin.of(7)));
        for (GameAssignment game : Schedule.plan(match(entrants, OverrunMargin.of(300)))) {
            assertEquals(game.sente().equals("own") ? 7 : 300, game.senteMarginMillis(), game.gameId());
            assertEquals(game.gote().equals("own") ? 7 : 300, game.goteMarginMillis(), game.gameId());
        }
        GameAssignment game =
                Schedule.plan(match(entrants, OverrunMargin.BY_RULE)).get(0);
        assertEquals(100, game.marginMillis(dev.taikai.rules.Color.SENTE), "movetime 1: the floor");
        assertEquals(7, game.marginMillis(dev.taikai.rules.Color.GOTE), "its own, whatever the rule");
    }

    private static TournamentSpec match(List<Entrant> entrants, OverrunMargin margin) {
        return new TournamentSpec(
                "t",
                Variant.MINISHOGI,
                Format.MATCH,
                entrants,
                0,
                1,
                2,
                List.of(),
                false,
                margin,
                Adjudication.DEFAULT,
                1,
                1,
                null);
    }
}
