package dev.taikai.scheduler.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.taikai.access.Gate;
import dev.taikai.access.quarkus.AccessControl;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.CookieParam;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;
import java.net.URI;
import java.util.Optional;

/**
 * The dashboard's login: a token posted once ({@code {"token": "..."}}) becomes a session in an HttpOnly
 * cookie, so the token is never in a URL, a page or a log; the session reads with the token's role
 * ({@link Gate#checkSession}). {@code GET /} opens the dashboard.
 */
@Path("/")
public class SessionResource {
    private static final int MAX_BODY = 4096;
    private static final ObjectMapper JSON = new ObjectMapper();

    @Inject
    Gate gate;

    @GET
    public Response root() {
        return Response.seeOther(URI.create("/ui/index.html")).build();
    }

    @POST
    @Path("api/login")
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.APPLICATION_JSON)
    public Response login(String body, @Context UriInfo uri) {
        String token = null;
        if (body != null && body.length() <= MAX_BODY) {
            try {
                JsonNode node = JSON.readTree(body);
                token = node != null && node.path("token").isTextual()
                        ? node.get("token").asText()
                        : null;
            } catch (java.io.IOException e) {
                token = null;
            }
        }
        if (token == null) {
            return TournamentResource.error(400, "the body is {\"token\": \"...\"}");
        }
        Optional<String> session = gate.login(token);
        if (session.isEmpty()) {
            return TournamentResource.error(401, "unknown or revoked token, or one that may not read");
        }
        return Response.ok("{\"logged_in\": true}\n")
                .header("Set-Cookie", cookie(session.get(), 12 * 3600, uri))
                .build();
    }

    @POST
    @Path("api/logout")
    @Produces(MediaType.APPLICATION_JSON)
    public Response logout(@CookieParam(AccessControl.SESSION_COOKIE) String session, @Context UriInfo uri) {
        gate.logout(session);
        return Response.ok("{\"logged_in\": false}\n")
                .header("Set-Cookie", cookie("", 0, uri))
                .build();
    }

    /** HttpOnly (no script reads it), SameSite=Strict (no other site sends it), Secure over HTTPS. */
    private static String cookie(String value, int maxAgeSeconds, UriInfo uri) {
        return AccessControl.SESSION_COOKIE + "=" + value + "; Path=/; Max-Age=" + maxAgeSeconds
                + "; HttpOnly; SameSite=Strict"
                + ("https".equals(uri.getRequestUri().getScheme()) ? "; Secure" : "");
    }
}
