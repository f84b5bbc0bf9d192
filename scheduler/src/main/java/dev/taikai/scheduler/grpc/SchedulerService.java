package dev.taikai.scheduler.grpc;

import dev.taikai.proto.common.v1.GameRecord;
import dev.taikai.proto.scheduler.v1.CancelTournamentRequest;
import dev.taikai.proto.scheduler.v1.CreateTournamentRequest;
import dev.taikai.proto.scheduler.v1.GetGameRecordsRequest;
import dev.taikai.proto.scheduler.v1.GetGameRecordsResponse;
import dev.taikai.proto.scheduler.v1.GetStandingsRequest;
import dev.taikai.proto.scheduler.v1.GetTournamentRequest;
import dev.taikai.proto.scheduler.v1.JoinLeagueRequest;
import dev.taikai.proto.scheduler.v1.LeaveLeagueRequest;
import dev.taikai.proto.scheduler.v1.ListTournamentsRequest;
import dev.taikai.proto.scheduler.v1.ListTournamentsResponse;
import dev.taikai.proto.scheduler.v1.SchedulerGrpc;
import dev.taikai.proto.scheduler.v1.TournamentProgress;
import dev.taikai.proto.scheduler.v1.WatchTournamentRequest;
import dev.taikai.proto.tournament.v1.Standings;
import dev.taikai.proto.tournament.v1.TournamentState;
import dev.taikai.scheduler.registry.Refusal;
import dev.taikai.scheduler.registry.Scheduler;
import dev.taikai.scheduler.registry.TournamentRegistry;
import io.grpc.Status;
import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.StreamObserver;
import java.util.Optional;
import java.util.function.Supplier;

/** The scheduler's gRPC face over {@link Scheduler}. */
public class SchedulerService extends SchedulerGrpc.SchedulerImplBase {
    private final Supplier<Scheduler> schedulers;

    public SchedulerService(Scheduler scheduler) {
        this(() -> scheduler);
    }

    /**
     * A service whose scheduler is made on first use: a scheduler that cannot be made (its catalog file
     * does not read) then fails to start where the application says why in one line, not inside the gRPC
     * server.
     */
    protected SchedulerService(Supplier<Scheduler> schedulers) {
        this.schedulers = schedulers;
    }

    private Scheduler scheduler() {
        return schedulers.get();
    }

    @Override
    public void createTournament(CreateTournamentRequest request, StreamObserver<TournamentState> response) {
        if (!request.hasSpec()) {
            response.onError(
                    Status.INVALID_ARGUMENT.withDescription("spec is missing").asRuntimeException());
            return;
        }
        try {
            reply(response, scheduler().create(request.getSpec()));
        } catch (Refusal refusal) {
            response.onError(status(refusal));
        }
    }

    @Override
    public void joinLeague(JoinLeagueRequest request, StreamObserver<TournamentState> response) {
        if (!request.hasEntrant()) {
            response.onError(Status.INVALID_ARGUMENT
                    .withDescription("entrant is missing")
                    .asRuntimeException());
            return;
        }
        changeLeague(
                response,
                request.getTournamentId(),
                () -> scheduler().joinLeague(request.getTournamentId(), request.getEntrant()));
    }

    @Override
    public void leaveLeague(LeaveLeagueRequest request, StreamObserver<TournamentState> response) {
        changeLeague(
                response,
                request.getTournamentId(),
                () -> scheduler().leaveLeague(request.getTournamentId(), request.getName()));
    }

    private static void changeLeague(
            StreamObserver<TournamentState> response,
            String id,
            java.util.function.Supplier<java.util.Optional<TournamentState>> change) {
        try {
            found(response, id, change.get());
        } catch (Refusal refusal) {
            response.onError(status(refusal));
        }
    }

    /** The one mapping of the scheduler's refusals to gRPC statuses (docs/distributed.md, "Refusals"). */
    static io.grpc.StatusRuntimeException status(Refusal refusal) {
        Status status = switch (refusal.reason()) {
            case INVALID -> Status.INVALID_ARGUMENT;
            case CONFLICT -> Status.ALREADY_EXISTS;
            case STOPPED -> Status.FAILED_PRECONDITION;
            case UNAVAILABLE -> Status.UNAVAILABLE;
        };
        return status.withDescription(refusal.getMessage()).asRuntimeException();
    }

