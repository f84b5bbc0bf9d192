package dev.taikai.scheduler.kafka;

import dev.taikai.events.Topics;
import dev.taikai.proto.events.v1.LiveEvent;
import dev.taikai.scheduler.live.LiveView;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * Follows {@link Topics#LIVE} into the {@link LiveView}, from the topic's beginning (an hour), so a
 * scheduler that starts knows the games in play. No group: every scheduler reads it all, and nothing
 * is committed. A value that is not a live event is skipped (it changes nothing that is counted).
 */
public final class LiveConsumer implements Runnable, AutoCloseable {
    private static final Logger LOG = Logger.getLogger(LiveConsumer.class.getName());

    private final KafkaConsumer<String, byte[]> consumer;
    private final LiveView view;
    private volatile boolean closed;

    public LiveConsumer(Properties kafka, LiveView view) {
        Properties props = new Properties();
        props.putAll(kafka);
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        props.put(ConsumerConfig.CLIENT_ID_CONFIG, "scheduler-live");
        // a fetch waits up to 50 ms for 64 KiB of events rather than returning each move on its own: the
        // view is at most that much later, and the broker answers tens of fetches a second, not hundreds
        props.put(ConsumerConfig.FETCH_MIN_BYTES_CONFIG, String.valueOf(64 * 1024));
        props.put(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, "50");
        this.consumer = new KafkaConsumer<>(props, new StringDeserializer(), new ByteArrayDeserializer());
        this.view = view;
    }

    @Override
    public void run() {
        try {
            List<TopicPartition> partitions = consumer.partitionsFor(Topics.LIVE, Duration.ofSeconds(30)).stream()
                    .map(p -> new TopicPartition(Topics.LIVE, p.partition()))
                    .toList();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            while (!closed) {
                List<LiveEvent> batch = new ArrayList<>();
                for (ConsumerRecord<String, byte[]> record : consumer.poll(Duration.ofMillis(500))) {
                    try {
                        batch.add(Topics.live(record.value()));
                    } catch (Topics.Poison e) {
                        LOG.log(Level.FINE, "live topic: skipped offset {0}: {1}", new Object[] {
                            record.offset(), e.getMessage()
                        });
                    }
                }
                if (!batch.isEmpty()) {
                    view.acceptAll(batch); // a poll's events under one lock, not one lock a move
                }
            }
        } catch (WakeupException e) {
            // closing
        } catch (RuntimeException e) {
            LOG.warning("the live view stopped following " + Topics.LIVE + ": " + e);
        } finally {
            consumer.close();
        }
    }

    @Override
    public void close() {
        closed = true;
        consumer.wakeup();
    }
}
