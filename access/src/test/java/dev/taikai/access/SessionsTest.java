package dev.taikai.access;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.taikai.testkit.Await;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The dashboard's browser sessions and its public mode, as the gate decides them. */
class SessionsTest {
    @TempDir
    Path dir;

    @Test
    void aSessionReadsWithItsTokensRoleUntilTheTokenIsRevoked() throws Exception {
        String viewer = Tokens.newToken();
        String worker = Tokens.newToken();
        Path file = dir.resolve("tokens");
        Files.write(file, List.of(Tokens.line(viewer, Role.VIEWER, "browser"), Tokens.line(worker, Role.WORKER, "w1")));
        Gate gate = new Gate(Tokens.read(file));

        assertTrue(gate.login("wrong").isEmpty(), "an unknown token opens nothing");
        assertTrue(gate.login(worker).isEmpty(), "a token that may not read opens nothing");
        String session = gate.login(viewer).orElseThrow();
        assertTrue(!session.contains(viewer) && session.length() >= 40, "a session id of its own");

        assertInstanceOf(Gate.Allowed.class, gate.checkSession("GET /api/tournaments", session));
        assertInstanceOf(Gate.Allowed.class, gate.checkSession("GET /api/live", session));
        assertInstanceOf(
                Gate.Denied.class, gate.checkSession("POST /api/tournaments", session), "a session only reads");
        assertInstanceOf(Gate.Unauthenticated.class, gate.checkSession("GET /api/tournaments", "forged"));
        assertInstanceOf(Gate.Unauthenticated.class, gate.checkSession("GET /api/tournaments", null));
        assertInstanceOf(Gate.Allowed.class, gate.checkSession("GET /ui/index.html", null), "the pages hold no data");

        Files.write(file, List.of(Tokens.line(worker, Role.WORKER, "w1")));
        Files.setLastModifiedTime(file, FileTime.fromMillis(System.currentTimeMillis() + 5000));
        Await.until(
                Duration.ofSeconds(30),
                "a revoked token ends its sessions",
                () -> gate.checkSession("GET /api/tournaments", session) instanceof Gate.Unauthenticated);

        gate.logout(session);
        assertInstanceOf(Gate.Unauthenticated.class, gate.checkSession("GET /api/tournaments", session));
    }

    @Test
    void aPublicDashboardOpensTheReadsButNotTheLogsTheMetricsOrTheWrites() throws Exception {
        Path file = dir.resolve("tokens");
        Files.write(file, List.of(Tokens.line(Tokens.newToken(), Role.ADMIN, "alice")));
        Gate gate = new Gate(Tokens.read(file)).withPublicReads(true);
        for (String open : List.of(
                "GET /api/tournaments",
                "GET /api/tournaments/*",
                "GET /api/tournaments/*/standings",
                "GET /api/tournaments/*/games",
                "GET /api/live",
                "GET /api/cluster")) {
            assertInstanceOf(Gate.Allowed.class, gate.check(open, null), open);
            assertInstanceOf(Gate.Allowed.class, gate.checkSession(open, null), open);
        }
        for (String closed : List.of(
                "GET /api/tournaments/*/games/*/log",
                "GET /q/metrics",
                "POST /api/tournaments",
                "DELETE /api/tournaments/*")) {
            assertInstanceOf(Gate.Unauthenticated.class, gate.check(closed, null), closed);
        }
        assertEquals(false, new Gate(Tokens.read(file)).publicReads(), "private unless it is asked for");
    }
}
