package dev.taikai.scheduler.http;

import dev.taikai.access.quarkus.AccessControl;
import dev.taikai.access.quarkus.BadInputLog;
import io.quarkus.vertx.http.runtime.CurrentVertxRequest;
import jakarta.inject.Inject;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerResponseContext;
import jakarta.ws.rs.container.ContainerResponseFilter;
import jakarta.ws.rs.ext.Provider;
import java.util.Set;

/**
 * A refused API request leaves one warning line: who asked, what, the status and the reason it was
 * given ({@link BadInputLog}: bounded in size and rate per caller and status). No stack trace, whatever
 * the input. An unknown tournament (404) is an ordinary answer and is not logged.
 */
@Provider
public class RefusalLog implements ContainerResponseFilter {
    private static final Set<Integer> REFUSALS = Set.of(400, 405, 406, 413, 415, 429);

    @Inject
    CurrentVertxRequest current;

    @Override
    public void filter(ContainerRequestContext request, ContainerResponseContext response) {
        if (REFUSALS.contains(response.getStatus())) {
            log(
                    AccessControl.caller(current.getCurrent()),
                    request.getMethod() + " " + request.getUriInfo().getPath(),
                    response.getStatus(),
                    String.valueOf(response.getEntity()));
        }
    }

    /** The warning for a refusal of {@code request} (method and path) with {@code status} and its body. */
    static void log(String caller, String request, int status, String body) {
        BadInputLog.warn(
                "http-" + status + "-" + caller, "refused " + caller + ": " + request + " -> " + status + " " + body);
    }
}
