package dev.taikai.refereeservice.remote;

import dev.taikai.enginehost.messages.CommonMessages;
import dev.taikai.enginehost.messages.WorkerMessages;
import dev.taikai.enginehost.session.EngineFailure;
import dev.taikai.enginehost.session.EngineSession;
import dev.taikai.enginehost.session.GameEnd;
import dev.taikai.enginehost.session.GameLog;
import dev.taikai.enginehost.session.MoveReply;
import dev.taikai.enginehost.session.PipeLog;
import dev.taikai.enginehost.session.PositionCommand;
import dev.taikai.enginehost.session.SearchLimits;
import dev.taikai.proto.worker.v1.EngineWorkerGrpc;
import dev.taikai.proto.worker.v1.GameOver;
import dev.taikai.proto.worker.v1.NewGame;
import dev.taikai.proto.worker.v1.SessionEvent;
import dev.taikai.proto.worker.v1.SessionRequest;
import dev.taikai.proto.worker.v1.StartEngine;
import dev.taikai.referee.game.Pairing;
import dev.taikai.rules.Notation;
import dev.taikai.rules.Variant;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.stub.ClientCallStreamObserver;
import io.grpc.stub.ClientResponseObserver;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * An engine session on a remote worker, over the worker's bidirectional session stream. Each call sends
 * one request and waits for its answer. An engine's own failure (crash, stall, protocol error, measured
 * on the worker) comes back as an {@link EngineFailure}; a worker that breaks the stream or stops
 * answering raises {@link WorkerLost}.
 */
public final class RemoteSession implements EngineSession {
    /** Time past an engine's own deadline (which the worker enforces) before the worker counts as lost. */
    static final long WORKER_GRACE_MILLIS = 5_000;
    /**
     * Time for the worker to start an engine and have it ready: its turn at the worker's start gate (at most
     * 20 s), then up to two tries (a second on a busy host) of a handshake (10 s, plus up to 10 s the engine
     * waited for a CPU) and a readyok (10 s): 80 s at the most, by the worker's own deadlines.
     */
    static final long START_MILLIS = 90_000;
    /** The worker's own deadline for readyok and for untimed searches, as its defaults set them. */
    static final long READY_MILLIS = 10_000;

    static final long UNBOUNDED_SEARCH_MILLIS = 60_000;
    static final long MOVE_MARGIN_MILLIS = 1_000;

    private static final Object END = new Object();

    /** The worker's address until it names itself in {@code started}. */
    private volatile String workerId;

    private final String engineId;
    private final boolean logsPipes;
    /** The engine's log lines the worker sent since the last {@link #takeLog}. */
    private final List<PipeLog.Entry> log = new ArrayList<>();

    private final LinkedBlockingQueue<Object> answers = new LinkedBlockingQueue<>();
    private volatile ClientCallStreamObserver<SessionRequest> requests;
    private Notation notation = Notation.FAIRY_STOCKFISH;
    private String engineName = "";
    private long nextRequest = 1;
    private volatile EngineFailure failure;
    private volatile boolean closed;
    /** The worker ended the stream (it failed, or its worker drains or died). */
    private volatile boolean ended;
    /** A game_over was acknowledged: the worker parks the session between games. */
    private volatile boolean playedBefore;

    private RemoteSession(String workerId, String engineId, boolean logsPipes) {
        this.workerId = workerId;
        this.engineId = engineId;
        this.logsPipes = logsPipes;
    }

    /** A started session, or the engine's failure to start: exactly one is set. */
    public record Opened(RemoteSession session, EngineFailure failure) {}

    /**
     * Opens a session on the worker behind {@code channel} and starts {@code engine} for {@code variant};
     * with {@code logPipes} the worker keeps the engine's log and sends each game's lines at its end.
     *
     * @throws WorkerLost when the worker refuses (no capacity, unknown engine, draining) or cannot be reached
     */
    public static Opened open(
            ManagedChannel channel, String address, Pairing.Engine engine, Variant variant, boolean logPipes) {
        RemoteSession session = new RemoteSession(address, engine.engineId(), logPipes);
        EngineWorkerGrpc.newStub(channel).session(session.new Answers());
        SessionEvent started = session.call(
                SessionRequest.newBuilder()
                        .setStart(StartEngine.newBuilder()
                                .setEngineId(engine.engineId())
                                .putAllOptions(engine.options())
                                .setVariant(CommonMessages.toProto(variant))
                                .setLogPipes(logPipes)),
                START_MILLIS);
        if (started.hasFailure()) {
            return new Opened(null, session.failure);
        }
        if (!started.hasStarted()) {
            session.close();
            throw new WorkerLost("worker " + address + " answered start with " + started.getEventCase());
        }
        session.notation = Notation.byId(started.getStarted().getNotation()).orElse(Notation.FAIRY_STOCKFISH);
        if (!started.getStarted().getWorkerId().isEmpty()) {
            session.workerId = started.getStarted().getWorkerId();
        }
        session.engineName = started.getStarted().getName();
        return new Opened(session, null);
    }

    /** The id the worker gave itself (its address before it answered). */
    public String workerId() {
        return workerId;
    }

    public String engineId() {
        return engineId;
    }

    /** Whether the worker keeps this session's engine log. */
    public boolean logsPipes() {
        return logsPipes;
    }

    /**
     * The engine's lines since the last take, as the worker sent them at the game's end (or with the
     * failure that ended the session), with a failed engine's standard error tail as notes.
     */
    public synchronized List<PipeLog.Entry> takeLog() {
        List<PipeLog.Entry> taken = new ArrayList<>(log);
        log.clear();
        return taken;
    }

