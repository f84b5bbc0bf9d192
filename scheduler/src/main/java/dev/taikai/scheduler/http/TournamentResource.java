package dev.taikai.scheduler.http;

import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.Message;
import com.google.protobuf.util.JsonFormat;
import dev.taikai.access.quarkus.AccessControl;
import dev.taikai.enginehost.catalog.EngineText;
import dev.taikai.proto.tournament.v1.TournamentSpec;
import dev.taikai.proto.tournament.v1.TournamentState;
import dev.taikai.scheduler.registry.EngineLogs;
import dev.taikai.scheduler.registry.Refusal;
import dev.taikai.scheduler.registry.Scheduler;
import io.vertx.ext.web.RoutingContext;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.DefaultValue;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import org.eclipse.microprofile.context.ManagedExecutor;

/**
 * The scheduler's API as JSON over HTTP: the protobuf messages of scheduler.proto in protobuf's JSON
 * mapping (docs/distributed.md). Tournaments are created, read and cancelled, and records read, also in
 * binary protobuf ({@value #PROTOBUF} in {@code Content-Type} and {@code Accept}: what the command line
 * speaks). Errors are {@code {"error": "..."}} in JSON with 400, 404 or 503.
 */
@Path("/api/tournaments")
@Produces({MediaType.APPLICATION_JSON, TournamentResource.PROTOBUF})
public class TournamentResource {
    /** The media type of binary protobuf answers. */
    public static final String PROTOBUF = "application/x-protobuf";

    private static final int MAX_BODY = 4 << 20;
    /** The longest a request for records may wait for the next one. */
    static final int MAX_WAIT_MILLIS = 30_000;

    @Inject
    Scheduler scheduler;

    @Inject
    EngineLogs engineLogs;

    /** Quarkus's worker threads: answers are made there, never on the event loop or the counting thread. */
    @Inject
    ManagedExecutor workers;

    private final LongPolls longPolls = new LongPolls();

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    public Response create(
            byte[] body,
            @HeaderParam("Content-Type") String contentType,
            @HeaderParam("Accept") @DefaultValue("") String accept) {
        if (body == null || body.length > MAX_BODY) {
            return error(400, "the body must be a TournamentSpec in JSON of at most 4 MiB");
        }
        TournamentSpec.Builder spec = TournamentSpec.newBuilder();
        try {
            StrictJson.merge(StrictJson.utf8(body, contentType), spec);
        } catch (IllegalArgumentException e) {
            return error(400, e.getMessage());
        }
        return create(spec.build(), accept);
    }

    /** The same as {@link #create(byte[], String, String)} from a binary {@code TournamentSpec}. */
    @POST
    @Consumes(PROTOBUF)
    public Response createFromProtobuf(byte[] body, @HeaderParam("Accept") @DefaultValue("") String accept) {
        if (body == null || body.length > MAX_BODY) {
            return error(400, "the body must be a binary TournamentSpec of at most 4 MiB");
        }
        try {
            return create(TournamentSpec.parseFrom(body), accept);
        } catch (InvalidProtocolBufferException e) {
            return error(400, "not a TournamentSpec in binary protobuf: " + StrictJson.clean(e));
        }
    }

    private Response create(TournamentSpec spec, String accept) {
        try {
            return answer(201, scheduler.create(spec), accept);
        } catch (Refusal refusal) {
            return refused(refusal);
        }
    }

    @GET
    public Response list() {
        return json(
                200,
                dev.taikai.proto.scheduler.v1.ListTournamentsResponse.newBuilder()
                        .addAllTournaments(scheduler.book().states())
                        .build());
    }

    @GET
    @Path("{id}")
    public Response get(@PathParam("id") String id, @HeaderParam("Accept") @DefaultValue("") String accept) {
        return found(id, scheduler.book().state(id), accept);
    }

    @GET
    @Path("{id}/standings")
    public Response standings(@PathParam("id") String id) {
        return found(id, scheduler.book().standings(id));
    }

