package dev.taikai.engineworker.grpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.taikai.enginehost.catalog.Catalog;
import dev.taikai.enginehost.catalog.EngineSpec;
import dev.taikai.enginehost.host.EngineHost;
import dev.taikai.enginehost.host.HostListener;
import dev.taikai.enginehost.session.Timeouts;
import dev.taikai.enginehost.usi.UsiEngine;
import dev.taikai.proto.common.v1.Variant;
import dev.taikai.proto.worker.v1.Capacity;
import dev.taikai.proto.worker.v1.EngineFailure;
import dev.taikai.proto.worker.v1.EngineWorkerGrpc;
import dev.taikai.proto.worker.v1.GameOver;
import dev.taikai.proto.worker.v1.GetCapacityRequest;
import dev.taikai.proto.worker.v1.GetCatalogRequest;
import dev.taikai.proto.worker.v1.Go;
import dev.taikai.proto.worker.v1.NewGame;
import dev.taikai.proto.worker.v1.SearchLimits;
import dev.taikai.proto.worker.v1.SessionEvent;
import dev.taikai.proto.worker.v1.SessionRequest;
import dev.taikai.proto.worker.v1.StartEngine;
import dev.taikai.testkit.Await;
import dev.taikai.testkit.FakeEngines;
import io.grpc.ManagedChannel;
import io.grpc.Server;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.inprocess.InProcessChannelBuilder;
import io.grpc.inprocess.InProcessServerBuilder;
import io.grpc.stub.ClientCallStreamObserver;
import io.grpc.stub.ClientResponseObserver;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The worker's session stream over a real gRPC transport (in-process) with fake engines as processes. */
class EngineWorkerServiceTest {
    private static final String START = "rbsgk/4p/5/P4/KGSBR b - 1";
    /**
     * The service's deadlines but quick to give up on an unbounded search and on quit. The move margin is
     * the service's: a loaded machine must not make an engine that answers in time look stalled.
     */
    private static final Timeouts QUICK = new Timeouts(10_000, 10_000, 1_000, 5_000, 2_000, 500);
    /** How long a step may take on a loaded machine: a hang, not slowness, fails. */
    private static final Duration WITHIN = Duration.ofSeconds(60);
    /** A byoyomi no test waits out: an engine given it is stopped only by what the test does. */
    private static final int NEVER_MS = 600_000;

    private EngineHost host;
    private Server server;
    private ManagedChannel channel;

    @BeforeEach
    void start() throws Exception {
        Catalog catalog = Catalog.of(List.of(
                EngineSpec.of("fake", FakeEngines.command()),
                EngineSpec.of("crash", FakeEngines.command("--crash-on-go")),
                EngineSpec.of("stall", FakeEngines.command("--stall-after-go"))));
        host = new EngineHost("w1", catalog, 2, QUICK, HostListener.NONE);
        String name = InProcessServerBuilder.generateName();
        server = InProcessServerBuilder.forName(name)
                .addService(new EngineWorkerService(host))
                .build()
                .start();
        channel = InProcessChannelBuilder.forName(name).build();
    }

    @AfterEach
    void stop() throws Exception {
        channel.shutdownNow();
        server.shutdownNow();
        host.close();
    }

    /** A session stream driven one request at a time. */
    private final class Session implements ClientResponseObserver<SessionRequest, SessionEvent> {
        final LinkedBlockingQueue<Object> events = new LinkedBlockingQueue<>();
        ClientCallStreamObserver<SessionRequest> requests;
        long next = 1;

        Session() {
            EngineWorkerGrpc.newStub(channel).session(this);
        }

        SessionEvent call(SessionRequest.Builder request) throws Exception {
            requests.onNext(request.setRequestId(next++).build());
            Object event = events.poll(WITHIN.toSeconds(), TimeUnit.SECONDS);
            if (event instanceof Throwable t) {
                throw new AssertionError("stream failed: " + Status.fromThrowable(t), t);
            }
            return assertInstanceOf(SessionEvent.class, event, "an answer within " + WITHIN.toSeconds() + " s");
        }

        Status callFails(SessionRequest.Builder request) throws Exception {
            requests.onNext(request.setRequestId(next++).build());
            Object event = events.poll(WITHIN.toSeconds(), TimeUnit.SECONDS);
            return Status.fromThrowable(assertInstanceOf(StatusRuntimeException.class, event));
        }

