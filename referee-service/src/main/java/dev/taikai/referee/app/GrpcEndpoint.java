package dev.taikai.referee.app;

import dev.taikai.referee.grpc.RefereeService;
import dev.taikai.referee.live.LiveGames;
import io.quarkus.grpc.GrpcService;
import jakarta.inject.Inject;

/** Serves {@link RefereeService} on the Quarkus gRPC server. */
@GrpcService
public class GrpcEndpoint extends RefereeService {
    @Inject
    public GrpcEndpoint(LiveGames games) {
        super(games);
    }
}
