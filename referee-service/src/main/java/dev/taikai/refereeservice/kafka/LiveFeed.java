package dev.taikai.refereeservice.kafka;

import dev.taikai.events.Topics;
import dev.taikai.proto.events.v1.LiveEvent;
import dev.taikai.proto.events.v1.RefereeStatus;
import dev.taikai.proto.referee.v1.GameEvent;
import dev.taikai.refereeservice.live.LiveGames;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * Publishes what this referee plays now on {@link Topics#LIVE}: every game event ({@link LiveGames.Feed})
 * and the referee's status. A game never waits for it: events go into a bounded queue that one thread
 * sends from, and an event that finds the queue full is dropped and counted (the status says how many).
 */
public final class LiveFeed implements LiveGames.Feed, Runnable, AutoCloseable {
    private static final int QUEUE = 10_000;

    private final Producer<String, byte[]> producer;
    private final String refereeId;
    private final BlockingQueue<LiveEvent> queue = new ArrayBlockingQueue<>(QUEUE);
    private final AtomicLong dropped = new AtomicLong();
    private volatile boolean closed;

    public LiveFeed(Producer<String, byte[]> producer, String refereeId) {
        this.producer = producer;
        this.refereeId = refereeId;
    }

    @Override
    public void event(String gameId, GameEvent event) {
        offer(LiveEvent.newBuilder().setGameId(gameId).setGame(event));
    }

    /** Publishes the referee's status (games, workers); the count of dropped events is added here. */
    public void status(RefereeStatus.Builder status) {
        offer(LiveEvent.newBuilder().setStatus(status.setLiveEventsDropped(dropped.get())));
    }

    private void offer(LiveEvent.Builder event) {
        LiveEvent built = event.setSchemaVersion(Topics.SCHEMA_VERSION)
                .setRefereeId(refereeId)
                .setPublishedUnixMs(System.currentTimeMillis())
                .build();
        if (!queue.offer(built)) {
            dropped.incrementAndGet();
        }
    }

    /** Live events dropped so far, because Kafka did not take them fast enough. */
    public long dropped() {
        return dropped.get();
    }

    @Override
    public void run() {
        while (!closed) {
            try {
                LiveEvent event = queue.poll(500, TimeUnit.MILLISECONDS);
                if (event != null) {
                    producer.send(new ProducerRecord<>(Topics.LIVE, refereeId, event.toByteArray()));
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (RuntimeException e) {
                dropped.incrementAndGet(); // the broker is away: the live view misses this one
            }
        }
    }

    @Override
    public void close() {
        closed = true;
    }
}