        @Override
        public void beforeStart(ClientCallStreamObserver<SessionRequest> stream) {
            requests = stream;
        }

        @Override
        public void onNext(SessionEvent value) {
            events.add(value);
        }

        @Override
        public void onError(Throwable t) {
            events.add(t);
        }

        @Override
        public void onCompleted() {
            events.add("completed");
        }
    }

    private static SessionRequest.Builder start(String engine) {
        return SessionRequest.newBuilder()
                .setStart(StartEngine.newBuilder().setEngineId(engine).setVariant(Variant.VARIANT_MINISHOGI));
    }

    private static SessionRequest.Builder go(String sfen, List<String> moves) {
        return go(sfen, moves, 1000);
    }

    private static SessionRequest.Builder go(String sfen, List<String> moves, int byoyomiMs) {
        return SessionRequest.newBuilder()
                .setGo(Go.newBuilder()
                        .setSfen(sfen)
                        .addAllMoves(moves)
                        .setLimits(SearchLimits.newBuilder()
                                .setForm(SearchLimits.Form.FORM_BYOYOMI)
                                .setByoyomiMs(byoyomiMs)));
    }

    private int free() {
        Capacity capacity =
                EngineWorkerGrpc.newBlockingStub(channel).getCapacity(GetCapacityRequest.getDefaultInstance());
        return capacity.getFree();
    }

    @Test
    void aSessionPlaysMovesTimedAtThePipeAndFreesItsSlot() throws Exception {
        Session session = new Session();
        SessionEvent started = session.call(start("fake"));
        assertTrue(started.hasStarted(), started.toString());
        assertEquals("w1", started.getStarted().getWorkerId());
        assertEquals(1, free());
        assertTrue(session.call(SessionRequest.newBuilder().setNewGame(NewGame.getDefaultInstance()))
                .hasReady());
        SessionEvent move = session.call(go(START, List.of("5e4d")));
        assertTrue(move.hasBestMove(), move.toString());
        assertFalse(move.getBestMove().getMove().isEmpty());
        assertTrue(move.getBestMove().getEngineNs() > 0, "pipe time measured on the worker");
        assertEquals(3, move.getRequestId(), "the answer names its request");
        assertTrue(session.call(SessionRequest.newBuilder()
                        .setGameOver(GameOver.newBuilder().setEnd(GameOver.End.END_DRAW)))
                .hasAcknowledged());
        session.requests.onCompleted();
        assertEquals("completed", session.events.poll(WITHIN.toSeconds(), TimeUnit.SECONDS));
        awaitFree(2);
    }

    @Test
    void aDrainingWorkerEndsIdleSessionsAtOnceAndPlayingOnesAfterTheirGame() throws Exception {
        Session idle = new Session();
        Session playing = new Session();
        assertTrue(idle.call(start("fake")).hasStarted());
        assertTrue(playing.call(start("fake")).hasStarted());
        assertTrue(playing.call(SessionRequest.newBuilder().setNewGame(NewGame.getDefaultInstance()))
                .hasReady());

        host.drain();
        Object ended = idle.events.poll(WITHIN.toSeconds(), TimeUnit.SECONDS);
        Status status = Status.fromThrowable(assertInstanceOf(StatusRuntimeException.class, ended));
        assertEquals(Status.Code.UNAVAILABLE, status.getCode());
        assertTrue(status.getDescription().contains("worker w1 is shutting down"), status.toString());
        assertTrue(playing.call(go(START, List.of())).hasBestMove(), "the game in play goes on");
        SessionEvent ack = playing.call(
                SessionRequest.newBuilder().setGameOver(GameOver.newBuilder().setEnd(GameOver.End.END_DRAW)));
        assertTrue(ack.getAcknowledged().getSessionEnds(), "the caller learns the session ends: " + ack);
        Object after = playing.events.poll(WITHIN.toSeconds(), TimeUnit.SECONDS);
        assertEquals(
                Status.Code.UNAVAILABLE,
                Status.fromThrowable(assertInstanceOf(StatusRuntimeException.class, after))
                        .getCode());
        Await.until(
                WITHIN,
                "both engines gone (capacity reports 0 free while draining)",
                () -> host.freeSlots() == 2,
                host::freeSlots);
        assertEquals(0, free());
        Status refused = new Session().callFails(start("fake"));
        assertEquals(Status.Code.UNAVAILABLE, refused.getCode(), refused.toString());
    }

