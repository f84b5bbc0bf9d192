package dev.taikai.access;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The status a refused HTTP call gets: 401 without a valid token, 403 for a role that may not make a call
 * that exists, 404 for a path no service has and 405 for a method its path does not take. Every one of
 * them is refused before it reaches a service.
 */
class GateTest {
    @Test
    void aRefusalSaysWhyWithItsStatus(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("tokens");
        String admin = Tokens.newToken();
        String viewer = Tokens.newToken();
        Files.write(file, List.of(Tokens.line(admin, Role.ADMIN, "a"), Tokens.line(viewer, Role.VIEWER, "v")));
        Gate gate = new Gate(Tokens.read(file));

        assertEquals(401, gate.check(Policy.http("PUT", "/api/nothing"), null).httpStatus(), "no token first");
        assertEquals(
                403,
                gate.check(Policy.http("POST", "/api/tournaments"), "Bearer " + viewer)
                        .httpStatus());
        Gate.Decision put = gate.check(Policy.http("PUT", "/api/tournaments/t-1"), "Bearer " + admin);
        assertEquals(405, put.httpStatus(), put.reason());
        assertEquals("/api/tournaments/* does not answer PUT", put.reason());
        Gate.Decision nothing = gate.check(Policy.http("GET", "/api/nothing"), "Bearer " + viewer);
        assertEquals(404, nothing.httpStatus(), nothing.reason());
        assertEquals("no such resource: /api/nothing", nothing.reason());
        assertEquals(
                404,
                gate.checkSession(
                                Policy.http("GET", "/api/tournaments/t-1/nothing"),
                                gate.login(viewer).orElseThrow())
                        .httpStatus(),
                "a browser session too");
        assertEquals(
                200,
                gate.check(Policy.http("GET", "/api/tournaments/t-1"), "Bearer " + viewer)
                        .httpStatus());
    }
}
