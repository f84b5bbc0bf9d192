package dev.taikai.access;

import java.util.Optional;
import java.util.Set;

/**
 * The decision every adapter makes for a call: open operations pass; otherwise the bearer token must
 * belong to a caller whose role the {@link Policy} allows. With no tokens (access control switched off by
 * configuration) everything passes.
 */
public final class Gate {
    /** The outcome of a check: who called, or why not. */
    public sealed interface Decision {
        /** The HTTP status that answers it: 200 to go on, 401 or 403. */
        int httpStatus();

        /** Why not, for the answer; empty when allowed. Never contains a token. */
        String reason();
    }

    /** Allowed; {@code caller} is null for open operations and when access control is off. */
    public record Allowed(Caller caller) implements Decision {
        public int httpStatus() {
            return 200;
        }

        public String reason() {
            return "";
        }
    }

    /** No valid token: answer UNAUTHENTICATED / 401. The reason never repeats the token. */
    public record Unauthenticated(String reason) implements Decision {
        public int httpStatus() {
            return 401;
        }
    }

    /** A valid token whose role may not do this: answer PERMISSION_DENIED / 403. */
    public record Denied(String reason) implements Decision {
        public int httpStatus() {
            return 403;
        }
    }

    /**
     * A valid caller asking for an HTTP operation no service answers: 404 for a path it does not have, 405
     * for a method its path does not take. Refused here all the same, so the answer is the truthful one
     * while nothing the policy does not list is ever reached.
     */
    public record NoSuchOperation(int httpStatus, String reason) implements Decision {}

    /**
     * The gate a service runs with: the tokens in {@code tokensFile}; without one, access control is off
     * only when {@code disabled} says so explicitly, and the service refuses to start otherwise.
     *
     * @throws Tokens.Invalid with a message for the operator when the configuration cannot be used
     */
    public static Gate configured(String tokensFile, boolean disabled) throws Tokens.Invalid {
        if (tokensFile == null || tokensFile.isBlank()) {
            if (!disabled) {
                throw new Tokens.Invalid("taikai.auth.tokens-file is not set: every endpoint requires a token;"
                        + " set taikai.auth.disabled=true to run without access control (trusted networks only)");
            }
            return new Gate(null);
        }
        return new Gate(Tokens.read(java.nio.file.Path.of(tokensFile)));
    }

    /** True when access control is on and the tokens file lists no token: a likely mistake, worth a warning. */
    public boolean noTokens() {
        return tokens != null && tokens.size() == 0;
    }

    /** A one-line description for the startup log. */
    public String describe() {
        return tokens == null
                ? "access control is OFF (taikai.auth.disabled=true): anyone who reaches this service can use it"
                : tokens.size() == 0
                        ? "access control: the tokens file lists no token, so everything but the health checks is"
                                + " refused until one is added (./taikai token)"
                        : "access control: " + tokens.size()
                                + " tokens; health checks open, everything else needs a token";
    }

    private final Tokens tokens;
    /** Browser sessions opened with a token ({@link #login}), 12 hours each. */
    private final Sessions sessions = new Sessions(12 * 3600 * 1000L);

    private volatile boolean publicReads;

    /** @param tokens the tokens in force; null switches access control off */
    public Gate(Tokens tokens) {
        this.tokens = tokens;
    }

    /**
     * Opens the reads a viewer may make to everyone ({@link Policy#publicRead}): a public dashboard. The
     * rest still needs a token.
     */
    public Gate withPublicReads(boolean open) {
        this.publicReads = open;
        return this;
    }

    public boolean publicReads() {
        return publicReads;
    }

    /**
     * A browser session for the holder of {@code token} (any role that may read), or empty when the token
     * is unknown or revoked. With access control off, an empty session id: nothing to check.
     */
    public Optional<String> login(String token) {
        if (tokens == null) {
            return Optional.of("");
        }
        Optional<Caller> caller =
                token == null || token.length() > 1024 ? Optional.empty() : tokens.authenticate(token.strip());
        if (caller.isEmpty()
                || !Policy.allowed("GET /api/tournaments").contains(caller.get().role())) {
            return Optional.empty();
        }
        return Optional.of(sessions.open(Tokens.hash(token.strip())));
    }

    public void logout(String sessionId) {
        sessions.close(sessionId);
    }

    /**
     * The decision for a request that brings a session cookie ({@code sessionId}, or null) instead of a
     * token: reads only (HTTP GET), with the role of the token the session was opened with, while that
     * token stands. A public dashboard's reads pass without one.
     */
    public Decision checkSession(String operation, String sessionId) {
        if (tokens == null || Policy.open(operation) || (publicReads && Policy.publicRead(operation))) {
            return new Allowed(null);
        }
        if (sessionId == null || sessionId.isBlank()) {
            return new Unauthenticated("no credentials: log in, or send 'authorization: Bearer <token>'");
        }
        if (!operation.startsWith("GET ")) {
            return new Denied("a browser session only reads; send 'authorization: Bearer <token>' for " + operation);
        }
        Optional<Caller> caller = sessions.tokenHash(sessionId).flatMap(tokens::byHash);
        if (caller.isEmpty()) {
            return new Unauthenticated("the session has ended (logged out, expired, or its token revoked): log in");
        }
        if (!Policy.allowed(operation).contains(caller.get().role())) {
            return refusal(caller.get(), operation);
        }
        return new Allowed(caller.get());
    }

    /**
     * The decision for an HTTP request as the services' guard makes it: by its session cookie ({@code
     * sessionId}) when it sends no {@code authorization}, by its token otherwise. Asked again while a
     * stream is open, it ends the stream of a token or session revoked since.
     */
    public Decision decide(String operation, String authorization, String sessionId) {
        return (authorization == null || authorization.isBlank()) && sessionId != null
                ? checkSession(operation, sessionId)
                : check(operation, authorization);
    }

    public boolean enforcing() {
        return tokens != null;
    }

    /** @param authorization the request's {@code authorization} header or metadata, or null */
    public Decision check(String operation, String authorization) {
        if (tokens == null || Policy.open(operation)) {
            return new Allowed(null);
        }
        if (publicReads && Policy.publicRead(operation) && (authorization == null || authorization.isBlank())) {
            return new Allowed(null);
        }
        if (authorization == null || authorization.isBlank()) {
            return new Unauthenticated("no credentials: send 'authorization: Bearer <token>'");
        }
        if (!authorization.regionMatches(true, 0, "Bearer ", 0, 7)) {
            return new Unauthenticated("the authorization is not a bearer token");
        }
        Optional<Caller> caller = tokens.authenticate(authorization.substring(7).strip());
        if (caller.isEmpty()) {
            return new Unauthenticated("unknown or revoked token");
        }
        Set<Role> allowed = Policy.allowed(operation);
        if (!allowed.contains(caller.get().role())) {
            return refusal(caller.get(), operation);
        }
        return new Allowed(caller.get());
    }

    /** Why {@code caller} may not call {@code operation}: its role, or (HTTP) an operation no one may call. */
    private static Decision refusal(Caller caller, String operation) {
        if (Policy.allowed(operation).isEmpty() && operation.contains(" ")) {
            String method = operation.substring(0, operation.indexOf(' '));
            String path = operation.substring(operation.indexOf(' ') + 1);
            return Policy.knowsPath(path)
                    ? new NoSuchOperation(405, path + " does not answer " + method)
                    : new NoSuchOperation(404, "no such resource: " + path);
        }
        return new Denied("'" + caller.name() + "' (" + caller.role().id() + ") may not call " + operation);
    }
}
