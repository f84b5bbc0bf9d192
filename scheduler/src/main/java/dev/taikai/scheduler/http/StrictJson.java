package dev.taikai.scheduler.http;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.Message;
import com.google.protobuf.util.JsonFormat;

/**
 * Request bodies read as strict JSON (RFC 8259: one value, no comments, no trailing text, no key twice)
 * and then as the protobuf message they must be. protobuf's own JSON reader is lenient (it takes
 * {@code }}}} after the value, comments and repeated keys, the last one winning), so the text is checked
 * first. Every refusal is one line that says what is wrong and where, naming no library.
 */
final class StrictJson {
    private static final JsonMapper MAPPER = JsonMapper.builder()
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .disable(JsonReadFeature.ALLOW_JAVA_COMMENTS)
            .disable(JsonReadFeature.ALLOW_SINGLE_QUOTES)
            .build();

    private StrictJson() {}

    /**
     * A body as text. JSON is UTF-8 (RFC 8259): a body that is not, or whose {@code contentType} names
     * another charset, is refused, where it was decoded with replacement characters that a tournament's
     * name then kept.
     *
     * @throws IllegalArgumentException naming the charset, or the byte where the body stops being UTF-8
     */
    static String utf8(byte[] body, String contentType) {
        if (contentType != null) {
            for (String parameter : contentType.split(";")) {
                String[] pair = parameter.strip().split("=", 2);
                if (pair.length == 2 && pair[0].strip().equalsIgnoreCase("charset")) {
                    String charset = pair[1].strip().replace("\"", "");
                    if (!charset.equalsIgnoreCase("utf-8") && !charset.equalsIgnoreCase("utf8")) {
                        throw new IllegalArgumentException("the body's charset is '"
                                + dev.taikai.enginehost.catalog.EngineText.shown(charset)
                                + "': JSON is UTF-8 (say charset=utf-8, or no charset)");
                    }
                }
            }
        }
        var decoder = java.nio.charset.StandardCharsets.UTF_8
                .newDecoder()
                .onMalformedInput(java.nio.charset.CodingErrorAction.REPORT)
                .onUnmappableCharacter(java.nio.charset.CodingErrorAction.REPORT);
        java.nio.ByteBuffer in = java.nio.ByteBuffer.wrap(body);
        java.nio.CharBuffer out = java.nio.CharBuffer.allocate(body.length);
        if (decoder.decode(in, out, true).isError() || decoder.flush(out).isError()) {
            throw new IllegalArgumentException("the body is not UTF-8: a malformed sequence at byte " + in.position());
        }
        return out.flip().toString();
    }

    /**
     * Merges {@code body} into {@code message}.
     *
     * @throws IllegalArgumentException with a one-line reason when the body is not strict JSON or not
     *     the message
     */
    static void merge(String body, Message.Builder message) {
        try (JsonParser parser = MAPPER.createParser(body)) {
            com.fasterxml.jackson.databind.JsonNode value = MAPPER.readTree(parser);
            if (value == null || !value.isObject()) {
                throw new IllegalArgumentException(
                        "the body must be a " + message.getDescriptorForType().getName() + " as a JSON object, not "
                                + (value == null || value.isMissingNode()
                                        ? "nothing"
                                        : value.getNodeType().name().toLowerCase(java.util.Locale.ROOT)));
            }
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException(
                    "not a " + message.getDescriptorForType().getName() + " in JSON" + where(e.getLocation()) + ": "
                            + reason(e));
        } catch (java.io.IOException e) {
            throw new IllegalArgumentException("the body cannot be read: " + e.getMessage());
        }
        try {
            JsonFormat.parser().merge(body, message);
        } catch (InvalidProtocolBufferException | RuntimeException e) {
            throw new IllegalArgumentException(
                    "not a " + message.getDescriptorForType().getName() + ": " + clean(e));
        }
    }

    private static String where(JsonLocation location) {
        return location == null || location.getLineNr() < 0
                ? ""
                : " (line " + location.getLineNr() + ", column " + location.getColumnNr() + ")";
    }

    /** What Jackson found, in words of our own for the strict rules, its own first clause otherwise. */
    private static String reason(JsonProcessingException e) {
        String original = e.getOriginalMessage() == null ? "" : e.getOriginalMessage();
        if (original.startsWith("Duplicate field ")) {
            return "the key " + original.substring("Duplicate field ".length()) + " appears twice";
        }
        if (original.startsWith("Trailing token")) {
            return "text follows the end of the JSON value";
        }
        if (original.contains("comment")) {
            return "comments are not JSON";
        }
        if (original.startsWith("No content") || original.contains("end-of-input")) {
            return "the body ends before the JSON value does";
        }
        String first = original.split("[\\n:]", 2)[0].strip();
        return first.length() > 120 ? first.substring(0, 120) + "..." : first;
    }

    /** An exception's message without the class names of the libraries behind it, on one line. */
    static String clean(Exception e) {
        String message = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
        message = message.replaceAll("(?:[a-z][a-z0-9_]*\\.)+[A-Z][A-Za-z0-9_$]*(?:Exception|Error): ", "");
        message = message.replaceAll("\\s+", " ").strip();
        return message.length() > 300 ? message.substring(0, 300) + "..." : message;
    }
}
