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

/** The scheduler's HTTP JSON API as the command line uses it. */
public final class SchedulerClient {
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

    public GetGameRecordsResponse records(String id, int offset, int limit) throws IOException, InterruptedException {
        return parse(
                send(HttpRequest.newBuilder(URI.create(base + "/api/tournaments/" + encode(id) + "/games?offset="
                                + offset + "&limit=" + limit))
                        .GET()),
                GetGameRecordsResponse.newBuilder());
    }

    public TournamentState cancel(String id, String reason) throws IOException, InterruptedException {
        return parse(
                send(HttpRequest.newBuilder(
                                URI.create(base + "/api/tournaments/" + encode(id) + "?reason=" + encode(reason)))
                        .DELETE()),
                TournamentState.newBuilder());
    }

    private String send(HttpRequest.Builder request) throws IOException, InterruptedException {
        if (token != null) {
            request.header("Authorization", "Bearer " + token);
        }
        HttpResponse<String> response =
                http.send(request.timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() / 100 != 2) {
            String message = response.body();
            try {
                JsonNode error = new ObjectMapper().readTree(response.body());
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
