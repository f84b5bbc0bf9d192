package dev.taikai.scheduler.http;

import io.vertx.core.http.HttpMethod;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.Locale;
import java.util.Set;

/**
 * Checks made on every API request before the resources see it, so that what the framework would
 * answer with a 500 and a stack trace in the log (a {@code Content-Type} it cannot parse) is a 415 with a
 * one-line reason, as every other refusal is.
 */
@ApplicationScoped
public class RequestChecks {
    private static final Set<String> BODY_TYPES = Set.of("application/json", TournamentResource.PROTOBUF);

    /** Runs after the access guard (whose order is the lowest) and before the routes of the API. */
    void checks(@Observes Router router) {
        router.route("/api/*").order(Integer.MIN_VALUE + 1).handler(RequestChecks::contentType);
    }

    private static void contentType(RoutingContext context) {
        HttpMethod method = context.request().method();
        if (!method.equals(HttpMethod.POST) && !method.equals(HttpMethod.PUT)) {
            context.next();
            return;
        }
        String type = context.request().getHeader("Content-Type");
        String base = type == null ? "" : type.split(";", 2)[0].strip().toLowerCase(Locale.ROOT);
        if (BODY_TYPES.contains(base)) {
            context.next();
            return;
        }
        String body = TournamentResource.errorBody("the body's Content-Type must be application/json or "
                + TournamentResource.PROTOBUF + ", not "
                + (type == null || type.isBlank() ? "none" : "'" + type.strip() + "'"));
        RefusalLog.log(
                dev.taikai.access.quarkus.AccessControl.caller(context),
                method + " " + context.normalizedPath(),
                415,
                body);
        context.response()
                .setStatusCode(415)
                .putHeader("Content-Type", "application/json")
                .end(body);
    }
}
