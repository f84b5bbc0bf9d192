package dev.taikai.engineworker.grpc;

import dev.taikai.enginehost.host.EngineHost;
import dev.taikai.enginehost.host.HostedSession;
import dev.taikai.enginehost.messages.CommonMessages;
import dev.taikai.enginehost.messages.WorkerMessages;
import dev.taikai.enginehost.session.BestMove;
import dev.taikai.enginehost.session.EngineFailure;
import dev.taikai.enginehost.session.MoveReply;
import dev.taikai.proto.worker.v1.Acknowledged;
import dev.taikai.proto.worker.v1.EngineStarted;
import dev.taikai.proto.worker.v1.Ready;
import dev.taikai.proto.worker.v1.SessionEvent;
import dev.taikai.proto.worker.v1.SessionRequest;
import dev.taikai.proto.worker.v1.StartEngine;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.StreamObserver;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * One session stream: requests are carried out one after another on the session's own thread (a
 * {@code go} blocks until the engine answers), answers sent as they come. The engine dies with the
 * stream: when the caller completes, cancels or breaks it, when the engine fails, or on a malformed
 * request (the stream then ends with INVALID_ARGUMENT saying which field).
 */
final class SessionStream implements StreamObserver<SessionRequest> {
    private static final Logger LOG = Logger.getLogger(SessionStream.class.getName());

    private final EngineHost host;
    private final ServerCallStreamObserver<SessionEvent> events;
    private final ExecutorService thread;
    private volatile HostedSession session;
    private volatile boolean ended;
    /** Between new_game and game_over; a draining worker ends sessions that are not. */
    private volatile boolean inGame;
    /** After a game_over: the host may take the slot for a new session, and then this one ends. */
    private boolean parked;

    private volatile Runnable stopWatchingDrain;

    SessionStream(EngineHost host, ServerCallStreamObserver<SessionEvent> events) {
        this.host = host;
        this.events = events;
        this.thread = Executors.newSingleThreadExecutor(runnable -> {
            Thread t = new Thread(runnable, "worker-session");
            t.setDaemon(true);
            return t;
        });
        stopWatchingDrain = host.onDrain(() -> run(this::endIfIdle));
        events.setOnCancelHandler(this::release);
    }

    /** Runs {@code step} on the session's thread, after the requests before it; nothing once it has ended. */
    private void run(Runnable step) {
        try {
            thread.execute(step);
        } catch (RejectedExecutionException e) {
            // the session has already ended
        }
    }

    /** On a draining worker: ends the session unless a game is in play (that one ends at its game_over). */
    private void endIfIdle() {
        if (!inGame && !ended) {
            release();
            finish(Status.UNAVAILABLE
                    .withDescription("worker " + host.workerId() + " is shutting down")
                    .asRuntimeException());
        }
    }

    /** A parked session whose slot a new session takes: ends, and the referee takes a new one next time. */
    private void giveUpSlot() {
        if (!ended) {
            release();
            finish(Status.UNAVAILABLE
                    .withDescription("worker " + host.workerId() + " gave the slot of this idle session to a new one")
                    .asRuntimeException());
        }
    }

    @Override
    public void onNext(SessionRequest request) {
        run(() -> handle(request));
    }

    @Override
    public void onError(Throwable t) {
        release();
    }

    @Override
    public void onCompleted() {
        try {
            thread.execute(() -> {
                release();
                finish(null);
            });
        } catch (RejectedExecutionException e) {
            release();
        }
    }