    @Test
    void anIdleSessionGivesItsSlotToANewSessionWhileAPlayingOneKeepsIt() throws Exception {
        Session idle = new Session();
        Session playing = new Session();
        assertTrue(idle.call(start("fake")).hasStarted());
        assertTrue(playing.call(start("fake")).hasStarted());
        assertTrue(playing.call(SessionRequest.newBuilder().setNewGame(NewGame.getDefaultInstance()))
                .hasReady());
        assertEquals(0, free(), "a session that has not played yet keeps its slot");
        assertTrue(idle.call(SessionRequest.newBuilder().setNewGame(NewGame.getDefaultInstance()))
                .hasReady());
        assertTrue(idle.call(go(START, List.of())).hasBestMove());
        assertTrue(idle.call(SessionRequest.newBuilder()
                        .setGameOver(GameOver.newBuilder().setEnd(GameOver.End.END_DRAW)))
                .hasAcknowledged());
        assertEquals(1, free(), "a session between games counts as a free slot");

        Session newcomer = new Session();
        assertTrue(newcomer.call(start("fake")).hasStarted(), "the new session takes the idle one's slot");
        Object ended = idle.events.poll(WITHIN.toSeconds(), TimeUnit.SECONDS);
        Status status = Status.fromThrowable(assertInstanceOf(StatusRuntimeException.class, ended));
        assertEquals(Status.Code.UNAVAILABLE, status.getCode());
        assertTrue(
                status.getDescription().contains("gave the slot of this idle session to a new one"), status.toString());
        assertEquals(0, free());
        Status refused = new Session().callFails(start("fake"));
        assertEquals(Status.Code.RESOURCE_EXHAUSTED, refused.getCode(), "no session is idle now: " + refused);
        assertTrue(playing.call(go(START, List.of())).hasBestMove(), "the game in play goes on");
        playing.requests.onCompleted();
        newcomer.requests.onCompleted();
        awaitFree(2);
    }

    /**
     * Streams of random requests, mutated from valid ones field by field: every request gets an answer or
     * the stream ends with a status (never INTERNAL or UNKNOWN), nothing hangs, and afterwards every slot
     * is free again and no engine is left.
     */
    @Test
    void fuzzedSessionStreamsEndCleanlyAndLeakNothing() throws Exception {
        SessionResources before = SessionResources.now();
        java.util.Random random = new java.util.Random(20261130);
        List<SessionRequest> valid = List.of(
                start("fake").build(),
                SessionRequest.newBuilder()
                        .setNewGame(NewGame.getDefaultInstance())
                        .build(),
                go(START, List.of("5e4d")).build(),
                SessionRequest.newBuilder()
                        .setGameOver(GameOver.newBuilder().setEnd(GameOver.End.END_DRAW))
                        .build());
        java.util.Map<String, Integer> outcomes = new java.util.TreeMap<>();
        for (int stream = 0; stream < 40; stream++) {
            Session session = new Session();
            String outcome = "answered";
            for (int i = 0; i < 1 + random.nextInt(4); i++) {
                SessionRequest request = valid.get(i % valid.size());
                if (random.nextInt(3) > 0) {
                    request = dev.taikai.testkit.ProtoFuzz.mutate(request, random);
                }
                session.requests.onNext(request.toBuilder().setRequestId(i + 1).build());
                Object event = session.events.poll(WITHIN.toSeconds(), TimeUnit.SECONDS);
                assertTrue(event != null, "an answer or an end within " + WITHIN.toSeconds() + " s to " + request);
                if (event instanceof Throwable t) {
                    Status status = Status.fromThrowable(t);
                    assertTrue(
                            Set.of(Status.Code.INVALID_ARGUMENT, Status.Code.RESOURCE_EXHAUSTED)
                                    .contains(status.getCode()),
                            "request " + request + " ended the stream with " + status);
                    outcome = status.getCode().name();
                    break;
                }
                if (event instanceof SessionEvent answer && answer.hasFailure()) {
                    outcome = "failure " + answer.getFailure().getKind();
                    break;
                }
            }
            outcomes.merge(outcome, 1, Integer::sum);
            try {
                session.requests.onCompleted();
            } catch (IllegalStateException e) {
                // the stream has already ended
            }
        }
        awaitFree(2);
        assertTrue(outcomes.size() >= 2, "several outcomes were reached: " + outcomes);
        Await.until(
                WITHIN,
                "no engine process or session thread of these streams is left",
                () -> SessionResources.now().newSince(before).isEmpty(),
                () -> SessionResources.now().newSince(before));
    }

