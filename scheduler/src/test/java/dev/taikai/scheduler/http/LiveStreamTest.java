package dev.taikai.scheduler.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.taikai.proto.common.v1.GameAssignment;
import dev.taikai.proto.common.v1.MoveRecord;
import dev.taikai.proto.common.v1.PlayerAssignment;
import dev.taikai.proto.common.v1.Variant;
import dev.taikai.proto.events.v1.LiveEvent;
import dev.taikai.proto.events.v1.RefereeStatus;
import dev.taikai.proto.events.v1.WorkerStatus;
import dev.taikai.proto.referee.v1.GameEvent;
import dev.taikai.proto.referee.v1.GameStarted;
import dev.taikai.proto.referee.v1.MovePlayed;
import dev.taikai.scheduler.live.LiveView;
import dev.taikai.testkit.Await;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.ext.web.Router;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code GET /api/live} on a real Vert.x server and real sockets: a new stream gets everything there is,
 * then each changed state once a tick with the states it skipped counted as dropped; a browser that
 * stops reading is sent nothing more while its connection is full, holds up no other browser, and when
 * it reads again gets the latest states, not the backlog.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class LiveStreamTest {
    private static final Duration WITHIN = Duration.ofSeconds(30);
    private static final String GAME = "t1/1";
    private static final ObjectMapper JSON = new ObjectMapper();

    private Vertx vertx;
    private LiveView view;
    private int port;
    private final List<Subscriber> subscribers = new ArrayList<>();

    @BeforeEach
    void serve() throws Exception {
        // one event loop: every stream is sent by the same tick, so a tick seen by one stream was made for all
        vertx = Vertx.vertx(new VertxOptions().setEventLoopPoolSize(1));
        view = new LiveView();
        LiveStream stream = new LiveStream();
        stream.view = view;
        Router router = Router.router(vertx);
        stream.routes(router);
        // a small send buffer: a connection that is not read fills within a few ticks
        HttpServer server = vertx.createHttpServer(new HttpServerOptions().setSendBufferSize(8 * 1024))
                .requestHandler(router)
                .listen(0, "127.0.0.1")
                .toCompletionStage()
                .toCompletableFuture()
                .get(30, TimeUnit.SECONDS);
        port = server.actualPort();
    }

    @AfterEach
    void stop() throws Exception {
        for (Subscriber subscriber : subscribers) {
            subscriber.socket.close();
        }
        vertx.close().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
    }

    @Test
    void aStreamGetsWhatThereIsThenTheLatestStateOfWhatChangedWithTheRestCountedAsDropped() throws Exception {
        view.acceptAll(List.of(started(), move(1, "5d5c"), move(2, "1b1c")));
        Subscriber browser = subscribe(0);
        Await.until(WITHIN, "the game as it is when the stream opens", () -> browser.ply(GAME) == 2, browser::toString);
        assertEquals(0, view.dropped(), "what was before the stream opened is not dropped");
        assertEquals(1, view.subscribers());

        view.acceptAll(List.of(move(3, "5c5b"), move(4, "1c1d")));

        Await.until(WITHIN, "the game's latest state", () -> browser.ply(GAME) == 4, browser::toString);
        assertEquals(1, view.dropped(), "ply 3 was merged into ply 4");
        assertTrue(browser.plies(GAME).equals(List.of(2, 4)), "sent: " + browser.plies(GAME));
    }

    @Test
    void aSideWithoutAClockHasNoRemainingTimeAndAStartedGameShowsTheMainTime() throws Exception {
        var byoyomi = dev.taikai.proto.common.v1.TimeControl.newBuilder()
                .setKind(dev.taikai.proto.common.v1.TimeControl.Kind.KIND_BYOYOMI)
                .setMainMs(60_000)
                .setByoyomiMs(1000);
        var movetime = dev.taikai.proto.common.v1.TimeControl.newBuilder()
                .setKind(dev.taikai.proto.common.v1.TimeControl.Kind.KIND_MOVETIME)
                .setMovetimeMs(200);
        view.acceptAll(List.of(LiveEvent.newBuilder()
                .setGameId(GAME)
                .setGame(GameEvent.newBuilder()
                        .setStarted(GameStarted.newBuilder()
                                .setAssignment(GameAssignment.newBuilder()
                                        .setVariant(Variant.VARIANT_MINISHOGI)
                                        .setSente(PlayerAssignment.newBuilder()
                                                .setName("a")
                                                .setTimeControl(byoyomi))
                                        .setGote(PlayerAssignment.newBuilder()
                                                .setName("b")
                                                .setTimeControl(movetime)))
                                .setStartSfen("rbsgk/4p/5/P4/KGSBR b - 1")))
                .build()));
        Subscriber browser = subscribe(0);
        Await.until(WITHIN, "the started game", () -> browser.ply(GAME) == 0, browser::toString);
        JsonNode started = browser.frames.get(GAME).get(0);
        assertEquals(60_000, started.path("sente_remaining_ms").asLong(), started.toString());
        assertFalse(started.has("gote_remaining_ms"), "no clock for movetime: " + started);
    }

    @Test
    void aBrowserThatStopsReadingHoldsUpNobodyAndThenGetsTheLatestStatesNotTheBacklog() throws Exception {
        int referees = 40;
        int changes = 40;
        Subscriber stalled = subscribe(4 * 1024);
        stalled.pause();
        Subscriber reading = subscribe(0);
        long unmerged = 0; // the bytes the stalled browser would have been sent, one frame a change
        for (int change = 1; change <= changes; change++) {
            List<LiveEvent> batch = new ArrayList<>();
            for (int r = 0; r < referees; r++) {
                batch.add(status("referee-" + r, change));
            }
            view.acceptAll(batch);
            int expected = change;
            // the reading browser keeps getting every tick: the stalled one holds nobody up
            Await.until(
                    WITHIN,
                    "the reading browser gets change " + change,
                    () -> reading.gamesInPlay("referee:referee-" + (referees - 1)) == expected,
                    reading::toString);
            unmerged += (long) referees * reading.lastFrameBytes("referee:referee-0");
        }
        long droppedWhileStalled = view.dropped();
        stalled.resume();

        Await.until(
                WITHIN,
                "the stalled browser gets every referee's latest status",
                () -> {
                    for (int r = 0; r < referees; r++) {
                        if (stalled.gamesInPlay("referee:referee-" + r) != changes) {
                            return false;
                        }
                    }
                    return true;
                },
                stalled::toString);
        assertTrue(
                stalled.bytes.get() < unmerged / 3,
                "the stalled browser got " + stalled.bytes.get() + " bytes, not the backlog of " + unmerged);
        assertTrue(
                view.dropped() >= droppedWhileStalled + (long) referees * (changes / 2),
                "the statuses it skipped are counted: " + droppedWhileStalled + " then " + view.dropped());
    }

    private static LiveEvent started() {
        return LiveEvent.newBuilder()
                .setGameId(GAME)
                .setGame(GameEvent.newBuilder()
                        .setStarted(GameStarted.newBuilder()
                                .setAssignment(GameAssignment.newBuilder()
                                        .setVariant(Variant.VARIANT_MINISHOGI)
                                        .setSente(PlayerAssignment.newBuilder().setName("a"))
                                        .setGote(PlayerAssignment.newBuilder().setName("b")))
                                .setStartSfen("rbsgk/4p/5/P4/KGSBR b - 1")))
                .build();
    }

    private static LiveEvent move(int ply, String usi) {
        return LiveEvent.newBuilder()
                .setGameId(GAME)
                .setGame(GameEvent.newBuilder()
                        .setMove(MovePlayed.newBuilder()
                                .setPly(ply)
                                .setMove(MoveRecord.newBuilder().setMove(usi))))
                .build();
    }

    /** A referee's status whose games in play count the changes; a few workers make its frame ~1 KB. */
    private static LiveEvent status(String referee, int change) {
        RefereeStatus.Builder status = RefereeStatus.newBuilder().setGamesInPlay(change);
        for (int w = 0; w < 8; w++) {
            status.addWorkers(WorkerStatus.newBuilder()
                    .setWorkerId("worker-" + w)
                    .setAddress("10.0.0." + w + ":9090")
                    .setSlots(8)
                    .setFree(w)
                    .setReachable(true));
        }
        return LiveEvent.newBuilder().setRefereeId(referee).setStatus(status).build();
    }

    /** Opens a stream on a socket (with {@code receiveBuffer} bytes, 0 for the default) and reads it on a thread. */
    private Subscriber subscribe(int receiveBuffer) throws IOException {
        Socket socket = new Socket();
        if (receiveBuffer > 0) {
            socket.setReceiveBufferSize(receiveBuffer);
        }
        socket.connect(new InetSocketAddress("127.0.0.1", port), 10_000);
        socket.getOutputStream()
                .write("GET /api/live HTTP/1.1\r\nHost: localhost\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
        Subscriber subscriber = new Subscriber(socket);
        subscribers.add(subscriber);
        Thread reader = new Thread(subscriber::read, "live-subscriber");
        reader.setDaemon(true);
        reader.start();
        return subscriber;
    }

    /** A browser's side: every frame it read, by key; it can stop reading and go on. */
    private static final class Subscriber {
        final Socket socket;
        final AtomicLong bytes = new AtomicLong();
        final Map<String, List<JsonNode>> frames = new ConcurrentHashMap<>();
        final Map<String, Integer> frameBytes = new ConcurrentHashMap<>();
        private volatile boolean paused;

        Subscriber(Socket socket) {
            this.socket = socket;
        }

        void pause() {
            paused = true;
        }

        void resume() {
            paused = false;
        }

        void read() {
            try (BufferedReader lines = new BufferedReader(
                    new InputStreamReader(new Counting(socket.getInputStream()), StandardCharsets.UTF_8), 256)) {
                String line;
                while ((line = lines.readLine()) != null) {
                    if (line.startsWith("data: ")) {
                        JsonNode frame = JSON.readTree(line.substring("data: ".length()));
                        String key = frame.has("game")
                                ? frame.get("game").asText()
                                : "referee:" + frame.get("referee").asText();
                        frames.computeIfAbsent(key, k -> new CopyOnWriteArrayList<>())
                                .add(frame); // read by the test's thread
                        frameBytes.put(key, line.length() + "event: referee\n\n".length());
                    }
                }
            } catch (IOException e) {
                // closed at the test's end
            }
        }

        int ply(String game) {
            List<JsonNode> sent = frames.getOrDefault(game, List.of());
            return sent.isEmpty() ? -1 : sent.get(sent.size() - 1).get("ply").asInt();
        }

        List<Integer> plies(String game) {
            return frames.getOrDefault(game, List.of()).stream()
                    .map(f -> f.get("ply").asInt())
                    .toList();
        }

        int gamesInPlay(String referee) {
            List<JsonNode> sent = frames.getOrDefault(referee, List.of());
            return sent.isEmpty()
                    ? -1
                    : sent.get(sent.size() - 1)
                            .path("status")
                            .path("gamesInPlay")
                            .asInt();
        }

        int lastFrameBytes(String key) {
            return frameBytes.getOrDefault(key, 0);
        }

        @Override
        public String toString() {
            return bytes.get() + " bytes; last frames: "
                    + frames.keySet().stream()
                            .limit(3)
                            .map(k -> k + "=" + frames.get(k).get(frames.get(k).size() - 1))
                            .toList();
        }

        /** Counts the bytes read, and reads none while paused. */
        private final class Counting extends InputStream {
            private final InputStream in;

            Counting(InputStream in) {
                this.in = in;
            }

            @Override
            public int read() throws IOException {
                byte[] one = new byte[1];
                return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
            }

            @Override
            public int read(byte[] buffer, int offset, int length) throws IOException {
                while (paused) {
                    LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(10));
                }
                int n = in.read(buffer, offset, Math.min(length, 256));
                if (n > 0) {
                    bytes.addAndGet(n);
                }
                return n;
            }
        }
    }
}
