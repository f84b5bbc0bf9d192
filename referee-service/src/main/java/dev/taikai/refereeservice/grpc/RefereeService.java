package dev.taikai.refereeservice.grpc;

import dev.taikai.proto.common.v1.GameRecord;
import dev.taikai.proto.referee.v1.GameEvent;
import dev.taikai.proto.referee.v1.GetGameRequest;
import dev.taikai.proto.referee.v1.ListGamesRequest;
import dev.taikai.proto.referee.v1.ListGamesResponse;
import dev.taikai.proto.referee.v1.RefereeGrpc;
import dev.taikai.proto.referee.v1.WatchGameRequest;
import dev.taikai.refereeservice.live.LiveGames;
import io.grpc.Status;
import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.StreamObserver;

/** The referee's gRPC face over its {@link LiveGames}: list, watch and fetch games. */
public class RefereeService extends RefereeGrpc.RefereeImplBase {
    private final LiveGames games;

    public RefereeService(LiveGames games) {
        this.games = games;
    }

    @Override
    public void listGames(ListGamesRequest request, StreamObserver<ListGamesResponse> response) {
        response.onNext(
                ListGamesResponse.newBuilder().addAllGames(games.playing()).build());
        response.onCompleted();
    }

    @Override
    public void watchGame(WatchGameRequest request, StreamObserver<GameEvent> response) {
        String gameId = request.getGameId();
        if (gameId.isEmpty() || gameId.length() > 300) {
            response.onError(Status.INVALID_ARGUMENT
                    .withDescription("game_id must be 1 to 300 characters")
                    .asRuntimeException());
            return;
        }
        ServerCallStreamObserver<GameEvent> stream = (ServerCallStreamObserver<GameEvent>) response;
        LiveGames.Watcher watcher = new LiveGames.Watcher() {
            @Override
            public void event(GameEvent event) {
                synchronized (stream) {
                    if (!stream.isCancelled()) {
                        stream.onNext(event);
                    }
                }
            }

            @Override
            public void end() {
                synchronized (stream) {
                    if (!stream.isCancelled()) {
                        stream.onCompleted();
                    }
                }
            }
        };
        stream.setOnCancelHandler(() -> games.unwatch(gameId, watcher));
        if (!games.watch(gameId, watcher)) {
            response.onError(Status.NOT_FOUND
                    .withDescription("game '" + gameId + "' is not played or kept by this referee")
                    .asRuntimeException());
        }
    }

    @Override
    public void getGame(GetGameRequest request, StreamObserver<GameRecord> response) {
        games.finished(request.getGameId())
                .ifPresentOrElse(
                        record -> {
                            response.onNext(record);
                            response.onCompleted();
                        },
                        () -> response.onError(Status.NOT_FOUND
                                .withDescription("game '" + request.getGameId() + "' is not kept by this referee")
                                .asRuntimeException()));
    }
}
