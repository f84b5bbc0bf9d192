package dev.taikai.access;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.taikai.testkit.Await;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TokensTest {
    /** How long a change to the tokens file may take to be read (it is checked twice a second). */
    private static final Duration REREAD = Duration.ofSeconds(30);

    @TempDir
    Path dir;

    @Test
    void tokensAreKnownByTheirHashAndRevokedByRemovingTheirLine() throws Exception {
        String admin = Tokens.newToken();
        String viewer = Tokens.newToken();
        Path file = dir.resolve("tokens");
        Files.write(
                file,
                List.of(
                        "# comment",
                        Tokens.line(admin, Role.ADMIN, "alice"),
                        "",
                        Tokens.line(viewer, Role.VIEWER, "grafana")));
        assertFalse(Files.readString(file).contains(admin), "the file never holds a token");
        Tokens tokens = Tokens.read(file);
        assertEquals(new Caller("alice", Role.ADMIN), tokens.authenticate(admin).orElseThrow());
        assertEquals(Role.VIEWER, tokens.authenticate(viewer).orElseThrow().role());
        assertTrue(tokens.authenticate("not-a-token").isEmpty());
        assertTrue(tokens.authenticate("").isEmpty());
        assertTrue(tokens.authenticate(null).isEmpty());

        Files.write(file, List.of(Tokens.line(admin, Role.ADMIN, "alice")));
        Files.setLastModifiedTime(file, FileTime.fromMillis(System.currentTimeMillis() + 5000));
        Await.until(
                REREAD,
                "the viewer's token revoked",
                () -> tokens.authenticate(viewer).isEmpty());
        assertTrue(tokens.authenticate(admin).isPresent());

        // a rewrite within the file system's timestamp resolution still shows in the size
        FileTime unchanged = Files.getLastModifiedTime(file);
        Files.write(file, List.of(Tokens.line(admin, Role.ADMIN, "alice"), Tokens.line(viewer, Role.VIEWER, "g")));
        Files.setLastModifiedTime(file, unchanged);
        Await.until(
                REREAD,
                "same time, other size: read again",
                () -> tokens.authenticate(viewer).isPresent());

        // the viewer's line removed, and a typo on a line added: the revoked token was kept with all the others
        Files.write(file, List.of(Tokens.line(admin, Role.ADMIN, "alice"), "sha256:zz admin bob"));
        Files.setLastModifiedTime(file, FileTime.fromMillis(System.currentTimeMillis() + 10000));
        Await.until(REREAD, "the file with a bad line read and reported", () -> {
            tokens.authenticate(admin);
            return tokens.problem() != null;
        });
        assertTrue(tokens.authenticate(viewer).isEmpty(), "revoked, bad line or not");
        assertTrue(tokens.authenticate(admin).isPresent(), "the lines that read are in force");
        assertEquals(
                file + ":2: the hash must be 'sha256:' and 64 lowercase hex digits (never the token); that line is"
                        + " skipped (a token on it is refused), the 1 tokens of the other lines are in force",
                tokens.problem());
    }

    /** An operator sees a tokens file that no longer reads in the log, once, and again when it reads. */
    @Test
    void aFileThatStopsReadingIsLoggedOnce() throws Exception {
        Path file = dir.resolve("tokens");
        String admin = Tokens.newToken();
        Files.write(file, List.of(Tokens.line(admin, Role.ADMIN, "alice")));
        Tokens tokens = Tokens.read(file);
        List<java.util.logging.LogRecord> logged = new java.util.concurrent.CopyOnWriteArrayList<>();
        java.util.logging.Handler handler = new java.util.logging.Handler() {
            @Override
            public void publish(java.util.logging.LogRecord record) {
                logged.add(record);
            }

            @Override
            public void flush() {}

            @Override
            public void close() {}
        };
        java.util.logging.Logger logger = java.util.logging.Logger.getLogger(Tokens.class.getName());
        logger.addHandler(handler);
        try {
            Files.delete(file);
            Await.until(REREAD, "the missing file noticed", () -> {
                tokens.authenticate(admin);
                return tokens.problem() != null;
            });
            assertTrue(tokens.authenticate(admin).isPresent(), "the tokens last read stay in force");
            // the file is checked at most every 0.5 s: asked for 1.2 s more, it is checked again at least twice
            long noticed = System.nanoTime();
            Await.until(REREAD, "two more checks of the missing file", () -> {
                tokens.authenticate(admin);
                return System.nanoTime() - noticed > 1_200_000_000L;
            });
            assertEquals(1, logged.size(), "one warning for the problem, not one a check: " + logged);
            assertEquals(java.util.logging.Level.WARNING, logged.get(0).getLevel());
            assertTrue(
                    logged.get(0).getMessage().startsWith("cannot read the tokens file " + file),
                    logged.get(0).getMessage());

            Files.write(file, List.of(Tokens.line(admin, Role.ADMIN, "alice")));
            Await.until(REREAD, "read again and said so", () -> {
                tokens.authenticate(admin);
                return tokens.problem() == null && logged.size() == 2;
            });
            assertTrue(logged.get(1).getMessage().contains("reads again: 1 tokens in force"), logged.toString());
        } finally {
            logger.removeHandler(handler);
        }
    }

    @Test
    void aBadTokensFileIsRefusedNamingTheFileAndLine() throws Exception {
        Path file = dir.resolve("tokens");
        String good = Tokens.line(Tokens.newToken(), Role.ADMIN, "a");
        for (var bad : List.of(
                List.of(good, "sha256:abc admin b"),
                List.of(good, good.replace(" admin ", " root ")),
                List.of(good, "s3cr3t-token-in-the-clear"),
                List.of(good, good))) {
            Files.write(file, bad);
            var e = assertThrows(Tokens.Invalid.class, () -> Tokens.read(file));
            assertTrue(e.getMessage().startsWith(file + ":2: "), e.getMessage());
            assertFalse(e.getMessage().contains("s3cr3t"), "the message never repeats a line: " + e.getMessage());
        }
        var missing = assertThrows(Tokens.Invalid.class, () -> Tokens.read(dir.resolve("none")));
        assertEquals(
                "cannot read the tokens file " + dir.resolve("none") + ": there is no such file", missing.getMessage());
        Files.write(file, List.of(good, good.replace(" admin ", " pasted-token ")));
        var role = assertThrows(Tokens.Invalid.class, () -> Tokens.read(file));
        assertFalse(role.getMessage().contains("pasted-token"), "the second word is not quoted: " + role.getMessage());
        try (var big = java.nio.channels.FileChannel.open(file, java.nio.file.StandardOpenOption.WRITE)) {
            big.write(java.nio.ByteBuffer.wrap(new byte[] {'#'}), Tokens.MAX_BYTES); // a file one byte too long
        }
        var huge = assertThrows(Tokens.Invalid.class, () -> Tokens.read(file));
        assertTrue(
                huge.getMessage().endsWith(" bytes, over the " + Tokens.MAX_BYTES + " a tokens file may have"),
                huge.getMessage());
    }

    /** A tokens file without a token started the service with "0 tokens" among the info lines: it refuses everyone. */
    @Test
    void aGateWithoutATokenSaysItRefusesEveryone() throws Exception {
        Path file = dir.resolve("tokens");
        Files.write(file, List.of("# no token yet"));
        Gate gate = Gate.configured(file.toString(), false);
        assertTrue(gate.noTokens());
        assertTrue(
                gate.describe().contains("lists no token, so everything but the health checks is refused"),
                gate.describe());
    }

    @Test
    void gateDecidesByPolicy() throws Exception {
        String admin = Tokens.newToken();
        String viewer = Tokens.newToken();
        String worker = Tokens.newToken();
        Path file = dir.resolve("tokens");
        Files.write(
                file,
                List.of(
                        Tokens.line(admin, Role.ADMIN, "alice"),
                        Tokens.line(viewer, Role.VIEWER, "bob"),
                        Tokens.line(worker, Role.WORKER, "w1")));
        Gate gate = new Gate(Tokens.read(file));
        String create = "taikai.scheduler.v1.Scheduler/CreateTournament";
        assertTrue(gate.check(create, "Bearer " + admin) instanceof Gate.Allowed);
        assertTrue(gate.check(create, "bearer " + admin) instanceof Gate.Allowed);
        assertTrue(gate.check(create, "Bearer " + viewer) instanceof Gate.Denied);
        assertTrue(gate.check(create, null) instanceof Gate.Unauthenticated);
        assertTrue(gate.check(create, "Basic abc") instanceof Gate.Unauthenticated);
        assertTrue(gate.check(create, "Bearer nope") instanceof Gate.Unauthenticated);
        assertTrue(
                gate.check("taikai.scheduler.v1.Scheduler/GetStandings", "Bearer " + viewer) instanceof Gate.Allowed);
        assertTrue(gate.check("taikai.worker.v1.EngineWorker/Session", "Bearer " + worker) instanceof Gate.Denied);
        assertTrue(gate.check("taikai.worker.v1.EngineWorker/Session", "Bearer " + admin) instanceof Gate.Denied);
        assertTrue(gate.check("taikai.scheduler.v1.Scheduler/NewMethod", "Bearer " + admin) instanceof Gate.Denied);
        assertTrue(gate.check("grpc.health.v1.Health/Check", null) instanceof Gate.Allowed);
        for (String operation : List.of(
                "taikai.scheduler.v1.Scheduler/GetTournament",
                "taikai.referee.v1.Referee/WatchGame",
                "GET /api/tournaments/*",
                "POST /api/tournaments",
                "GET /q/metrics")) {
            assertTrue(gate.check(operation, "Bearer " + worker) instanceof Gate.Denied, operation);
        }
        var denied = (Gate.Denied) gate.check(create, "Bearer " + viewer);
        assertFalse(denied.reason().contains(viewer), "no secret in a message");

        assertEquals("GET /api/tournaments/*/standings", Policy.http("GET", "/api/tournaments/t-1/standings"));
        assertEquals("DELETE /api/tournaments/*", Policy.http("DELETE", "/api/tournaments/t-1"));
        assertEquals(
                "GET /api/tournaments/*/games/*/log", Policy.http("GET", "/api/tournaments/t-1/games/r1-p1-g2/log"));
        assertEquals("POST /api/tournaments", Policy.http("POST", "/api/tournaments"));
        assertEquals(
                "DELETE /api/tournaments/*/entrants/*", Policy.http("DELETE", "/api/tournaments/l-1/entrants/bob"));
        assertTrue(gate.check("POST /api/tournaments/*/entrants", "Bearer " + viewer) instanceof Gate.Denied);
        assertEquals("GET /q/health/ready", Policy.http("GET", "/q/health/ready"));
        assertEquals("GET /", Policy.http("GET", "/"));
        assertTrue(new Gate(null).check(create, null) instanceof Gate.Allowed, "switched off");
    }
}
