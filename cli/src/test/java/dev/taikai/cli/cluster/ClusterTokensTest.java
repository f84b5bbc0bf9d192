package dev.taikai.cli.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every 'cluster up' issued new tokens and rewrote the tokens file: a token handed out since, and a line
 * added with 'taikai token', stopped working after a down and an up, while the tournaments stayed.
 */
class ClusterTokensTest {
    @Test
    void aLaterUpInTheSameFolderKeepsItsTokens(@TempDir Path dir) throws Exception {
        Path access = LocalCluster.issueTokens(dir);
        String admin = Files.readString(access.resolve("admin.token"));
        String added = "# bob's viewer token, added by hand\n";
        Files.writeString(access.resolve("tokens"), added, StandardOpenOption.APPEND);
        String tokens = Files.readString(access.resolve("tokens"));

        LocalCluster.issueTokens(dir);
        assertEquals(admin, Files.readString(access.resolve("admin.token")));
        assertEquals(tokens, Files.readString(access.resolve("tokens")), "the file as it was, the added line too");

        Files.delete(access.resolve("viewer.token")); // a folder that no longer holds them all: new ones
        LocalCluster.issueTokens(dir);
        assertNotEquals(admin, Files.readString(access.resolve("admin.token")));
        assertTrue(Files.exists(access.resolve("viewer.token")));
    }
}