    @Test
    void sessionsBeyondTheSlotsAreRefusedAndUnknownEnginesAreInvalid() throws Exception {
        Session first = new Session();
        Session second = new Session();
        assertTrue(first.call(start("fake")).hasStarted());
        assertTrue(second.call(start("fake")).hasStarted());
        assertEquals(0, free());
        Status third = new Session().callFails(start("fake"));
        assertEquals(Status.Code.RESOURCE_EXHAUSTED, third.getCode());
        assertTrue(third.getDescription().contains("all 2 engine slots of worker w1 are in use"), third.toString());
        first.requests.onCompleted();
        awaitFree(1);
        Status unknown = new Session().callFails(start("/bin/sh"));
        assertEquals(Status.Code.INVALID_ARGUMENT, unknown.getCode());
        assertTrue(
                unknown.getDescription().contains("no engine '/bin/sh' in the catalog of worker w1"),
                unknown.toString());
        second.requests.onCompleted();
        awaitFree(2);
    }

    @Test
    void malformedRequestsEndTheSessionWithInvalidArgument() throws Exception {
        Status early = new Session().callFails(go(START, List.of()));
        assertEquals(Status.Code.INVALID_ARGUMENT, early.getCode());
        assertTrue(early.getDescription().contains("send start first"), early.toString());

        Session session = new Session();
        assertTrue(session.call(start("fake")).hasStarted());
        Status badSfen = session.callFails(go("rbsgk/4p/5 b", List.of()));
        assertEquals(Status.Code.INVALID_ARGUMENT, badSfen.getCode());
        assertTrue(badSfen.getDescription().startsWith("go: not a canonical SFEN"), badSfen.toString());
        awaitFree(2);

        Status noVariant = new Session()
                .callFails(SessionRequest.newBuilder()
                        .setStart(StartEngine.newBuilder().setEngineId("fake")));
        assertEquals(Status.Code.INVALID_ARGUMENT, noVariant.getCode());
        assertTrue(noVariant.getDescription().contains("variant is missing"), noVariant.toString());
    }

    /**
     * Whatever a caller sends, nothing but declared options in one printable line reaches the engine's pipe,
     * and no option that names a file is set unless the catalog allows it: the worker checks again.
     */
    @Test
    void optionsThatMustNotReachTheEngineAreRefusedAndNothingIsWritten(@TempDir Path dir) throws Exception {
        Path planted = dir.resolve("planted.txt");
        Status injected = new Session()
                .callFails(start("fake")
                        .setStart(start("fake")
                                .getStartBuilder()
                                .putOptions("Debug Log File", planted + "\nsetoption name Skill Level value 0")));
        assertEquals(Status.Code.INVALID_ARGUMENT, injected.getCode());
        assertEquals(
                "options['Debug Log File'] holds a control character (U+000A at "
                        + planted.toString().length() + "): it must be one line of printable text",
                injected.getDescription());

        SessionEvent fileOption = new Session()
                .call(start("fake")
                        .setStart(start("fake").getStartBuilder().putOptions("Debug Log File", planted.toString())));
        assertEquals(
                EngineFailure.Kind.KIND_START_FAILED, fileOption.getFailure().getKind(), fileOption.toString());
        assertTrue(fileOption.getFailure().getDetail().contains("names a file"), fileOption.toString());

        SessionEvent undeclared = new Session()
                .call(start("fake").setStart(start("fake").getStartBuilder().putOptions("Hsh", "64")));
        assertEquals(
                EngineFailure.Kind.KIND_START_FAILED, undeclared.getFailure().getKind(), undeclared.toString());
        assertEquals(
                "option 'Hsh' is not an option of engine 'fake' (it has: Skill Level, Debug Log File)",
                undeclared.getFailure().getDetail());
        assertFalse(Files.exists(planted), "no file made by any option value");
        awaitFree(2);
    }

