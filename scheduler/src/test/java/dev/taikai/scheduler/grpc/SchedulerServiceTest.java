package dev.taikai.scheduler.grpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.taikai.proto.scheduler.v1.CancelTournamentRequest;
import dev.taikai.proto.scheduler.v1.CreateTournamentRequest;
import dev.taikai.proto.scheduler.v1.GetGameRecordsRequest;
import dev.taikai.proto.scheduler.v1.GetStandingsRequest;
import dev.taikai.proto.scheduler.v1.GetTournamentRequest;
import dev.taikai.proto.scheduler.v1.ListTournamentsRequest;
import dev.taikai.proto.scheduler.v1.SchedulerGrpc;
import dev.taikai.proto.scheduler.v1.TournamentProgress;
import dev.taikai.proto.scheduler.v1.WatchTournamentRequest;
import dev.taikai.proto.tournament.v1.Format;
import dev.taikai.proto.tournament.v1.Status;
import dev.taikai.proto.tournament.v1.TournamentSpec;
import dev.taikai.proto.tournament.v1.TournamentState;
import dev.taikai.referee.game.Pairing;
import dev.taikai.rules.Result;
import dev.taikai.scheduler.book.Scheduler;
import dev.taikai.scheduler.book.TournamentBook;
import dev.taikai.scheduler.book.TournamentBookTest;
import io.grpc.ManagedChannel;
import io.grpc.Server;
import io.grpc.StatusRuntimeException;
import io.grpc.inprocess.InProcessChannelBuilder;
import io.grpc.inprocess.InProcessServerBuilder;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The scheduler's gRPC API over the in-process transport, with the book published to a list. */
class SchedulerServiceTest {
    private final TournamentBook book = new TournamentBook(16);
    private final List<Pairing> handedOut = new CopyOnWriteArrayList<>();
    private Server server;
    private ManagedChannel channel;
    private SchedulerGrpc.SchedulerBlockingStub stub;

    @BeforeEach
    void start() throws Exception {
        Scheduler scheduler = new Scheduler(book, new Scheduler.Publisher() {
            @Override
            public TournamentState create(String id, TournamentSpec spec) {
                book.create(id, spec, 1);
                handedOut.addAll(book.nextPairings(id));
                return book.state(id).orElseThrow();
            }

            @Override
            public Optional<TournamentState> cancel(String id, String reason) {
                return book.cancel(id, reason, 2);
            }

            @Override
            public boolean ready() {
                return true;
            }
        });
        String name = InProcessServerBuilder.generateName();
        server = InProcessServerBuilder.forName(name)
                .addService(new SchedulerService(scheduler))
                .build()
                .start();
        channel = InProcessChannelBuilder.forName(name).build();
        stub = SchedulerGrpc.newBlockingStub(channel);
    }

    @AfterEach
    void stop() {
        channel.shutdownNow();
        server.shutdownNow();
    }

    @Test
    void createWatchCountAndReadStandings() throws Exception {
        TournamentSpec spec = TournamentBookTest.spec(Format.FORMAT_MATCH, 2, 2, 8);
        TournamentState created = stub.createTournament(
                CreateTournamentRequest.newBuilder().setSpec(spec).build());
        assertTrue(created.getTournamentId().startsWith("book-test-"), created.getTournamentId());
        String id = created.getTournamentId();
        assertEquals(4, handedOut.size());

        List<TournamentProgress> progress = new ArrayList<>();
        CountDownLatch done = new CountDownLatch(1);
        SchedulerGrpc.newStub(channel)
                .watchTournament(
                        WatchTournamentRequest.newBuilder().setTournamentId(id).build(),
                        new io.grpc.stub.StreamObserver<>() {
                            @Override
                            public void onNext(TournamentProgress value) {
                                progress.add(value);
                            }

                            @Override
                            public void onError(Throwable t) {
                                done.countDown();
                            }

                            @Override
                            public void onCompleted() {
                                done.countDown();
                            }
                        });
        Thread.sleep(200);
        for (Pairing p : handedOut) {
            book.count(TournamentBookTest.record(p, Result.SENTE_WINS));
        }
        assertTrue(done.await(10, TimeUnit.SECONDS), "the watch ends when the tournament does");
        assertEquals(5, progress.size(), "the state at once, then one per counted game: " + progress);
        assertEquals(Status.STATUS_FINISHED, progress.get(4).getState().getStatus());
        assertTrue(progress.get(4).hasGame());

        assertEquals(
                4,
                stub.getStandings(GetStandingsRequest.newBuilder()
                                .setTournamentId(id)
                                .build())
                        .getGames());
        var page = stub.getGameRecords(GetGameRecordsRequest.newBuilder()
                .setTournamentId(id)
                .setOffset(1)
                .setLimit(2)
                .build());
        assertEquals(2, page.getRecordsCount());
        assertEquals(4, page.getTotal());
        assertEquals(
                1,
                stub.listTournaments(ListTournamentsRequest.getDefaultInstance())
                        .getTournamentsCount());
        assertEquals(
                Status.STATUS_FINISHED,
                stub.getTournament(GetTournamentRequest.newBuilder()
                                .setTournamentId(id)
                                .build())
                        .getStatus());
        assertEquals(
                Status.STATUS_FINISHED,
                stub.cancelTournament(CancelTournamentRequest.newBuilder()
                                .setTournamentId(id)
                                .build())
                        .getStatus(),
                "a finished tournament stays finished");
    }

    @Test
    void badRequestsGetClearStatuses() {
        StatusRuntimeException e = assertThrows(
                StatusRuntimeException.class,
                () -> stub.createTournament(CreateTournamentRequest.getDefaultInstance()));
        assertEquals(io.grpc.Status.Code.INVALID_ARGUMENT, e.getStatus().getCode());
        assertEquals("spec is missing", e.getStatus().getDescription());

        TournamentSpec negative = TournamentBookTest.spec(Format.FORMAT_MATCH, 2, 1, 1).toBuilder()
                .setTimeControl(dev.taikai.proto.common.v1.TimeControl.newBuilder()
                        .setKind(dev.taikai.proto.common.v1.TimeControl.Kind.KIND_BYOYOMI)
                        .setByoyomiMs(-5))
                .build();
        e = assertThrows(
                StatusRuntimeException.class,
                () -> stub.createTournament(
                        CreateTournamentRequest.newBuilder().setSpec(negative).build()));
        assertEquals(io.grpc.Status.Code.INVALID_ARGUMENT, e.getStatus().getCode());
        assertTrue(
                e.getStatus().getDescription().startsWith("time_control"),
                e.getStatus().getDescription());

        e = assertThrows(
                StatusRuntimeException.class,
                () -> stub.getTournament(GetTournamentRequest.newBuilder()
                        .setTournamentId("nope")
                        .build()));
        assertEquals(io.grpc.Status.Code.NOT_FOUND, e.getStatus().getCode());
        e = assertThrows(
                StatusRuntimeException.class,
                () -> stub.getGameRecords(GetGameRecordsRequest.newBuilder()
                        .setTournamentId("x")
                        .setLimit(5000)
                        .build()));
        assertEquals(io.grpc.Status.Code.INVALID_ARGUMENT, e.getStatus().getCode());
        e = assertThrows(
                StatusRuntimeException.class,
                () -> stub.cancelTournament(CancelTournamentRequest.newBuilder()
                        .setTournamentId("nope")
                        .build()));
        assertEquals(io.grpc.Status.Code.NOT_FOUND, e.getStatus().getCode());
    }
}
