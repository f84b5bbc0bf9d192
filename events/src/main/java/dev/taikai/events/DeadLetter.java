package dev.taikai.events;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A message no consumer could read, as it goes to {@link Topics#DEAD_LETTERS}: the original bytes, keyed by
 * where they came from ({@code topic/partition/offset}, so that reading the same message again, as a
 * scheduler does on every start, publishes nothing new once the compacted topic has collapsed the copies),
 * with headers saying who refused it and why.
 */
public record DeadLetter(String topic, int partition, long offset, String originalKey, String service, String reason) {
    public static final String SOURCE_TOPIC = "taikai.source-topic";
    public static final String SOURCE_PARTITION = "taikai.source-partition";
    public static final String SOURCE_OFFSET = "taikai.source-offset";
    public static final String SOURCE_KEY = "taikai.source-key";
    public static final String SERVICE = "taikai.service";
    public static final String REASON = "taikai.reason";

    /** Reasons are cut to this many characters. */
    public static final int MAX_REASON = 1000;

    public String key() {
        return topic + "/" + partition + "/" + offset;
    }

    /** The headers, in a fixed order, as UTF-8 bytes; an absent original key has no header. */
    public Map<String, byte[]> headers() {
        Map<String, byte[]> headers = new LinkedHashMap<>();
        headers.put(SOURCE_TOPIC, bytes(topic));
        headers.put(SOURCE_PARTITION, bytes(String.valueOf(partition)));
        headers.put(SOURCE_OFFSET, bytes(String.valueOf(offset)));
        if (originalKey != null) {
            headers.put(SOURCE_KEY, bytes(originalKey));
        }
        headers.put(SERVICE, bytes(service));
        String why = reason == null ? "" : reason;
        headers.put(REASON, bytes(why.length() > MAX_REASON ? why.substring(0, MAX_REASON) : why));
        return headers;
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