    @Test
    void anEngineThatCrashesIsReportedAndTheStreamEnds() throws Exception {
        Session session = new Session();
        assertTrue(session.call(start("crash")).hasStarted());
        SessionEvent failed = session.call(go(START, List.of()));
        assertTrue(failed.hasFailure(), failed.toString());
        assertEquals(EngineFailure.Kind.KIND_DISCONNECT, failed.getFailure().getKind());
        assertEquals("completed", session.events.poll(WITHIN.toSeconds(), TimeUnit.SECONDS));
        awaitFree(2);
    }

    @Test
    void anEngineThatStallsIsKilledByTheWorkerAndReportedAsAStall() throws Exception {
        Session session = new Session();
        assertTrue(session.call(start("stall")).hasStarted());
        SessionEvent failed = session.call(go(START, List.of()));
        assertEquals(EngineFailure.Kind.KIND_STALL, failed.getFailure().getKind(), failed.toString());
        awaitFree(2);
    }

    @Test
    void aCallerThatGoesAwayMidSearchTakesTheEngineWithIt() throws Exception {
        Set<Thread> before = Thread.getAllStackTraces().keySet();
        Session session = new Session();
        assertTrue(session.call(start("stall")).hasStarted());
        // the engine never answers and its time never runs out: only the caller's going away frees the slot
        session.requests.onNext(go(START, List.of(), NEVER_MS).setRequestId(99).build());
        Await.until(WITHIN, "the worker waits for the engine's bestmove", () -> searching(before));
        assertEquals(1, free());
        session.requests.cancel("the referee went away", null);
        awaitFree(2);
        assertTrue(
                session.events.stream().noneMatch(e -> e instanceof SessionEvent answer && answer.hasFailure()),
                "the engine was taken away, not failed: " + session.events);
    }

    /** A session thread started since {@code before} has sent a go and waits for the engine's answer. */
    private static boolean searching(Set<Thread> before) {
        return Thread.getAllStackTraces().entrySet().stream()
                .filter(e -> !before.contains(e.getKey()))
                .anyMatch(e -> Arrays.stream(e.getValue())
                        .anyMatch(frame -> frame.getClassName().equals(UsiEngine.class.getName())
                                && frame.getMethodName().equals("awaitBestMove")));
    }

    @Test
    void theCatalogListsTheWorkersEngines() {
        var catalog = EngineWorkerGrpc.newBlockingStub(channel).getCatalog(GetCatalogRequest.getDefaultInstance());
        assertEquals("w1", catalog.getWorkerId());
        assertEquals(
                List.of("crash", "fake", "stall"),
                catalog.getEnginesList().stream().map(e -> e.getId()).sorted().toList());
    }

    /**
     * The engine processes and session threads alive at one moment: what sessions start and must end.
     * Not {@code Leaks}: gRPC's and the engine host's shared threads start on first use, so which test
     * first uses them would decide whether they count.
     */
    private record SessionResources(Set<Long> engines, Set<Thread> threads) {
        static SessionResources now() {
            return new SessionResources(
                    ProcessHandle.current()
                            .descendants()
                            .filter(ProcessHandle::isAlive)
                            .map(ProcessHandle::pid)
                            .collect(Collectors.toSet()),
                    Thread.getAllStackTraces().keySet().stream()
                            .filter(t -> t.isAlive() && t.getName().equals("worker-session"))
                            .collect(Collectors.toSet()));
        }

        /** What is alive now and was not in {@code before}, or an empty string. */
        String newSince(SessionResources before) {
            List<String> left = new java.util.ArrayList<>();
            engines.stream()
                    .filter(pid -> !before.engines.contains(pid))
                    .forEach(pid -> left.add("engine process " + pid));
            threads.stream().filter(t -> !before.threads.contains(t)).forEach(t -> left.add("thread " + t.getName()));
            return String.join(", ", left);
        }
    }

    private void awaitFree(int slots) {
        Await.until(WITHIN, slots + " free slots", () -> free() == slots, this::free);
    }
}