    /**
     * Game records in JSON, or as a binary {@code GetGameRecordsResponse} when the caller accepts
     * {@value #PROTOBUF} (records carry every move, and binary costs both sides a fraction of JSON). With
     * {@code wait-ms}, a request that would find no record past {@code offset} of a running tournament
     * waits up to that long for one (a long poll). A waiting poll holds no thread, and one caller may have
     * at most {@value LongPolls#PER_CALLER} open (more: 429), so no viewer can slow other callers.
     */
    @GET
    @Path("{id}/games")
    public CompletionStage<Response> games(
            @PathParam("id") String id,
            @QueryParam("offset") @DefaultValue("0") String offsetText,
            @QueryParam("limit") @DefaultValue("100") String limitText,
            @QueryParam("wait-ms") @DefaultValue("0") String waitText,
            @HeaderParam("Accept") @DefaultValue("") String accept,
            @Context RoutingContext routing) {
        int offset;
        int limit;
        int waitMillis;
        try {
            offset = number("offset", offsetText, 0, Integer.MAX_VALUE);
            limit = number("limit", limitText, 1, 1000);
            waitMillis = number("wait-ms", waitText, 0, MAX_WAIT_MILLIS);
        } catch (IllegalArgumentException e) {
            return CompletableFuture.completedFuture(error(400, e.getMessage()));
        }
        if (waitMillis == 0) {
            return CompletableFuture.supplyAsync(
                    () -> found(id, scheduler.book().records(id, offset, limit), accept), workers);
        }
        String caller = AccessControl.caller(routing);
        Optional<String> refused = longPolls.admit(caller);
        if (refused.isPresent()) {
            return CompletableFuture.completedFuture(error(429, refused.get()));
        }
        return scheduler
                .book()
                .whenRecords(id, offset)
                .completeOnTimeout(null, waitMillis, TimeUnit.MILLISECONDS)
                .thenApplyAsync(ready -> found(id, scheduler.book().records(id, offset, limit), accept), workers)
                .whenComplete((answer, failure) -> longPolls.release(caller));
    }

    /**
     * One counted game as KIF ({@code game} is its local id), as {@code taikai run} writes it: the
     * dashboard's viewer links it. 404 for an unknown tournament or game.
     */
    @GET
    @Path("{id}/games/{game}/kif")
    @Produces("text/plain; charset=utf-8")
    public Response kif(@PathParam("id") String id, @PathParam("game") String game) {
        var found = scheduler.book().records(id, 0, Integer.MAX_VALUE);
        if (found.isEmpty()) {
            return error(404, "no tournament " + EngineText.shown(id));
        }
        for (var record : found.get().getRecordsList()) {
            if (record.getAssignment().getLocalId().equals(game)) {
                var read = dev.taikai.referee.messages.GameMessages.record(record);
                String name = found.get().getState().getSpec().getName();
                return Response.ok(dev.taikai.referee.game.Kif.write(read.record(), name))
                        .header("Content-Disposition", "inline; filename=\"" + game + ".kif\"")
                        .build();
            }
        }
        return error(404, "no counted game " + EngineText.shown(game) + " in tournament " + EngineText.shown(id));
    }

    /**
     * The engine log of one game ({@code game} is its local id, as in its record): gzip-compressed text,
     * one line to or from an engine a line (docs/distributed.md, Engine logs). 404 when the tournament is
     * unknown or the game has no log (its tournament does not keep logs and no engine failed, or the log is
     * older than a week); 503 when Kafka does not answer.
     */
    @GET
    @Path("{id}/games/{game}/log")
    @Produces({GZIP, MediaType.APPLICATION_JSON})
    public CompletionStage<Response> log(@PathParam("id") String id, @PathParam("game") String game) {
        return CompletableFuture.supplyAsync(
                () -> {
                    if (scheduler.book().state(id).isEmpty()) {
                        return error(404, "no tournament '" + id + "'");
                    }
                    if (!GAME_ID.matcher(game).matches()) {
                        return error(
                                400,
                                "game '" + EngineText.shown(game)
                                        + "' is not a game id (as its record says, r1-p1-g1)");
                    }
                    try {
                        Optional<byte[]> log = engineLogs.log(id, game);
                        return log.isPresent()
                                ? Response.ok(log.get()).type(GZIP).build()
                                : error(
                                        404,
                                        "no engine log of game '" + game + "' in tournament '" + id
                                                + "' (kept when the tournament keeps engine logs or an engine"
                                                + " failed, for a week)");
                    } catch (EngineLogs.Unavailable e) {
                        return error(503, e.getMessage());
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        return error(503, "interrupted");
                    }
                },
                workers);
    }

    private static final java.util.regex.Pattern ASCII_NUMBER = java.util.regex.Pattern.compile("[0-9]{1,18}");

