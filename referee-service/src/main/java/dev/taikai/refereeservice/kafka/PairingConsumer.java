package dev.taikai.refereeservice.kafka;

import com.google.protobuf.ByteString;
import dev.taikai.events.DeadLetters;
import dev.taikai.events.Topics;
import dev.taikai.proto.events.v1.EngineLogEvent;
import dev.taikai.proto.events.v1.GameRecordEvent;
import dev.taikai.proto.events.v1.PairingEvent;
import dev.taikai.referee.game.Pairing;
import dev.taikai.referee.messages.GameMessages;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * Takes pairings from Kafka and plays them, leasing rather than holding the work (ARCHITECTURE.md,
 * decision 3). One thread polls without pause; games run on their own threads, at most {@code capacity}
 * at once; when that many are running or waiting the partitions are paused. An offset is committed only
 * when every pairing before it in its partition has finished and its record is in Kafka, so a crash or a
 * rebalance hands unfinished games to another referee, which plays them from the start under the same id.
 * A game of a cancelled or aborted tournament is not started (an SPRT that concluded has its handed-out games
 * played out). A game whose worker is lost is played again here after
 * a pause, unless its partition has gone elsewhere.
 */
public final class PairingConsumer implements Runnable, AutoCloseable {
    private static final Logger LOG = Logger.getLogger(PairingConsumer.class.getName());

    /** Plays one pairing to its record and engine log; throws when the game had to be abandoned. */
    public interface Games {
        Played play(Pairing pairing) throws Exception;
    }

    /** A played game's record, and its gzip-compressed engine log (at most about 800 KiB) or null. */
    public record Played(dev.taikai.proto.common.v1.GameRecord record, byte[] logGzip) {}

    /** What the consumer reports, for logs and metrics. */
    public interface Listener {
        Listener NONE = new Listener() {};

        default void skipped(String gameId, String why) {}

        default void abandoned(String gameId, Exception why) {}

        default void published(dev.taikai.proto.common.v1.GameRecord record) {}

        default void poison(String topic, int partition, long offset, String why) {}
    }

    private record Work(TopicPartition partition, long offset, Pairing pairing) {}

    private record Done(TopicPartition partition, long offset) {}

    private final KafkaConsumer<String, byte[]> consumer;
    private final KafkaProducer<String, byte[]> producer;
    private final TournamentStatuses statuses;
    private final Games games;
    private final Listener listener;
    private final int capacity;
    private final ExecutorService gameThreads;
    private final ArrayDeque<Work> backlog = new ArrayDeque<>();
    private final ConcurrentLinkedQueue<Done> done = new ConcurrentLinkedQueue<>();
    /** Per partition, offsets received and whether each is finished; the first unfinished one bounds commits. */
    private final Map<TopicPartition, TreeMap<Long, Boolean>> offsets = new HashMap<>();

    private final Set<TopicPartition> owned = new HashSet<>();
    private final AtomicInteger running = new AtomicInteger();
    private final ScheduledExecutorService retries = Executors.newSingleThreadScheduledExecutor(runnable -> {
        Thread thread = new Thread(runnable, "referee-publish-retry");
        thread.setDaemon(true);
        return thread;
    });
    private volatile boolean open = true;
    private volatile boolean taking = true;
    private volatile long lag;

