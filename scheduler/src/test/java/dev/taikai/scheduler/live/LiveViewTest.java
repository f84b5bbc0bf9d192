package dev.taikai.scheduler.live;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.taikai.proto.common.v1.GameAssignment;
import dev.taikai.proto.common.v1.MoveRecord;
import dev.taikai.proto.common.v1.PlayerAssignment;
import dev.taikai.proto.common.v1.Variant;
import dev.taikai.proto.events.v1.LiveEvent;
import dev.taikai.proto.referee.v1.GameEvent;
import dev.taikai.proto.referee.v1.GameStarted;
import dev.taikai.proto.referee.v1.MovePlayed;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class LiveViewTest {
    private static final String GAME = "t1/1";

    /** Records what it is told; answers as a stream that has (or has not) sent its previous change. */
    private static final class Watcher implements LiveView.Subscriber {
        final List<String> told = new ArrayList<>();
        boolean stillUnsent;

        @Override
        public boolean changed(String key) {
            told.add(key);
            return !stillUnsent;
        }
    }

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

    @Test
    void aBatchIsOneChangeAGameAndTheMovesItMergesAreCountedAsDropped() {
        LiveView view = new LiveView();
        Watcher first = new Watcher();
        Watcher second = new Watcher();
        view.subscribe(first);
        view.subscribe(second);

        view.acceptAll(List.of(started(), move(1, "5d5c"), move(2, "1b1c"), move(3, "5c5b")));

        assertEquals(List.of(GAME), first.told, "told once of the game, not once a move");
        assertEquals(List.of(GAME), second.told);
        assertEquals(4, view.events());
        assertEquals(2 * 3, view.dropped(), "each watcher never sees 3 of the 4 states");
        var state = view.game(GAME).orElseThrow();
        assertEquals(3, state.ply());
        assertEquals("5c5b", state.lastMove());
        assertEquals(4997, state.senteRemainingMs());
        assertEquals(5997, state.goteRemainingMs());
        assertEquals(1003, state.publishedUnixMs());
        assertEquals(3, state.senteInfo().depth(), "the last sente move's telemetry");
        assertEquals(2, state.goteInfo().depth());
    }

    @Test
    void aChangeAWatcherStillHadUnsentIsCountedAsDropped() {
        LiveView view = new LiveView();
        Watcher slow = new Watcher();
        view.subscribe(slow);
        view.accept(started());
        slow.stillUnsent = true;

        view.accept(move(1, "5d5c"));

        assertEquals(List.of(GAME, GAME), slow.told);
        assertEquals(1, view.dropped());
    }

    @Test
    void aMoveSeenAlreadyOrAfterAGapChangesNothing() {
        LiveView view = new LiveView();
        view.acceptAll(List.of(started(), move(1, "5d5c")));
        long version = view.version(GAME);
        Watcher watcher = new Watcher();
        view.subscribe(watcher);

        view.acceptAll(List.of(move(1, "5d5c"), move(3, "5c5b")));

        assertEquals(List.of(), watcher.told);
        assertEquals(version, view.version(GAME));
        assertEquals(1, view.game(GAME).orElseThrow().ply());
        assertEquals(4, view.events());
        assertEquals(0, view.dropped());
    }
}