    private void handle(SessionRequest request) {
        if (ended) {
            return;
        }
        try {
            switch (request.getCommandCase()) {
                case START -> start(request.getRequestId(), request.getStart());
                case NEW_GAME -> {
                    if (parked && !host.unpark(started("new_game"))) {
                        return; // its slot went to a new session just now: giveUpSlot ends this one next
                    }
                    parked = false;
                    inGame = true;
                    Optional<EngineFailure> failure = started("new_game").newGame();
                    if (failure.isPresent()) {
                        fail(request.getRequestId(), failure.get());
                    } else {
                        send(SessionEvent.newBuilder()
                                .setRequestId(request.getRequestId())
                                .setReady(Ready.getDefaultInstance()));
                    }
                }
                case GO -> {
                    HostedSession engine = started("go");
                    MoveReply reply = engine.go(
                            WorkerMessages.position(request.getGo()),
                            WorkerMessages.fromProto(request.getGo().getLimits()));
                    if (reply instanceof EngineFailure failure) {
                        fail(request.getRequestId(), failure);
                    } else {
                        send(SessionEvent.newBuilder()
                                .setRequestId(request.getRequestId())
                                .setBestMove(WorkerMessages.toProto((BestMove) reply)));
                    }
                }
                case GAME_OVER -> {
                    HostedSession engine = started("game_over");
                    engine.gameOver(
                            WorkerMessages.fromProto(request.getGameOver().getEnd()));
                    // parked before the answer: a caller told the game is over finds the slot free
                    boolean ends = host.draining();
                    inGame = false;
                    if (!ends) {
                        parked = true;
                        host.park(session, () -> run(this::giveUpSlot));
                    }
                    send(SessionEvent.newBuilder()
                            .setRequestId(request.getRequestId())
                            .setAcknowledged(Acknowledged.newBuilder()
                                    .setSessionEnds(ends)
                                    .addAllLog(WorkerMessages.toProto(engine.takeLog()))));
                    if (ends) {
                        endIfIdle();
                    }
                }
                default -> throw new IllegalArgumentException("request " + request.getRequestId() + " has no command");
            }
        } catch (IllegalArgumentException e) {
            release();
            finish(Status.INVALID_ARGUMENT.withDescription(e.getMessage()).asRuntimeException());
        } catch (EngineHost.Refused e) {
            release();
            Status status = switch (e.reason()) {
                case NO_SUCH_ENGINE -> Status.INVALID_ARGUMENT;
                case NO_CAPACITY -> Status.RESOURCE_EXHAUSTED;
                case DRAINING -> Status.UNAVAILABLE;
            };
            finish(status.withDescription(e.getMessage()).asRuntimeException());
        } catch (java.util.concurrent.CancellationException e) {
            release(); // the session was closed while its engine thought: nobody waits for the answer
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "session request failed", e);
            release();
            finish(Status.INTERNAL.withDescription(e.toString()).asRuntimeException());
        }
    }

    private void start(long requestId, StartEngine start) throws EngineHost.Refused {
        if (session != null) {
            throw new IllegalArgumentException("start: this session already runs engine '" + session.engineId() + "'");
        }
        if (start.getEngineId().isEmpty()) {
            throw new IllegalArgumentException("start.engine_id is empty");
        }
        EngineHost.Started started = host.start(
                start.getEngineId(),
                start.getOptionsMap(),
                CommonMessages.variant(start.getVariant()),
                start.getLogPipes());
        if (started.failure() != null) {
            fail(requestId, started.failure()); // its standard error tail travels in the failure
            return;
        }
        session = started.session();
        if (ended) { // the caller went away while the engine started
            session.close();
            return;
        }
        var identity = session.engine().identity();
        send(SessionEvent.newBuilder()
                .setRequestId(requestId)
                .setStarted(EngineStarted.newBuilder()
                        .setName(identity.name())
                        .setAuthor(identity.author())
                        .setNotation(session.engine().notation().id())
                        .setWorkerId(host.workerId())
                        .addAllWarnings(session.engine().warnings())));
    }

    private HostedSession started(String command) {
        HostedSession current = session;
        if (current == null) {
            throw new IllegalArgumentException(command + ": the session has no engine yet; send start first");
        }
        return current;
    }

    /** Reports the engine's failure, with the game's log when the session keeps one, and ends the session. */
    private void fail(long requestId, EngineFailure failure) {
        var message = WorkerMessages.toProto(failure).toBuilder();
        HostedSession current = session;
        if (current != null) {
            current.engine().pipeLog().ifPresent(log -> message.addAllLog(WorkerMessages.toProto(log.take())));
        }
        send(SessionEvent.newBuilder().setRequestId(requestId).setFailure(message));
        release();
        finish(null);
    }

    private void send(SessionEvent.Builder event) {
        synchronized (events) {
            if (!ended && !events.isCancelled()) {
                events.onNext(event.build());
            }
        }
    }

    /** Ends the response stream once: completed, or with {@code error}. */
    private void finish(StatusRuntimeException error) {
        synchronized (events) {
            if (events.isCancelled()) {
                return;
            }
            try {
                if (error == null) {
                    events.onCompleted();
                } else {
                    events.onError(error);
                }
            } catch (IllegalStateException e) {
                // already ended
            }
        }
    }

    /** Kills the engine and frees its slot; no request is carried out after this. */
    private void release() {
        ended = true;
        Runnable stopWatching = stopWatchingDrain;
        if (stopWatching != null) {
            stopWatching.run();
        }
        HostedSession current = session;
        if (current != null) {
            current.close();
        }
        thread.shutdown();
    }
}
