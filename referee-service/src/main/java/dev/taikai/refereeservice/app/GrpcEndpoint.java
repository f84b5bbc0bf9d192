package dev.taikai.refereeservice.app;

import dev.taikai.refereeservice.grpc.RefereeService;
import dev.taikai.refereeservice.live.LiveGames;
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
