package dev.taikai.scheduler.http;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.util.JsonFormat;
import dev.taikai.scheduler.live.LiveView;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * {@code GET /api/live}: what the referees play now as server-sent events. A {@code game} event is a
 * game's state (its position as an SFEN, the last move and ply, both clocks, each side's last depth,
 * score and pv, whether it is over); a {@code referee} event a referee's status. A new stream gets
 * everything there is, then what changes, at most every {@value #EVERY_MILLIS} ms and only while its
 * connection takes it: the moves of a game between two sends are one update (the others counted as
 * dropped), so a slow browser holds at most one state per game and slows neither the games nor the
 * other browsers. A comment every 15 s keeps idle connections open.
 */
@ApplicationScoped
public class LiveStream {
    static final long EVERY_MILLIS = 250;
    private static final ObjectMapper JSON = new ObjectMapper();

    @Inject
    LiveView view;

    /** Each key's last frame with the version it was made of: made once for every stream. */
    private final Map<String, Frame> frames = new ConcurrentHashMap<>();

    /** A frame as the bytes every stream writes: encoded once, not once a stream. */
    private record Frame(long version, Buffer bytes) {}

    void routes(@Observes Router router) {
        router.get("/api/live").handler(this::open);
    }

    private void open(RoutingContext routing) {
        HttpServerResponse response = routing.response();
        response.setChunked(true)
                .putHeader("Content-Type", "text/event-stream; charset=utf-8")
                .putHeader("Cache-Control", "no-cache")
                .putHeader("X-Accel-Buffering", "no");
        response.write("retry: 2000\n\n");
        Stream stream = new Stream(response, routing.vertx(), routing.vertx().getOrCreateContext());
        view.subscribe(stream);
        view.keys().forEach(stream::changed);
        long keepAlive = routing.vertx().setPeriodic(15_000, id -> stream.keepAlive());
        response.closeHandler(closed -> {
            view.unsubscribe(stream);
            routing.vertx().cancelTimer(keepAlive);
        });
    }

    /** The frame of {@code key} now, or empty when it is gone (a game no longer shown). */
    private Optional<Buffer> frame(String key) {
        if (key.startsWith("referee:")) {
            return view.referee(key.substring("referee:".length()))
                    .map(seen -> cached(key, seen.receivedMillis(), () -> {
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
                    node.put("sente_remaining_ms", state.senteRemainingMs());
                    node.put("gote_remaining_ms", state.goteRemainingMs());
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

    /** One browser's stream: the keys that changed since its last send, written on its connection's event loop. */
    private final class Stream implements LiveView.Subscriber {
        private final HttpServerResponse response;
        private final Vertx vertx;
        private final Context context;
        private final LinkedHashSet<String> changed = new LinkedHashSet<>();
        private boolean scheduled;
        private long lastSentMillis;

        Stream(HttpServerResponse response, Vertx vertx, Context context) {
            this.response = response;
            this.vertx = vertx;
            this.context = context;
        }

        @Override
        public boolean changed(String key) {
            boolean fresh;
            boolean schedule;
            synchronized (this) {
                fresh = changed.add(key);
                schedule = !scheduled;
                scheduled = true;
            }
            if (schedule) {
                context.runOnContext(v -> {
                    long wait = EVERY_MILLIS - (System.currentTimeMillis() - lastSentMillis);
                    if (wait <= 0) {
                        send();
                    } else {
                        vertx.setTimer(wait, id -> context.runOnContext(again -> send()));
                    }
                });
            }
            return fresh;
        }

        void keepAlive() {
            context.runOnContext(v -> {
                if (!response.closed() && !response.writeQueueFull()) {
                    response.write(": still here\n\n");
                }
            });
        }

        /** Writes what changed, in one write; when the connection is full, waits for it to drain. */
        private void send() {
            if (response.closed()) {
                return;
            }
            if (response.writeQueueFull()) {
                response.drainHandler(v -> send());
                return;
            }
            List<String> keys;
            synchronized (this) {
                keys = new ArrayList<>(changed);
                changed.clear();
                scheduled = false;
            }
            Buffer bytes = Buffer.buffer();
            for (String key : keys) {
                frame(key).ifPresent(bytes::appendBuffer);
            }
            lastSentMillis = System.currentTimeMillis();
            if (bytes.length() > 0) {
                response.write(bytes);
            }
        }
    }
}