    @Override
    public void listTournaments(ListTournamentsRequest request, StreamObserver<ListTournamentsResponse> response) {
        reply(
                response,
                ListTournamentsResponse.newBuilder()
                        .addAllTournaments(scheduler().book().states())
                        .build());
    }

    @Override
    public void getTournament(GetTournamentRequest request, StreamObserver<TournamentState> response) {
        found(response, request.getTournamentId(), scheduler().book().state(request.getTournamentId()));
    }

    @Override
    public void getStandings(GetStandingsRequest request, StreamObserver<Standings> response) {
        found(response, request.getTournamentId(), scheduler().book().standings(request.getTournamentId()));
    }

    @Override
    public void cancelTournament(CancelTournamentRequest request, StreamObserver<TournamentState> response) {
        try {
            found(
                    response,
                    request.getTournamentId(),
                    scheduler().cancel(request.getTournamentId(), request.getReason()));
        } catch (Refusal refusal) {
            response.onError(status(refusal));
        }
    }

    @Override
    public void getGameRecords(GetGameRecordsRequest request, StreamObserver<GetGameRecordsResponse> response) {
        if (request.getOffset() < 0 || request.getLimit() < 0 || request.getLimit() > 1000) {
            response.onError(Status.INVALID_ARGUMENT
                    .withDescription("offset must not be negative and limit must be 0 to 1000")
                    .asRuntimeException());
            return;
        }
        String id = request.getTournamentId();
        int limit = request.getLimit() == 0 ? 100 : request.getLimit();
        found(response, id, scheduler().book().records(id, request.getOffset(), limit));
    }

    @Override
    public void watchTournament(WatchTournamentRequest request, StreamObserver<TournamentProgress> response) {
        ServerCallStreamObserver<TournamentProgress> stream = (ServerCallStreamObserver<TournamentProgress>) response;
        String id = request.getTournamentId();
        // a caller that does not read keeps no queue here (gRPC would buffer every message for it): while
        // its stream is not ready, only the latest progress is kept, and sent once it reads again
        TournamentProgress[] latest = new TournamentProgress[1];
        stream.setOnReadyHandler(() -> {
            synchronized (stream) {
                if (latest[0] != null && stream.isReady() && !stream.isCancelled()) {
                    stream.onNext(latest[0]);
                    latest[0] = null;
                }
            }
        });
        TournamentRegistry.Watcher watcher = new TournamentRegistry.Watcher() {
            @Override
            public void progressed(TournamentState state, GameRecord game) {
                TournamentProgress.Builder progress =
                        TournamentProgress.newBuilder().setState(state);
                if (game != null) {
                    progress.setGame(game);
                }
                scheduler()
                        .book()
                        .leader(id)
                        .ifPresent(leader -> progress.setLeader(leader.getKey()).setLeaderPoints(leader.getValue()));
                synchronized (stream) {
                    if (stream.isCancelled()) {
                        return;
                    }
                    if (stream.isReady()) {
                        stream.onNext(progress.build());
                    } else {
                        latest[0] = progress.build();
                    }
                }
            }

            @Override
            public void stopped(TournamentState state) {
                synchronized (stream) {
                    if (!stream.isCancelled()) {
                        if (latest[0] != null) { // the last state: a stream's end waits for what is sent
                            stream.onNext(latest[0]);
                            latest[0] = null;
                        }
                        stream.onCompleted();
                    }
                }
            }
        };
        stream.setOnCancelHandler(() -> scheduler().book().unwatch(id, watcher));
        if (!scheduler().book().watch(id, watcher)) {
            notFound(response, id);
        }
    }

    private static <T> void reply(StreamObserver<T> response, T value) {
        response.onNext(value);
        response.onCompleted();
    }

    private static <T> void found(StreamObserver<T> response, String id, Optional<T> value) {
        if (value.isPresent()) {
            reply(response, value.get());
        } else {
            notFound(response, id);
        }
    }

    private static void notFound(StreamObserver<?> response, String id) {
        response.onError(Status.NOT_FOUND
                .withDescription("no tournament '" + (id.length() > 100 ? id.substring(0, 100) + "..." : id) + "'")
                .asRuntimeException());
    }
}
