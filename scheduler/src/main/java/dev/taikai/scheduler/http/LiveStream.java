package dev.taikai.scheduler.http;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.util.JsonFormat;
import dev.taikai.access.Gate;
import dev.taikai.access.Policy;
import dev.taikai.access.quarkus.AccessControl;
import dev.taikai.scheduler.live.LiveView;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * {@code GET /api/live}: what the referees play now as server-sent events. A {@code game} event is a
 * game's state (its position as an SFEN, the last move and ply, both clocks, each side's last depth,
 * score and pv, whether it is over); a {@code referee} event a referee's status. A new stream gets
 * everything there is at once, then what changed, every {@value #EVERY_MILLIS} ms and only while its
 * connection takes it: the states of a game between two sends are one update (the others counted as
 * dropped), so a slow browser holds no more than its connection's write buffer and slows neither the
 * games nor the other browsers. A comment after {@value #KEEP_ALIVE_MILLIS} ms of silence keeps an idle
 * connection open.
 *
 * <p>The streams are sent on their connections' event loops, each loop's streams by one timer: a tick
 * asks the view once what changed and makes one buffer for all the streams that were up to date, so a
 * move costs the topic's reader nothing per stream and a stream costs a tick one write.
 */
@ApplicationScoped
public class LiveStream {
    static final long EVERY_MILLIS = 250;
    static final long KEEP_ALIVE_MILLIS = 15_000;
    /** How often an open stream's token or session is checked again. */
    static final long RECHECK_MILLIS = 1_000;

    private static final String OPERATION = Policy.http("GET", "/api/live");
    private static final ObjectMapper JSON = new ObjectMapper();

    @Inject
    LiveView view;

    /** Each key's last frame with the version it was made of: made once for every stream. */
    private final Map<String, Frame> frames = new ConcurrentHashMap<>();

    /** The ticker of each event-loop thread that has streams. */
    private final Map<Thread, Ticker> tickers = new ConcurrentHashMap<>();

    /** A frame as the bytes every stream writes: encoded once, not once a stream. */
    private record Frame(long version, Buffer bytes) {}

    /** What a stream writes to come up to {@code upTo}, and how many updates it brings. */
    private record Batch(long upTo, Buffer bytes, int updates) {}

    @Inject
    Gate gate;

    void routes(@Observes Router router) {
        router.get("/api/live").handler(this::open);
    }

    private void open(RoutingContext routing) {
        HttpServerResponse response = routing.response();
        // the guard let the stream open; asked again as it runs, the token or session may have been revoked
        String authorization = routing.request().getHeader("Authorization");
        var cookie = routing.request().getCookie(AccessControl.SESSION_COOKIE);
        String session = cookie == null ? null : cookie.getValue();
        java.util.function.BooleanSupplier allowed =
                () -> gate.decide(OPERATION, authorization, session) instanceof Gate.Allowed;
        response.setChunked(true)
                .putHeader("Content-Type", "text/event-stream; charset=utf-8")
                .putHeader("Cache-Control", "no-cache")
                .putHeader("X-Accel-Buffering", "no");
        response.write("retry: 2000\n\n");
        // a route's handler runs on its connection's event loop, as do the connection's close handler and
        // the timer set here: the ticker's streams are touched by that thread only
        Ticker ticker = tickers.computeIfAbsent(Thread.currentThread(), thread -> new Ticker(routing.vertx()));
        Stream stream = new Stream(response, allowed);
        ticker.streams.add(stream);
        view.watching(true);
        response.closeHandler(closed -> {
            ticker.streams.remove(stream);
            view.watching(false);
        });
        stream.send(new HashMap<>(), view.version(), System.currentTimeMillis());
    }

    /** What a stream sent up to {@code sentUpTo} writes to come up to date: each changed key's latest frame, once. */
    private Batch batch(long sentUpTo) {
        LiveView.Changes changes = view.changedSince(sentUpTo);
        Buffer bytes = Buffer.buffer();
        int updates = 0;
        for (String key : changes.keys()) {
            Optional<Buffer> frame = frame(key);
            if (frame.isPresent()) {
                bytes.appendBuffer(frame.get());
                updates++;
            }
        }
        return new Batch(changes.upTo(), bytes, updates);
    }

    /** The frame of {@code key} now, or empty when it is gone (a game no longer shown). */
    private Optional<Buffer> frame(String key) {
        if (key.startsWith("referee:")) {
            return view.referee(key.substring("referee:".length()))
                    .map(seen -> cached(key, seen.version(), () -> {
                        ObjectNode node = JSON.createObjectNode();
                        node.put("referee", seen.status().getRefereeId());
                        node.put("published_ms", seen.status().getPublishedUnixMs());
                        try {
                            node.set(
                                    "status",
                                    JSON.readTree(JsonFormat.printer()
                                            .print(seen.status().getStatus())));
                        } catch (InvalidProtocolBufferException
                                | com.fasterxml.jackson.core.JsonProcessingException e) {
                            node.putObject("status");
                        }
                        return "event: referee\ndata: " + node + "\n\n";
                    }));
        }
        long version = view.version(key);
        Frame known = frames.get(key);
        if (version < 0) {
            frames.remove(key);
            return Optional.empty();
        }
        if (known != null && known.version() == version) {
            return Optional.of(known.bytes()); // the state is made once a change, not once a stream
        }
        return view.game(key)
                .map(state -> cached(key, state.version(), () -> {
                    ObjectNode node = JSON.createObjectNode();
                    node.put("game", state.gameId());
                    node.put("variant", state.variant());
                    node.put("sente", state.sente());
                    node.put("gote", state.gote());
                    node.put("sfen", state.sfen());
                    node.put("ply", state.ply());
                    node.put("last_move", state.lastMove());
                    // left out for a side without a clock
                    if (state.senteRemainingMs() != LiveView.NO_CLOCK) {
                        node.put("sente_remaining_ms", state.senteRemainingMs());
                    }
                    if (state.goteRemainingMs() != LiveView.NO_CLOCK) {
                        node.put("gote_remaining_ms", state.goteRemainingMs());
                    }
                    node.put("over", state.over());
                    node.put("result", state.result());
                    node.put("published_ms", state.publishedUnixMs());
                    info(node, "sente_info", state.senteInfo());
                    info(node, "gote_info", state.goteInfo());
                    return "event: game\ndata: " + node + "\n\n";
                }));
    }

    private static void info(ObjectNode node, String name, LiveView.Info info) {
        if (info != null) {
            ObjectNode i = node.putObject(name);
            i.put("depth", info.depth());
            i.put("score", info.score());
            i.put("pv", String.join(" ", info.pv()));
        }
    }

    private Buffer cached(String key, long version, java.util.function.Supplier<String> make) {
        Frame frame = frames.get(key);
        if (frame == null || frame.version() != version) {
            frame = new Frame(version, Buffer.buffer(make.get(), "UTF-8"));
            frames.put(key, frame);
        }
        return frame.bytes();
    }

    /** One event loop's streams, sent every {@value #EVERY_MILLIS} ms by one timer on that loop. */
    private final class Ticker {
        final List<Stream> streams = new ArrayList<>();
        private long lastPrunedMillis;

        Ticker(Vertx vertx) {
            vertx.setPeriodic(EVERY_MILLIS, id -> tick());
        }

        private void tick() {
            if (streams.isEmpty()) {
                return;
            }
            long now = System.currentTimeMillis();
            long latest = view.version(); // read once a tick, not once a stream
            Map<Long, Batch> made = new HashMap<>();
            for (Stream stream : List.copyOf(streams)) {
                stream.send(made, latest, now);
            }
            if (now - lastPrunedMillis >= 1_000) {
                lastPrunedMillis = now;
                frames.keySet().removeIf(key -> !view.shows(key)); // games no longer shown
            }
        }
    }

    /** One browser's stream: the version of the view it has been sent up to. */
    private final class Stream {
        private final HttpServerResponse response;
        private final java.util.function.BooleanSupplier allowed;
        private long sentUpTo;
        private long lastWriteMillis;
        private long checkedMillis = System.currentTimeMillis();
        /** After its first send, which is everything there is rather than updates it missed. */
        private boolean started;

        Stream(HttpServerResponse response, java.util.function.BooleanSupplier allowed) {
            this.response = response;
            this.allowed = allowed;
        }

        /**
         * Writes what changed since its last send (nothing when it is up to {@code latest}), in one write,
         * with the batch another stream up to the same version made in this tick; a connection still full
         * takes it at a later tick, all merged.
         */
        void send(Map<Long, Batch> made, long latest, long now) {
            if (response.closed() || response.writeQueueFull()) {
                return;
            }
            if (now - checkedMillis >= RECHECK_MILLIS) {
                checkedMillis = now;
                if (!allowed
                        .getAsBoolean()) { // revoked, logged out or expired: the stream ends, as a new one is refused
                    response.end();
                    return;
                }
            }
            if (sentUpTo >= latest) {
                if (now - lastWriteMillis >= KEEP_ALIVE_MILLIS) {
                    response.write(": still here\n\n");
                    lastWriteMillis = now;
                }
                return;
            }
            Batch batch = made.computeIfAbsent(sentUpTo, LiveStream.this::batch);
            if (batch.bytes().length() > 0) {
                response.write(batch.bytes());
                lastWriteMillis = now;
            }
            if (started) {
                view.merged(Math.max(0, batch.upTo() - sentUpTo - batch.updates()));
            }
            started = true;
            sentUpTo = batch.upTo();
        }
    }
}
