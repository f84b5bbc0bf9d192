package dev.taikai.cli.cluster;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.MessageLite;
import com.google.protobuf.Parser;
import dev.taikai.proto.scheduler.v1.GetGameRecordsResponse;
import dev.taikai.proto.tournament.v1.TournamentSpec;
import dev.taikai.proto.tournament.v1.TournamentState;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.HttpURLConnection;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import javax.net.ssl.HttpsURLConnection;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocketFactory;

/**
 * The scheduler's HTTP API as the command line uses it: every message in binary protobuf (the same
 * messages as the JSON API, at a fraction of the cost to both sides; docs/distributed.md). Plain
 * {@link HttpURLConnection}: a client that starts, asks a few questions and exits is not worth an HTTP/2
 * client's start-up.
 */
public final class SchedulerClient {
    /** The media type of the scheduler's binary messages. */
    private static final String PROTOBUF = "application/x-protobuf";
    /** Errors come back in JSON whatever was asked for. */
    private static final String ACCEPT = PROTOBUF + ", application/json;q=0.5";

    static {
        // the JDK sends a POST again, once, when its answer times out: a tournament would be created twice
        System.setProperty("sun.net.http.retryPost", "false");
    }

    private static final int CONNECT_MILLIS = 5_000;
    /**
     * Longer than the longest wait for records (30 s) that a request may ask the scheduler for, and than its
     * own wait for Kafka (a producer's 60 s), so that its answer then (503, Kafka does not answer) arrives.
     */
    private static final int READ_MILLIS = 90_000;

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

    /** The scheduler could not be reached, or stopped answering: what happened, in words, and where. */
    public static final class Unreachable extends IOException {
        Unreachable(String base, IOException cause) {
            super("the scheduler at " + base + " " + why(cause), cause);
        }

        private static String why(IOException e) {
            if (e instanceof java.net.ConnectException) {
                return "refuses connections (is the cluster up? './taikai cluster status')";
            }
            if (e instanceof java.net.SocketTimeoutException) {
                return "did not answer in time";
            }
            if (e instanceof javax.net.ssl.SSLException) {
                return "broke off the TLS connection (" + e.getMessage() + ")";
            }
            if (e instanceof java.net.SocketException && e.getMessage() != null) {
                return "broke off the connection (" + e.getMessage() + ")"; // e.g. "Unexpected end of file"
            }
            return "could not be asked ("
                    + (e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage()) + ")";
        }
    }

    private final String base;
    private final String token;
    /**
     * One factory for every request: the JDK reuses a kept-alive HTTPS connection only for the same factory,
     * and a new one per request would cost a TLS handshake each, on both sides.
     */
    private final SSLSocketFactory tls;

    /** @param token the bearer token sent with every request, or null to send none */
    public SchedulerClient(String base, String token) {
        this(base, token, null);
    }

    /**
     * @param token the bearer token sent with every request, or null to send none
     * @param tls for an {@code https} base: the context that trusts the scheduler's CA (null: the JDK's)
     */
    public SchedulerClient(String base, String token, SSLContext tls) {
        this.base = base;
        this.token = token;
        this.tls = tls == null ? null : tls.getSocketFactory();
    }

    /**
     * Opens the connection with the scheduler's liveness check (open to all), so that the next request finds
     * it kept alive: for HTTPS, the JDK's TLS is then loaded and the handshake made.
     */
    public void connect() throws IOException {
        bytes("GET", "/q/health/live", null, "application/json");
    }

    public TournamentState create(TournamentSpec spec) throws IOException {
        return send("POST", "/api/tournaments", spec.toByteArray(), TournamentState.parser());
    }

    public TournamentState state(String id) throws IOException {
        return send("GET", "/api/tournaments/" + encode(id), null, TournamentState.parser());
    }

    /** A page of records: at most {@code limit} from {@code offset}, with the total and the tournament's state. */
    public GetGameRecordsResponse records(String id, int offset, int limit) throws IOException {
        return records(id, offset, limit, 0);
    }

