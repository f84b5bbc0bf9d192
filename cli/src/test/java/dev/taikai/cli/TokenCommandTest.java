package dev.taikai.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.taikai.access.Caller;
import dev.taikai.access.Role;
import dev.taikai.access.Tokens;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TokenCommandTest {
    @Test
    void issuesATokenAndTheHashedLineThatAdmitsIt(@TempDir Path dir) throws Exception {
        CliRun run = CliRun.of("token", "--role", "viewer", "--name", "grafana");
        assertEquals(0, run.exitCode(), run.err());
        String token = run.out().strip();
        String line = run.err().strip();
        assertFalse(line.contains(token), "the file line holds the hash only");
        Files.writeString(dir.resolve("tokens"), line + "\n");
        assertEquals(
                new Caller("grafana", Role.VIEWER),
                Tokens.read(dir.resolve("tokens")).authenticate(token).orElseThrow());
    }

    @Test
    void badRolesAndNamesAreUsageErrors() {
        CliRun role = CliRun.of("token", "--role", "root", "--name", "x");
        assertEquals(2, role.exitCode());
        assertTrue(role.err().contains("--role: 'root' is not admin, referee, worker or viewer"), role.err());
        CliRun name = CliRun.of("token", "--role", "admin", "--name", "two words");
        assertEquals(2, name.exitCode());
        assertTrue(name.err().contains("--name:"), name.err());
        assertEquals(0, CliRun.of("token", "--help").exitCode());
    }
}
