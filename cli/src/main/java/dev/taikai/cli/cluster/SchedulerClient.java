package dev.taikai.cli.cluster;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.Message;
import com.google.protobuf.util.JsonFormat;
import dev.taikai.proto.scheduler.v1.GetGameRecordsResponse;
import dev.taikai.proto.tournament.v1.TournamentSpec;
import dev.taikai.proto.tournament.v1.TournamentState;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/** The scheduler's HTTP API as the command line uses it: JSON, and game records as binary protobuf. */
public final class SchedulerClient {
    /** The media type of the scheduler's binary answers. */
    private static final String PROTOBUF = "application/x-protobuf";

    /** The scheduler answered with an error; {@code status} is the HTTP status. */
    public static final class Refused extends IOException {
        private final int status;

        Refused(int status, String message) {
            super(message);
            this.status = status;
        }

        public int status() {
            return status;
        }
    }

    private final String base;
    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private final String token;

    /** @param token the bearer token sent with every request, or null to send none */
    public SchedulerClient(String base, String token) {
        this.base = base;
        this.token = token;
    }

    public TournamentState create(TournamentSpec spec) throws IOException, InterruptedException {
        String body = JsonFormat.printer().print(spec);
        return parse(
                send(HttpRequest.newBuilder(URI.create(base + "/api/tournaments"))
                        .header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString(body))),
                TournamentState.newBuilder());
    }

    public TournamentState state(String id) throws IOException, InterruptedException {
        return parse(
                send(HttpRequest.newBuilder(URI.create(base + "/api/tournaments/" + encode(id)))
                        .GET()),
                TournamentState.newBuilder());
    }

    /** A page of records, fetched as binary protobuf: records carry every move, and JSON would cost more. */
    public GetGameRecordsResponse records(String id, int offset, int limit) throws IOException, InterruptedException {
        return records(id, offset, limit, 0);
    }

    /**
     * A page of records as {@link #records(String, int, int)}; when there is none past {@code offset} yet and
     * the tournament runs, the scheduler waits up to {@code waitMillis} for the next (at most 30 000).
     */
    public GetGameRecordsResponse records(String id, int offset, int limit, int waitMillis)
            throws IOException, InterruptedException {
        byte[] body = send(
                HttpRequest.newBuilder(URI.create(base + "/api/tournaments/" + encode(id) + "/games?offset=" + offset
                                + "&limit=" + limit + "&wait-ms=" + waitMillis))
                        .header("Accept", PROTOBUF)
                        .GET(),
                HttpResponse.BodyHandlers.ofByteArray());
        try {
            return GetGameRecordsResponse.parseFrom(body);
        } catch (InvalidProtocolBufferException e) {
            throw new IOException("the scheduler's answer is not what its API promises: " + e.getMessage(), e);
        }
    }

    public TournamentState cancel(String id, String reason) throws IOException, InterruptedException {
        return parse(
                send(HttpRequest.newBuilder(
                                URI.create(base + "/api/tournaments/" + encode(id) + "?reason=" + encode(reason)))
                        .DELETE()),
                TournamentState.newBuilder());
    }

    private String send(HttpRequest.Builder request) throws IOException, InterruptedException {
        return send(request, HttpResponse.BodyHandlers.ofString());
    }

    private <T> T send(HttpRequest.Builder request, HttpResponse.BodyHandler<T> handler)
            throws IOException, InterruptedException {
        if (token != null) {
            request.header("Authorization", "Bearer " + token);
        }
        HttpResponse<T> response =
                http.send(request.timeout(Duration.ofSeconds(30)).build(), handler);
        if (response.statusCode() / 100 != 2) {
            T raw = response.body();
            String text = raw instanceof byte[] bytes ? new String(bytes, StandardCharsets.UTF_8) : String.valueOf(raw);
            String message = text;
            try {
                JsonNode error = new ObjectMapper().readTree(text);
                if (error.has("error")) {
                    message = error.get("error").asText();
                }
            } catch (IOException e) {
                // not JSON: keep the body as it is
            }
            throw new Refused(response.statusCode(), message);
        }
        return response.body();
    }

    @SuppressWarnings("unchecked")
    private static <T extends Message> T parse(String json, Message.Builder builder) throws IOException {
        try {
            JsonFormat.parser().ignoringUnknownFields().merge(json, builder);
        } catch (InvalidProtocolBufferException e) {
            throw new IOException("the scheduler's answer is not what its API promises: " + e.getMessage(), e);
        }
        return (T) builder.build();
    }

    private static String encode(String text) {
        return URLEncoder.encode(text, StandardCharsets.UTF_8);
    }
}