    /**
     * A page of records as {@link #records(String, int, int)}; when there is none past {@code offset} yet and
     * the tournament runs, the scheduler waits up to {@code waitMillis} for the next (at most 30 000).
     */
    public GetGameRecordsResponse records(String id, int offset, int limit, int waitMillis) throws IOException {
        return send(
                "GET",
                "/api/tournaments/" + encode(id) + "/games?offset=" + offset + "&limit=" + limit + "&wait-ms="
                        + waitMillis,
                null,
                GetGameRecordsResponse.parser());
    }

    public TournamentState cancel(String id, String reason) throws IOException {
        return send(
                "DELETE",
                "/api/tournaments/" + encode(id) + "?reason=" + encode(reason),
                null,
                TournamentState.parser());
    }

    /**
     * The gzip-compressed engine log of game {@code localId}, or empty when the scheduler has none (the
     * tournament keeps no engine logs and no engine of that game failed).
     */
    public Optional<byte[]> engineLog(String id, String localId) throws IOException {
        try {
            return Optional.of(bytes(
                    "GET",
                    "/api/tournaments/" + encode(id) + "/games/" + encode(localId) + "/log",
                    null,
                    "application/gzip, application/json;q=0.5"));
        } catch (Refused e) {
            if (e.status() == 404) {
                return Optional.empty();
            }
            throw e;
        }
    }

    /** One request; {@code body} (binary protobuf) is sent when not null. */
    private <T extends MessageLite> T send(String method, String path, byte[] body, Parser<T> answer)
            throws IOException {
        byte[] bytes = bytes(method, path, body, ACCEPT);
        try {
            return answer.parseFrom(bytes);
        } catch (InvalidProtocolBufferException e) {
            throw new IOException("the scheduler's answer is not what its API promises: " + e.getMessage(), e);
        }
    }

    /** One request, its answer's body; {@code body} (binary protobuf) is sent when not null. */
    private byte[] bytes(String method, String path, byte[] body, String accept) throws IOException {
        try {
            return request(method, path, body, accept);
        } catch (Refused | Unreachable e) {
            throw e;
        } catch (IOException e) {
            throw new Unreachable(base, e);
        }
    }

    private byte[] request(String method, String path, byte[] body, String accept) throws IOException {
        // each answer is read to its end and closed, so that the next request reuses the connection
        HttpURLConnection http =
                (HttpURLConnection) URI.create(base + path).toURL().openConnection();
        if (tls != null && http instanceof HttpsURLConnection https) {
            https.setSSLSocketFactory(tls);
        }
        http.setRequestMethod(method);
        http.setConnectTimeout(CONNECT_MILLIS);
        http.setReadTimeout(READ_MILLIS);
        http.setRequestProperty("Accept", accept);
        if (token != null) {
            http.setRequestProperty("Authorization", "Bearer " + token);
        }
        if (body != null) {
            http.setDoOutput(true);
            http.setRequestProperty("Content-Type", PROTOBUF);
            http.setFixedLengthStreamingMode(body.length);
            try (OutputStream out = http.getOutputStream()) {
                out.write(body);
            }
        }
        int status = http.getResponseCode();
        if (status / 100 != 2) {
            String text = "";
            try (InputStream error = http.getErrorStream()) {
                if (error != null) {
                    text = new String(error.readAllBytes(), StandardCharsets.UTF_8);
                }
            }
            throw new Refused(status, message(text));
        }
        try (InputStream in = http.getInputStream()) {
            return in.readAllBytes();
        }
    }

    /** The {@code error} of the scheduler's JSON error, or the body as it is. */
    private static String message(String body) {
        try {
            JsonNode error = new ObjectMapper().readTree(body);
            if (error != null && error.has("error")) {
                return error.get("error").asText();
            }
        } catch (IOException e) {
            // not JSON: keep the body as it is
        }
        return body;
    }

    private static String encode(String text) {
        return URLEncoder.encode(text, StandardCharsets.UTF_8);
    }
}