    public PairingConsumer(
            Properties kafka,
            KafkaProducer<String, byte[]> producer,
            TournamentStatuses statuses,
            int capacity,
            Games games,
            Listener listener) {
        Properties props = new Properties();
        props.putAll(kafka);
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        props.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, String.valueOf(Math.max(1, capacity)));
        // a replica joining or leaving moves only the partitions it must, so fewer games are played twice
        props.put(
                ConsumerConfig.PARTITION_ASSIGNMENT_STRATEGY_CONFIG,
                org.apache.kafka.clients.consumer.CooperativeStickyAssignor.class.getName());
        this.consumer = new KafkaConsumer<>(props, new StringDeserializer(), new ByteArrayDeserializer());
        this.producer = producer;
        this.statuses = statuses;
        this.capacity = capacity;
        this.games = games;
        this.listener = listener;
        this.gameThreads = Executors.newFixedThreadPool(capacity, runnable -> {
            Thread thread = new Thread(runnable, "referee-game");
            thread.setDaemon(true);
            return thread;
        });
    }

    @Override
    public void run() {
        consumer.subscribe(List.of(Topics.PAIRINGS), new Rebalance());
        try {
            while (open) {
                for (ConsumerRecord<String, byte[]> record : consumer.poll(Duration.ofMillis(50))) {
                    receive(record);
                }
                finishDone();
                startGames();
                commit(false);
                flowControl();
                measureLag();
            }
        } catch (WakeupException e) {
            // closing
        } finally {
            finishDone();
            try {
                commit(true);
            } catch (RuntimeException e) {
                LOG.log(Level.WARNING, "final commit failed; the unfinished pairings will be played again", e);
            }
            consumer.close();
        }
    }

    private void receive(ConsumerRecord<String, byte[]> record) {
        TopicPartition partition = new TopicPartition(record.topic(), record.partition());
        offsets.computeIfAbsent(partition, p -> new TreeMap<>()).put(record.offset(), false);
        Pairing pairing;
        try {
            PairingEvent event = Topics.pairing(record.value() == null ? new byte[0] : record.value());
            pairing = GameMessages.pairing(event.getAssignment());
        } catch (Topics.Poison | IllegalArgumentException e) {
            deadLetter(record, e.getMessage());
            markDone(partition, record.offset());
            return;
        }
        backlog.addLast(new Work(partition, record.offset(), pairing));
    }

    /** Reports an unreadable pairing and copies it to the dead-letter topic; consumption goes on. */
    private void deadLetter(ConsumerRecord<String, byte[]> record, String why) {
        listener.poison(record.topic(), record.partition(), record.offset(), why);
        DeadLetters.copy(producer, record, "referee", why);
    }

    private void startGames() {
        if (!statuses.caughtUp()) {
            return; // a game of a tournament stopped before this referee started must not start
        }
        while (taking && running.get() < capacity && !backlog.isEmpty()) {
            Work work = backlog.pollFirst();
            if (statuses.startsNoGame(work.pairing().tournamentId())) {
                listener.skipped(work.pairing().gameId(), "its tournament has stopped");
                markDone(work.partition(), work.offset());
                continue;
            }
            running.incrementAndGet();
            gameThreads.execute(() -> play(work));
        }
    }

    /** Plays one game until it is published, trying again after an abandoned attempt. */
    private void play(Work work) {
        try {
            long pause = 500;
            while (open) {
                try {
                    var played = games.play(work.pairing());
                    publishLogThen(work, played, () -> publish(work, played.record()));
                    return;
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                } catch (Exception e) {
                    listener.abandoned(work.pairing().gameId(), e);
                    if (!stillOwned(work.partition())) {
                        return; // another referee has it now
                    }
                    Thread.sleep(pause);
                    pause = Math.min(pause * 2, 30_000);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            running.decrementAndGet();
        }
    }

    /**
     * Publishes a game's engine log, when it has one, then runs {@code then} (which publishes the record):
     * once Kafka has the log, so that whoever sees the record finds its log (the player caps the log's size
     * to fit a Kafka message). A log Kafka does not take is reported and dropped; the record goes on.
     */
    private void publishLogThen(Work work, Played played, Runnable then) {
        if (played.logGzip() == null) {
            then.run();
            return;
        }
        byte[] value = EngineLogEvent.newBuilder()
                .setSchemaVersion(Topics.SCHEMA_VERSION)
                .setTournamentId(work.pairing().tournamentId())
                .setGameId(work.pairing().gameId())
                .setLogGzip(ByteString.copyFrom(played.logGzip()))
                .setRefereeId(played.record().getRefereeId())
                .build()
                .toByteArray();
        producer.send(new ProducerRecord<>(Topics.ENGINE_LOGS, work.pairing().gameId(), value), (metadata, error) -> {
            if (error != null) {
                LOG.warning("the engine log of " + work.pairing().gameId() + " was not published: " + error);
            }
            try {
                retries.execute(then); // not on the producer's own thread, which a send may wait for
            } catch (java.util.concurrent.RejectedExecutionException closing) {
                // the referee stops: the pairing is not committed, and another referee plays it again
            }
        });
    }

    /**
     * Publishes a finished game without waiting for Kafka's answer: the game's thread is free for the next
     * game (at most the producer's {@code max.block.ms} later, when the broker is out of reach), and the
     * pairing counts as done (its offset may be committed) only when Kafka has the record. A failed send
     * (after the producer's own retries) is tried again a second later.
     */
    private void publish(Work work, dev.taikai.proto.common.v1.GameRecord record) {
        byte[] value = GameRecordEvent.newBuilder()
                .setSchemaVersion(Topics.SCHEMA_VERSION)
                .setRecord(record)
                .build()
                .toByteArray();
        producer.send(new ProducerRecord<>(Topics.GAMES, work.pairing().tournamentId(), value), (metadata, error) -> {
            if (error == null) {
                listener.published(record);
                done.add(new Done(work.partition(), work.offset()));
            } else if (open) {
                LOG.warning("publishing " + work.pairing().gameId() + " failed, trying again: " + error);
                retries.schedule(() -> publish(work, record), 1, TimeUnit.SECONDS);
            }
        });
    }

    private synchronized boolean stillOwned(TopicPartition partition) {
        return owned.contains(partition);
    }

    private void finishDone() {
        for (Done d; (d = done.poll()) != null; ) {
            markDone(d.partition(), d.offset());
        }
    }

    private void markDone(TopicPartition partition, long offset) {
        TreeMap<Long, Boolean> received = offsets.get(partition);
        if (received != null && received.containsKey(offset)) {
            received.put(offset, true);
        }
    }

    /** Commits, per partition, up to the first pairing that has not finished. */
    private void commit(boolean sync) {
        Map<TopicPartition, OffsetAndMetadata> commits = new HashMap<>();
        for (Map.Entry<TopicPartition, TreeMap<Long, Boolean>> entry : offsets.entrySet()) {
            TreeMap<Long, Boolean> received = entry.getValue();
            Long last = null;
            while (!received.isEmpty() && received.firstEntry().getValue()) {
                last = received.pollFirstEntry().getKey();
            }
            if (last != null) {
                commits.put(entry.getKey(), new OffsetAndMetadata(last + 1));
            }
        }
        if (commits.isEmpty()) {
            return;
        }
        if (sync) {
            consumer.commitSync(commits);
        } else {
            consumer.commitAsync(commits, (committed, error) -> {
                if (error != null) {
                    LOG.warning("commit failed (the pairings will be played again if this referee stops): " + error);
                }
            });
        }
    }

    /** Pauses fetching while the games in hand fill the capacity; resumes when they no longer do. */
    private void flowControl() {
        Set<TopicPartition> assigned = consumer.assignment();
        if (!taking || running.get() + backlog.size() >= capacity) {
            consumer.pause(assigned);
        } else {
            consumer.resume(assigned);
        }
    }

    /** Pairings in Kafka that this consumer has not fetched yet, summed over its partitions. */
    private void measureLag() {
        long total = 0;
        for (TopicPartition partition : consumer.assignment()) {
            total += consumer.currentLag(partition).orElse(0);
        }
        lag = total + backlog.size();
    }

    /** Pairings waiting for this referee: not yet fetched from its partitions, or fetched and not started. */
    public long lag() {
        return lag;
    }

    /** Games running now. */
    public int running() {
        return running.get();
    }

    /** Stops starting games; running games go on (for a graceful shutdown). */
    public void stopTaking() {
        taking = false;
    }

    /** Waits up to {@code millis} for running games to finish; true when none is left. */
    public boolean awaitIdle(long millis) throws InterruptedException {
        long deadline = System.nanoTime() + millis * 1_000_000;
        while (running.get() > 0 && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
        return running.get() == 0;
    }

    @Override
    public void close() {
        open = false;
        consumer.wakeup();
        gameThreads.shutdownNow();
        retries.shutdownNow();
        try {
            gameThreads.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private final class Rebalance implements ConsumerRebalanceListener {
        @Override
        public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
            finishDone();
            commit(true);
            forget(partitions);
        }

        @Override
        public void onPartitionsLost(Collection<TopicPartition> partitions) {
            LOG.warning("pairing partitions lost (their games will be played elsewhere): " + partitions);
            forget(partitions);
        }

        @Override
        public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
            synchronized (PairingConsumer.this) {
                owned.addAll(partitions);
            }
            if (!partitions.isEmpty()) {
                LOG.info("pairing partitions assigned: " + partitions);
            }
        }

        /** Games not yet started go back; running ones finish (a duplicate record is counted once). */
        private void forget(Collection<TopicPartition> partitions) {
            synchronized (PairingConsumer.this) {
                owned.removeAll(partitions);
            }
            backlog.removeIf(work -> partitions.contains(work.partition()));
            partitions.forEach(offsets::remove);
        }
    }
}