    private static final java.util.regex.Pattern GAME_ID = java.util.regex.Pattern.compile("[A-Za-z0-9._-]{1,64}");

    /** The media type of an engine log. */
    public static final String GZIP = "application/gzip";

    /**
     * A whole number query parameter within bounds, or an error that says which and why. ASCII digits only:
     * Java would read other scripts' digits too (full-width ones, say), which no other program takes.
     */
    private static int number(String name, String text, int min, int max) {
        if (ASCII_NUMBER.matcher(text).matches()) {
            long value = Long.parseLong(text);
            if (value >= min && value <= max) {
                return (int) value;
            }
        }
        throw new IllegalArgumentException(
                name + " must be a whole number from " + min + " to " + max + ", not '" + EngineText.shown(text) + "'");
    }

    @DELETE
    @Path("{id}")
    public Response cancel(
            @PathParam("id") String id,
            @QueryParam("reason") @DefaultValue("") String reason,
            @HeaderParam("Accept") @DefaultValue("") String accept) {
        try {
            return found(id, scheduler.cancel(id, reason), accept);
        } catch (Refusal refusal) {
            return refused(refusal);
        }
    }

    /** League only: an engine joins the pool from the next round on; the body is an Entrant in JSON. */
    @POST
    @Path("{id}/entrants")
    @Consumes(MediaType.APPLICATION_JSON)
    public Response join(@PathParam("id") String id, byte[] body, @HeaderParam("Content-Type") String contentType) {
        if (body == null || body.length > 64 * 1024) {
            return error(400, "the body must be an Entrant in JSON of at most 64 KiB");
        }
        dev.taikai.proto.tournament.v1.Entrant.Builder entrant = dev.taikai.proto.tournament.v1.Entrant.newBuilder();
        try {
            StrictJson.merge(StrictJson.utf8(body, contentType), entrant);
        } catch (IllegalArgumentException e) {
            return error(400, e.getMessage());
        }
        return changeLeague(id, () -> scheduler.joinLeague(id, entrant.build()));
    }

    /** League only: an engine leaves the pool; its games in play still count. */
    @DELETE
    @Path("{id}/entrants/{name}")
    public Response leave(@PathParam("id") String id, @PathParam("name") String name) {
        return changeLeague(id, () -> scheduler.leaveLeague(id, name));
    }

    private static Response changeLeague(String id, java.util.function.Supplier<Optional<TournamentState>> change) {
        try {
            return found(id, change.get());
        } catch (Refusal refusal) {
            return refused(refusal);
        }
    }

    /** The one mapping of the scheduler's refusals to HTTP codes (docs/distributed.md, "Refusals"). */
    public static Response refused(Refusal refusal) {
        int status = switch (refusal.reason()) {
            case INVALID -> 400;
            case CONFLICT, STOPPED -> 409;
            case UNAVAILABLE -> 503;
        };
        return error(status, refusal.getMessage());
    }

    private static Response found(String id, Optional<? extends Message> value) {
        return found(id, value, "");
    }

    private static Response found(String id, Optional<? extends Message> value, String accept) {
        return value.isPresent() ? answer(200, value.get(), accept) : error(404, "no tournament '" + id + "'");
    }

    /** {@code message} in binary when the caller accepts {@value #PROTOBUF}, otherwise in JSON. */
    private static Response answer(int status, Message message, String accept) {
        if (accept.contains(PROTOBUF)) {
            return Response.status(status)
                    .entity(message.toByteArray())
                    .type(PROTOBUF)
                    .build();
        }
        return json(status, message);
    }

    private static Response json(int status, Message message) {
        try {
            return Response.status(status)
                    .entity(JsonFormat.printer().print(message))
                    .type(MediaType.APPLICATION_JSON)
                    .build();
        } catch (InvalidProtocolBufferException e) {
            return error(500, e.getMessage());
        }
    }

    static Response error(int status, String message) {
        return Response.status(status)
                .entity(errorBody(message))
                .type(MediaType.APPLICATION_JSON)
                .build();
    }

    /** {@code {"error": "..."}}: every refusal of the API, one line. */
    static String errorBody(String message) {
        try {
            return ERRORS.writeValueAsString(java.util.Map.of("error", message == null ? "" : message));
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            return "{\"error\": \"the request was refused\"}";
        }
    }

    private static final com.fasterxml.jackson.databind.ObjectMapper ERRORS =
            new com.fasterxml.jackson.databind.ObjectMapper();
}
