package dev.taikai.access.quarkus;

import dev.taikai.access.Gate;
import dev.taikai.access.Policy;
import dev.taikai.access.Tokens;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import java.util.Optional;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

/**
 * Access control for the Quarkus service that has this jar (docs/access.md): the gate from {@code taikai.auth.*}, applied to every
 * HTTP request here and to every gRPC call by {@link AccessInterceptor}.
 */
@ApplicationScoped
public class AccessControl {
    /**
     * The routing-context key under which an allowed HTTP request carries its caller's name (the name its
     * token was issued to), for limits that apply per caller; absent when access control is off.
     */
    public static final String CALLER = "taikai.caller";

    private static final Logger LOG = Logger.getLogger(AccessControl.class);

    /** Who asks: the name its token was issued to, or its address when access control is off. */
    public static String caller(io.vertx.ext.web.RoutingContext routing) {
        String name = routing == null ? null : routing.get(CALLER);
        if (name != null) {
            return name;
        }
        return routing == null || routing.request().remoteAddress() == null
                ? "?"
                : routing.request().remoteAddress().hostAddress();
    }

    @ConfigProperty(name = "taikai.auth.tokens-file")
    Optional<String> tokensFile;

    @ConfigProperty(name = "taikai.auth.disabled", defaultValue = "false")
    boolean disabled;

    /** A public dashboard: everything a viewer may read over HTTP is open to everyone (docs/access.md). */
    @ConfigProperty(name = "taikai.dashboard.public", defaultValue = "false")
    boolean publicDashboard;

    /** The name of the HttpOnly cookie that carries a browser session. */
    public static final String SESSION_COOKIE = "taikai_session";

    @Produces
    @Singleton
    Gate gate() throws Tokens.Invalid {
        Gate gate = Gate.configured(tokensFile.orElse(null), disabled).withPublicReads(publicDashboard);
        if (publicDashboard) {
            LOG.warn("the dashboard is public (taikai.dashboard.public=true): anyone may read the tournaments");
        }
        if (gate.enforcing()) {
            LOG.info(gate.describe());
        } else {
            LOG.warn(gate.describe());
        }
        return gate;
    }

    /** Runs before every other route: a request without the right token gets 401 or 403 and goes no further. */
    void guard(@Observes Router router, Gate gate) {
        router.route().order(Integer.MIN_VALUE).handler(context -> {
            String operation = Policy.http(context.request().method().name(), context.normalizedPath());
            String authorization = context.request().getHeader("Authorization");
            var cookie = context.request().getCookie(SESSION_COOKIE);
            Gate.Decision decision = (authorization == null || authorization.isBlank()) && cookie != null
                    ? gate.checkSession(operation, cookie.getValue())
                    : gate.check(operation, authorization);
            if (decision instanceof Gate.Allowed allowed) {
                if (allowed.caller() != null) {
                    context.put(CALLER, allowed.caller().name());
                }
                context.next();
                return;
            }
            var response = context.response()
                    .setStatusCode(decision.httpStatus())
                    .putHeader("Content-Type", "application/json");
            if (decision instanceof Gate.Unauthenticated) {
                response.putHeader("WWW-Authenticate", "Bearer");
            }
            // the reason may quote the request's path: JSON-escaped, as the services' own refusals are
            response.end(new JsonObject().put("error", decision.reason()).encode());
        });
    }
}
