package dev.taikai.scheduler.live;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.taikai.proto.common.v1.GameAssignment;
import dev.taikai.proto.common.v1.MoveRecord;
import dev.taikai.proto.common.v1.PlayerAssignment;
import dev.taikai.proto.common.v1.Variant;
import dev.taikai.proto.events.v1.LiveEvent;
import dev.taikai.proto.events.v1.RefereeStatus;
import dev.taikai.proto.referee.v1.GameEvent;
import dev.taikai.proto.referee.v1.GameStarted;
import dev.taikai.proto.referee.v1.MovePlayed;
import java.util.List;
import org.junit.jupiter.api.Test;

class LiveViewTest {
    private static final String GAME = "t1/1";

    private static LiveEvent started() {
        var assignment = GameAssignment.newBuilder()
                .setVariant(Variant.VARIANT_MINISHOGI)
                .setSente(PlayerAssignment.newBuilder().setName("a"))
                .setGote(PlayerAssignment.newBuilder().setName("b"));
        return LiveEvent.newBuilder()
                .setGameId(GAME)
                .setGame(GameEvent.newBuilder()
                        .setStarted(GameStarted.newBuilder()
                                .setAssignment(assignment)
                                .setStartSfen("rbsgk/4p/5/P4/KGSBR b - 1")))
                .build();
    }

    private static LiveEvent move(int ply, String usi) {
        return LiveEvent.newBuilder()
                .setGameId(GAME)
                .setPublishedUnixMs(1000 + ply)
                .setGame(GameEvent.newBuilder()
                        .setMove(MovePlayed.newBuilder()
                                .setPly(ply)
                                .setMove(MoveRecord.newBuilder().setMove(usi).setDepth(ply))
                                .setSenteRemainingMs(5000 - ply)
                                .setGoteRemainingMs(6000 - ply)))
                .build();
    }

    private static LiveEvent status(String referee) {
        return LiveEvent.newBuilder()
                .setRefereeId(referee)
                .setStatus(RefereeStatus.newBuilder().setGamesInPlay(1))
                .build();
    }

    @Test
    void everyChangeIsNumberedAndAWatcherAsksWhatChangedSinceTheNumberItSaw() {
        LiveView view = new LiveView();
        assertEquals(new LiveView.Changes(0, List.of()), view.changedSince(0));

        view.acceptAll(List.of(started(), move(1, "5d5c"), move(2, "1b1c"), move(3, "5c5b")));

        assertEquals(4, view.version(), "started and three moves");
        assertEquals(4, view.events());
        assertEquals(new LiveView.Changes(4, List.of(GAME)), view.changedSince(0), "the game once");
        assertEquals(new LiveView.Changes(4, List.of()), view.changedSince(4));
        var state = view.game(GAME).orElseThrow();
        assertEquals(3, state.ply());
        assertEquals("5c5b", state.lastMove());
        assertEquals(4997, state.senteRemainingMs());
        assertEquals(5997, state.goteRemainingMs());
        assertEquals(1003, state.publishedUnixMs());
        assertEquals(3, state.senteInfo().depth(), "the last sente move's telemetry");
        assertEquals(2, state.goteInfo().depth());

        view.acceptAll(List.of(status("referee-1")));

        assertEquals(new LiveView.Changes(5, List.of("referee:referee-1")), view.changedSince(4));
        assertEquals(
                new LiveView.Changes(5, List.of("referee:referee-1", GAME)), view.changedSince(0), "referees first");
        assertTrue(view.shows("referee:referee-1"));
        assertTrue(view.shows(GAME));
        assertFalse(view.shows("t1/2"));
    }

    @Test
    void aStartedGameHasItsMainTimesAndASideWithoutAClockNone() {
        var fischer = dev.taikai.proto.common.v1.TimeControl.newBuilder()
                .setKind(dev.taikai.proto.common.v1.TimeControl.Kind.KIND_FISCHER)
                .setMainMs(30_000)
                .setIncrementMs(500);
        var nodes = dev.taikai.proto.common.v1.TimeControl.newBuilder()
                .setKind(dev.taikai.proto.common.v1.TimeControl.Kind.KIND_NODES)
                .setNodes(1000);
        var assignment = GameAssignment.newBuilder()
                .setVariant(Variant.VARIANT_MINISHOGI)
                .setSente(PlayerAssignment.newBuilder().setName("a").setTimeControl(fischer))
                .setGote(PlayerAssignment.newBuilder().setName("b").setTimeControl(nodes));
        LiveView view = new LiveView();
        view.acceptAll(List.of(LiveEvent.newBuilder()
                .setGameId(GAME)
                .setGame(GameEvent.newBuilder()
                        .setStarted(GameStarted.newBuilder()
                                .setAssignment(assignment)
                                .setStartSfen("rbsgk/4p/5/P4/KGSBR b - 1")))
                .build()));

        var state = view.game(GAME).orElseThrow();
        assertEquals(30_000, state.senteRemainingMs(), "the main time before the first move");
        assertEquals(LiveView.NO_CLOCK, state.goteRemainingMs(), "nodes: no clock");

        view.acceptAll(List.of(move(1, "5d5c"), move(2, "1b1c")));

        state = view.game(GAME).orElseThrow();
        assertEquals(4998, state.senteRemainingMs(), "as the move tells");
        assertEquals(LiveView.NO_CLOCK, state.goteRemainingMs(), "still none");
    }

    @Test
    void aMoveSeenAlreadyOrAfterAGapChangesNothing() {
        LiveView view = new LiveView();
        view.acceptAll(List.of(started(), move(1, "5d5c")));
        long version = view.version();

        view.acceptAll(List.of(move(1, "5d5c"), move(3, "5c5b")));

        assertEquals(version, view.version());
        assertEquals(List.of(), view.changedSince(version).keys());
        assertEquals(1, view.game(GAME).orElseThrow().ply());
        assertEquals(4, view.events(), "taken, though they changed nothing");
    }

    @Test
    void watchersAndTheUpdatesTheyMergedAreCounted() {
        LiveView view = new LiveView();
        view.watching(true);
        view.watching(true);
        view.watching(false);
        view.merged(3);
        view.merged(2);

        assertEquals(1, view.subscribers());
        assertEquals(5, view.dropped());
    }
}
