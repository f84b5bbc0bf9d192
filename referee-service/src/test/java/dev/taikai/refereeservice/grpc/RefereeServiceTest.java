package dev.taikai.refereeservice.grpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.taikai.proto.referee.v1.GameEvent;
import dev.taikai.proto.referee.v1.GetGameRequest;
import dev.taikai.proto.referee.v1.ListGamesRequest;
import dev.taikai.proto.referee.v1.RefereeGrpc;
import dev.taikai.proto.referee.v1.WatchGameRequest;
import dev.taikai.referee.game.Adjudication;
import dev.taikai.referee.game.GameAssignment;
import dev.taikai.referee.game.Opening;
import dev.taikai.referee.game.Pairing;
import dev.taikai.referee.game.TimeControl;
import dev.taikai.refereeservice.live.LiveGames;
import dev.taikai.refereeservice.remote.InProcessWorker;
import dev.taikai.refereeservice.remote.RemoteGames;
import dev.taikai.refereeservice.remote.SessionPool;
import dev.taikai.refereeservice.remote.WorkerPool;
import dev.taikai.rules.Position;
import dev.taikai.rules.Variant;
import dev.taikai.testkit.Await;
import io.grpc.ManagedChannel;
import io.grpc.Server;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.inprocess.InProcessChannelBuilder;
import io.grpc.inprocess.InProcessServerBuilder;
import io.grpc.stub.StreamObserver;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Watching games live through the referee's gRPC service while a real worker plays them. */
class RefereeServiceTest {
    /** How long a game, or a step of watching it, may take on a loaded machine. */
    private static final Duration WITHIN = Duration.ofSeconds(60);

    /** How far past its time an engine may answer: this game is not about time, and load must not end it. */
    private static final long OVERRUN_MARGIN_MILLIS = 2_000;

    @Test
    void aWatcherSeesTheStartEveryMoveAndTheRecord() throws Exception {
        LiveGames live = new LiveGames(10);
        String name = InProcessServerBuilder.generateName();
        Server server = InProcessServerBuilder.forName(name)
                .addService(new RefereeService(live))
                .build()
                .start();
        ManagedChannel channel = InProcessChannelBuilder.forName(name).build();
        try (InProcessWorker worker = new InProcessWorker("w1", 2);
                WorkerPool workers = worker.pool();
                SessionPool sessions = new SessionPool(workers, 0, 1_000)) {
            GameAssignment game = new GameAssignment(
                    "r1-p1-g1",
                    1,
                    1,
                    1,
                    Variant.MINISHOGI,
                    "alice",
                    "bob",
                    Opening.start(Position.start(Variant.MINISHOGI)),
                    TimeControl.moveTime(150),
                    TimeControl.moveTime(150),
                    OVERRUN_MARGIN_MILLIS,
                    OVERRUN_MARGIN_MILLIS,
                    Adjudication.DEFAULT.withMoveLimit(12));
            Pairing pairing = new Pairing(
                    "t", game, new Pairing.Engine("fake", Map.of()), new Pairing.Engine("fake", Map.of()), 0);
            var observer = live.begin(pairing);
            CompletableFuture<dev.taikai.proto.common.v1.GameRecord> played =
                    CompletableFuture.supplyAsync(() -> new RemoteGames(sessions, 25, "ref").play(pairing, observer));

            var stub = RefereeGrpc.newBlockingStub(channel);
            // the watcher joins mid-game: it must get the moves so far too
            Await.until(
                    WITHIN,
                    "the game is in play with a move made",
                    () -> stub.listGames(ListGamesRequest.getDefaultInstance()).getGamesList().stream()
                            .anyMatch(g -> g.getPlies() >= 1),
                    () -> stub.listGames(ListGamesRequest.getDefaultInstance()));
            List<GameEvent> events = new CopyOnWriteArrayList<>();
            List<Throwable> failed = new CopyOnWriteArrayList<>();
            CountDownLatch ended = new CountDownLatch(1);
            RefereeGrpc.newStub(channel)
                    .watchGame(
                            WatchGameRequest.newBuilder()
                                    .setGameId("t/r1-p1-g1")
                                    .build(),
                            new StreamObserver<>() {
                                @Override
                                public void onNext(GameEvent event) {
                                    events.add(event);
                                }

                                @Override
                                public void onError(Throwable t) {
                                    failed.add(t);
                                    ended.countDown();
                                }

                                @Override
                                public void onCompleted() {
                                    ended.countDown();
                                }
                            });
            var record = played.get(WITHIN.toSeconds(), TimeUnit.SECONDS);
            live.finish(pairing, record);
            assertTrue(ended.await(WITHIN.toSeconds(), TimeUnit.SECONDS), "the watch ends with the game");
            assertEquals(List.of(), failed, "the watch ends without an error");

            assertTrue(events.get(0).hasStarted(), events.get(0).toString());
            assertEquals(
                    "t/r1-p1-g1", events.get(0).getStarted().getAssignment().getGameId());
            List<GameEvent> moves = events.stream().filter(GameEvent::hasMove).toList();
            assertEquals(record.getMovesCount(), moves.size(), "every move once, in order");
            for (int i = 0; i < moves.size(); i++) {
                assertEquals(i + 1, moves.get(i).getMove().getPly());
                assertEquals(
                        record.getMoves(i).getMove(),
                        moves.get(i).getMove().getMove().getMove());
            }
            assertEquals(record, events.get(events.size() - 1).getFinished());

            assertEquals(
                    record,
                    stub.getGame(
                            GetGameRequest.newBuilder().setGameId("t/r1-p1-g1").build()));
            StatusRuntimeException missing = org.junit.jupiter.api.Assertions.assertThrows(
                    StatusRuntimeException.class,
                    () -> stub.getGame(
                            GetGameRequest.newBuilder().setGameId("t/nope").build()));
            assertEquals(Status.Code.NOT_FOUND, missing.getStatus().getCode());
            var tooLong = org.junit.jupiter.api.Assertions.assertThrows(
                    StatusRuntimeException.class,
                    () -> stub.watchGame(WatchGameRequest.newBuilder()
                                    .setGameId("x".repeat(400))
                                    .build())
                            .hasNext());
            assertEquals(Status.Code.INVALID_ARGUMENT, tooLong.getStatus().getCode());
        } finally {
            channel.shutdownNow();
            server.shutdownNow();
        }
    }
}
