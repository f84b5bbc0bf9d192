package dev.taikai.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Every command `taikai cluster` suggests works as printed: with the cluster's directory when not the default. */
class ClusterHintTest {
    @Test
    void theHintNamesTheDirectoryOfAClusterOutsideTheDefault() {
        assertEquals(
                "Submit a tournament with: ./taikai cluster submit <tournament file>; stop with: ./taikai cluster down",
                ClusterCommand.hint(Path.of(".taikai-cluster")));
        assertEquals(
                "Submit a tournament with: ./taikai cluster submit --dir /tmp/c <tournament file>; stop with:"
                        + " ./taikai cluster down --dir /tmp/c",
                ClusterCommand.hint(Path.of("/tmp/c")));
    }

    @Test
    void theRefusalsForAMissingOrARecordedClusterNameItsDirectory(@TempDir Path dir) throws Exception {
        CliRun none = CliRun.of("cluster", "status", "--dir", dir.toString());
        assertEquals(2, none.exitCode(), none.err());
        assertEquals(
                "taikai cluster status: no cluster recorded in " + dir + "; start one with './taikai cluster up --dir "
                        + dir + "'\n",
                none.err());

        // a second down (a teardown script's) is no error
        CliRun down = CliRun.of("cluster", "down", "--dir", dir.toString());
        assertEquals(0, down.exitCode(), down.err());
        assertEquals("No cluster runs in " + dir + "; nothing to stop.\n", down.out());

        Files.writeString(dir.resolve("cluster.json"), "{}");
        CliRun twice = CliRun.of("cluster", "up", "--dir", dir.toString());
        assertEquals(2, twice.exitCode(), twice.err());
        assertEquals(
                "taikai cluster up: a cluster is already recorded in " + dir
                        + "; stop it first with './taikai cluster down --dir " + dir + "'\n",
                twice.err());
    }
}
