package dev.taikai.access;

import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Browser sessions: a person logs in once with a token and gets a session id for an HttpOnly cookie, so
 * no token sits in a URL, a script or a page. Only hashes are kept: of the session id (a leaked store
 * opens nothing) and of the token it was opened with, which is looked up again on every use, so a token
 * revoked in the tokens file ends its sessions at once. A session lasts {@code lifetimeMillis} from its
 * opening.
 */
public final class Sessions {
    private record Session(String tokenHash, long expiresAtMillis) {}

    private final Map<String, Session> byHash = new ConcurrentHashMap<>();
    private final long lifetimeMillis;

    public Sessions(long lifetimeMillis) {
        this.lifetimeMillis = lifetimeMillis;
    }

    /** A new session for the holder of the token whose hash is {@code tokenHash}: its id. */
    public String open(String tokenHash) {
        String id = Tokens.newToken();
        byHash.put(Tokens.hash(id), new Session(tokenHash, System.currentTimeMillis() + lifetimeMillis));
        removeExpired();
        return id;
    }

    /** The hash of the token session {@code id} was opened with, while the session lasts. */
    public Optional<String> tokenHash(String id) {
        if (id == null || id.isEmpty() || id.length() > 100) {
            return Optional.empty();
        }
        String key = Tokens.hash(id);
        Session session = byHash.get(key);
        if (session == null) {
            return Optional.empty();
        }
        if (session.expiresAtMillis() < System.currentTimeMillis()) {
            byHash.remove(key);
            return Optional.empty();
        }
        return Optional.of(session.tokenHash());
    }

    /** Ends session {@code id}, if there is one. */
    public void close(String id) {
        if (id != null && !id.isEmpty()) {
            byHash.remove(Tokens.hash(id));
        }
    }

    public int size() {
        return byHash.size();
    }

    private void removeExpired() {
        long now = System.currentTimeMillis();
        byHash.values().removeIf(session -> session.expiresAtMillis() < now);
    }
}
