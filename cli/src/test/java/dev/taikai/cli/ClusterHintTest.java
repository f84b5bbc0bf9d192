package dev.taikai.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** What `cluster up` prints last is a command that works: with the cluster's directory when not the default. */
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
}
