package dev.taikai.scheduler.http;

import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.util.JsonFormat;
import dev.taikai.proto.events.v1.LiveEvent;
import dev.taikai.scheduler.live.LiveView;
import io.vertx.core.Context;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * {@code GET /api/live}: what the referees play now as server-sent events, one {@code live} event a
 * {@link LiveEvent} in protobuf's JSON (a game's start, each move, its end; a referee's status). A new
 * stream begins with everything so far. Each stream has a buffer of {@value #BUFFER} events and writes
 * only while its connection takes them: a browser that falls behind loses events (counted as dropped)
 * and gets a {@code resync} event and a fresh snapshot, and nobody else waits for it. A comment every
 * 15 s keeps idle connections open.
 */
@ApplicationScoped
public class LiveStream {
    static final int BUFFER = 1024;
    private static final JsonFormat.Printer JSON = JsonFormat.printer().omittingInsignificantWhitespace();

    @Inject
    LiveView view;

    /** The last event's frame, made once for all streams (events come one at a time, from one thread). */
    private LiveEvent lastEvent;

    private String lastFrame;

    void routes(@Observes Router router) {
        router.get("/api/live").handler(this::open);
    }

    private void open(RoutingContext routing) {
        HttpServerResponse response = routing.response();
        response.setChunked(true)
                .putHeader("Content-Type", "text/event-stream; charset=utf-8")
                .putHeader("Cache-Control", "no-cache")
                .putHeader("X-Accel-Buffering", "no");
        Stream stream = new Stream(response, routing.vertx().getOrCreateContext());
        List<LiveEvent> first = view.subscribe(stream);
        stream.start(first);
        long keepAlive = routing.vertx().setPeriodic(15_000, id -> stream.write(": still here\n\n"));
        response.closeHandler(closed -> {
            view.unsubscribe(stream);
            routing.vertx().cancelTimer(keepAlive);
        });
    }

    private synchronized String frame(LiveEvent event) {
        if (event != lastEvent) {
            lastEvent = event;
            lastFrame = "event: live\ndata: " + json(event) + "\n\n";
        }
        return lastFrame;
    }

    private static String json(LiveEvent event) {
        try {
            return JSON.print(event);
        } catch (InvalidProtocolBufferException e) {
            return "{}"; // every field of the message prints: does not happen
        }
    }

    /** One browser's stream: a bounded buffer, written on the connection's own event loop. */
    private final class Stream implements LiveView.Subscriber {
        private final HttpServerResponse response;
        private final Context context;
        private final BlockingQueue<String> buffer = new ArrayBlockingQueue<>(BUFFER);
        private final AtomicBoolean draining = new AtomicBoolean();
        private final AtomicBoolean behind = new AtomicBoolean();

        Stream(HttpServerResponse response, Context context) {
            this.response = response;
            this.context = context;
        }

        void start(List<LiveEvent> first) {
            context.runOnContext(v -> {
                response.write("retry: 2000\n\n");
                for (LiveEvent event : first) {
                    response.write(frame(event));
                }
                drain();
            });
        }

        @Override
        public boolean offer(LiveEvent event) {
            if (behind.get() || !buffer.offer(frame(event))) {
                return false;
            }
            if (draining.compareAndSet(false, true)) {
                context.runOnContext(v -> drain());
            }
            return true;
        }

        @Override
        public void fellBehind() {
            if (behind.compareAndSet(false, true) && draining.compareAndSet(false, true)) {
                context.runOnContext(v -> drain());
            }
        }

        void write(String text) {
            context.runOnContext(v -> {
                if (!response.closed() && !response.writeQueueFull()) {
                    response.write(text);
                }
            });
        }

        /** Writes what the connection takes; more when it drains. On the connection's event loop. */
        private void drain() {
            draining.set(false);
            if (response.closed()) {
                return;
            }
            if (behind.get() && !response.writeQueueFull()) {
                buffer.clear();
                response.write("event: resync\ndata: {}\n\n");
                for (LiveEvent event : view.snapshot()) {
                    response.write(frame(event));
                }
                behind.set(false);
            }
            String next;
            while (!response.writeQueueFull() && (next = buffer.poll()) != null) {
                response.write(next);
            }
            if (!buffer.isEmpty() || behind.get()) {
                response.drainHandler(v -> drain());
            }
        }
    }
}
