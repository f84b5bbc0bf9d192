package dev.taikai.scheduler.http;

import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;
import jakarta.ws.rs.ext.Provider;

/**
 * The refusals the REST layer makes itself (no such route 404, a method it does not serve 405, a type it
 * cannot produce 406, a parameter it cannot convert) answered like the API's own: {@code {"error": ...}}
 * in one line, never an empty body, never a stack trace in the log.
 */
@Provider
public class ApiErrors implements ExceptionMapper<WebApplicationException> {
    @Override
    public Response toResponse(WebApplicationException e) {
        int status = e.getResponse() == null ? 400 : e.getResponse().getStatus();
        String reason = switch (status) {
            case 404 -> "no such resource";
            case 405 -> "this resource does not answer that method";
            case 406 -> "the answer can be application/json or " + TournamentResource.PROTOBUF;
            case 415 -> "the body's Content-Type must be application/json or " + TournamentResource.PROTOBUF;
            default -> status >= 500 ? "the scheduler failed to answer" : "the request was refused";
        };
        return TournamentResource.error(status, reason);
    }
}
