package dev.taikai.scheduler.http;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.util.JsonFormat;
import dev.taikai.scheduler.live.LiveView;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

/**
 * {@code GET /api/cluster}: the referees as their live statuses tell (up when one came in the last
 * {@value #UP_WITHIN_MILLIS} ms), their games and the engine workers each sees with free and busy slots,
 * and the live view's own counts (streams open, events taken and dropped).
 */
@Path("/api/cluster")
public class ClusterResource {
    static final long UP_WITHIN_MILLIS = 20_000;
    private static final ObjectMapper MAPPER = new ObjectMapper();

    @Inject
    LiveView view;

    @GET
    @Produces(MediaType.APPLICATION_JSON)
    public String cluster() throws InvalidProtocolBufferException, com.fasterxml.jackson.core.JsonProcessingException {
        ObjectNode answer = MAPPER.createObjectNode();
        ArrayNode referees = answer.putArray("referees");
        long now = System.currentTimeMillis();
        for (LiveView.Seen seen : view.referees()) {
            ObjectNode referee = referees.addObject();
            referee.put("referee_id", seen.status().getRefereeId());
            referee.put("seen_ms_ago", now - seen.receivedMillis());
            referee.put("up", now - seen.receivedMillis() <= UP_WITHIN_MILLIS);
            referee.set(
                    "status",
                    MAPPER.readTree(JsonFormat.printer().print(seen.status().getStatus())));
        }
        ObjectNode live = answer.putObject("live");
        live.put("games_in_play", view.gamesInPlay());
        live.put("streams", view.subscribers());
        live.put("events", view.events());
        live.put("dropped", view.dropped());
        return MAPPER.writeValueAsString(answer);
    }
}