    /** The engine's {@code id name}. */
    public String engineName() {
        return engineName;
    }

    @Override
    public Notation notation() {
        return notation;
    }

    @Override
    public Optional<EngineFailure> newGame() {
        if (failure != null) {
            return Optional.of(failure);
        }
        SessionEvent answer = call(SessionRequest.newBuilder().setNewGame(NewGame.getDefaultInstance()), READY_MILLIS);
        return answer.hasFailure() ? Optional.of(failure) : Optional.empty();
    }

    @Override
    public MoveReply go(PositionCommand position, SearchLimits limits) {
        if (failure != null) {
            return failure;
        }
        long allowed = limits.allowedMillis(position.sideToMove());
        long wait = (allowed < 0 ? UNBOUNDED_SEARCH_MILLIS : allowed + limits.graceMillis() + MOVE_MARGIN_MILLIS);
        SessionEvent answer = call(SessionRequest.newBuilder().setGo(WorkerMessages.go(position, limits)), wait);
        if (answer.hasFailure()) {
            return failure;
        }
        if (!answer.hasBestMove()) {
            throw lost("answered go with " + answer.getEventCase());
        }
        try {
            return WorkerMessages.fromProto(answer.getBestMove());
        } catch (IllegalArgumentException e) {
            throw lost("sent a malformed best_move: " + e.getMessage());
        }
    }

    @Override
    public Optional<EngineFailure> gameOver(GameEnd end) {
        if (failure != null) {
            return Optional.of(failure);
        }
        SessionEvent answer = call(
                SessionRequest.newBuilder().setGameOver(GameOver.newBuilder().setEnd(WorkerMessages.toProto(end))),
                READY_MILLIS);
        synchronized (this) {
            log.addAll(WorkerMessages.log(answer.getAcknowledged().getLogList()));
        }
        if (answer.getAcknowledged().getSessionEnds()) {
            ended = true; // the worker drains: this session will not play another game
        } else if (answer.hasAcknowledged()) {
            playedBefore = true;
        }
        return answer.hasFailure() ? Optional.of(failure) : Optional.empty();
    }

    @Override
    public Optional<EngineFailure> failure() {
        return Optional.ofNullable(failure);
    }

    /**
     * True once a game of this session has ended: its worker then counts its slot as free while it waits
     * for the next game, and may end it to give the slot to a new session.
     */
    public boolean playedBefore() {
        return playedBefore;
    }

    /** True while the session can play another game: open on both sides, its engine healthy. */
    public boolean usable() {
        return !closed && !ended && failure == null;
    }

    /** Ends the stream; the worker kills the engine and frees its slot. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        ClientCallStreamObserver<SessionRequest> stream = requests;
        if (stream != null) {
            try {
                stream.onCompleted();
            } catch (IllegalStateException e) {
                // the call has already ended
            }
        }
    }

    /** Breaks the stream at once (the game is being abandoned); the worker kills the engine. */
    public void cancel(String why) {
        closed = true;
        ClientCallStreamObserver<SessionRequest> stream = requests;
        if (stream != null) {
            stream.cancel(why, null);
        }
    }

    /**
     * Sends one request and waits up to {@code engineMillis} plus {@link #WORKER_GRACE_MILLIS} for its
     * answer. A failure event marks the session failed and is returned like any answer.
     */
    private SessionEvent call(SessionRequest.Builder request, long engineMillis) {
        if (closed) {
            throw new IllegalStateException("session on worker " + workerId + " is closed");
        }
        long id = nextRequest++;
        synchronized (this) {
            requests.onNext(request.setRequestId(id).build());
        }
        Object answer;
        try {
            answer = answers.poll(engineMillis + WORKER_GRACE_MILLIS, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            cancel("interrupted");
            throw new WorkerLost("interrupted while waiting for worker " + workerId, e);
        }
        if (answer == null) {
            cancel("no answer");
            throw lost("did not answer within " + (engineMillis + WORKER_GRACE_MILLIS) + " ms");
        }
        if (answer instanceof Throwable t) {
            throw lost("broke the session: " + Status.fromThrowable(t), t);
        }
        if (answer == END) {
            throw lost("ended the session unasked");
        }
        SessionEvent event = (SessionEvent) answer;
        if (event.getRequestId() != id) {
            cancel("answer out of order");
            throw lost("answered request " + event.getRequestId() + " when " + id + " was asked");
        }
        if (event.hasFailure()) {
            failure = WorkerMessages.fromProto(event.getFailure());
            synchronized (this) {
                log.addAll(WorkerMessages.log(event.getFailure().getLogList()));
                log.addAll(GameLog.stderrNotes(failure.stderrTail()));
            }
        }
        return event;
    }

    private WorkerLost lost(String what) {
        return new WorkerLost("worker " + workerId + " (engine " + engineId + ") " + what);
    }

    private WorkerLost lost(String what, Throwable cause) {
        return new WorkerLost("worker " + workerId + " (engine " + engineId + ") " + what, cause);
    }

    /** Receives the worker's events on gRPC's threads and queues them for the caller. */
    private final class Answers implements ClientResponseObserver<SessionRequest, SessionEvent> {
        @Override
        public void beforeStart(ClientCallStreamObserver<SessionRequest> stream) {
            requests = stream;
        }

        @Override
        public void onNext(SessionEvent event) {
            answers.add(event);
        }

        @Override
        public void onError(Throwable t) {
            ended = true;
            answers.add(t);
        }

        @Override
        public void onCompleted() {
            ended = true;
            answers.add(END);
        }
    }
}
