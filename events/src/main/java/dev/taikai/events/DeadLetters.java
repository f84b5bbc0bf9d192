package dev.taikai.events;

import java.util.logging.Logger;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;

/** The one way a service copies a message it cannot use to {@link Topics#DEAD_LETTERS}. */
public final class DeadLetters {
    private static final Logger LOG = Logger.getLogger(DeadLetters.class.getName());

    private DeadLetters() {}

    /**
     * Copies {@code record}'s bytes to the dead-letter topic, keyed by where it came from and with headers
     * saying that {@code service} refused it and why ({@link DeadLetter}); a copy that fails is logged,
     * and consumption goes on either way.
     */
    public static void copy(
            Producer<String, byte[]> producer, ConsumerRecord<String, byte[]> record, String service, String why) {
        DeadLetter letter =
                new DeadLetter(record.topic(), record.partition(), record.offset(), record.key(), service, why);
        ProducerRecord<String, byte[]> copy = new ProducerRecord<>(Topics.DEAD_LETTERS, letter.key(), record.value());
        letter.headers().forEach((name, value) -> copy.headers().add(name, value));
        producer.send(copy, (metadata, error) -> {
            if (error != null) {
                LOG.warning("could not copy " + letter.key() + " to " + Topics.DEAD_LETTERS + ": " + error);
            }
        });
    }
}
