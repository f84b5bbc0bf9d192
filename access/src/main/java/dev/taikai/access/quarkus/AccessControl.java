package dev.taikai.access.quarkus;

import dev.taikai.access.Gate;
import dev.taikai.access.Policy;
import dev.taikai.access.Tokens;
import io.quarkus.runtime.configuration.ConfigurationException;
import io.smallrye.common.vertx.ContextLocals;
import io.vertx.core.http.HttpMethod;
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

    /** Where Quarkus's HTTP metrics look for a request's path template (set by REST endpoints). */
    private static final String METRICS_PATH = "UrlPathTemplate";

    /** The path under which the HTTP metrics count the requests the gate refused. */
    static final String REFUSED = "/refused-by-access-control";

    /** The name of the HttpOnly cookie that carries a browser session. */
    public static final String SESSION_COOKIE = "taikai_session";

    @Produces
    @Singleton
    Gate gate() {
        Gate gate;
        try {
            gate = Gate.configured(tokensFile.orElse(null), disabled).withPublicReads(publicDashboard);
        } catch (Tokens.Invalid e) { // the service does not start: Quarkus prints this line alone
            throw new ConfigurationException(e.getMessage());
        }
        if (publicDashboard) {
            LOG.warn("the dashboard is public (taikai.dashboard.public=true): anyone may read the tournaments");
        }
        if (gate.enforcing() && !gate.noTokens()) {
            LOG.info(gate.describe());
        } else {
            LOG.warn(gate.describe());
        }
        return gate;
    }

    /** Runs before every other route: a request without the right token gets 401 or 403 and goes no further. */
    void guard(@Observes Router router, Gate gate) {
        router.route().order(Integer.MIN_VALUE).handler(context -> {
            boolean head = context.request().method() == HttpMethod.HEAD;
            // HEAD asks what GET would answer, without the body: the same operation
            String operation =
                    Policy.http(head ? "GET" : context.request().method().name(), context.normalizedPath());
            String authorization = context.request().getHeader("Authorization");
            var cookie = context.request().getCookie(SESSION_COOKIE);
            Gate.Decision decision = gate.decide(operation, authorization, cookie == null ? null : cookie.getValue());
            if (decision instanceof Gate.Allowed allowed) {
                if (allowed.caller() != null) {
                    context.put(CALLER, allowed.caller().name());
                }
                context.next();
                return;
            }
            // the HTTP metrics name a refused request by one word, not by its path: whoever can reach the port
            // could otherwise fill the metrics' limited set of paths with made-up ones
            try {
                ContextLocals.put(METRICS_PATH, REFUSED);
            } catch (UnsupportedOperationException | IllegalStateException notARequestContext) {
                // not on a request's own context (none in Quarkus's HTTP server): the metrics keep the path
            }
            var response = context.response()
                    .setStatusCode(decision.httpStatus())
                    .putHeader("Content-Type", "application/json");
            if (decision instanceof Gate.Unauthenticated) {
                response.putHeader("WWW-Authenticate", "Bearer");
            }
            if (head) {
                response.end(); // a body on an answer to HEAD breaks the HTTP/2 stream
                return;
            }
            // the reason may quote the request's path: JSON-escaped, as the services' own refusals are
            response.end(new JsonObject().put("error", decision.reason()).encode());
        });
    }
}
