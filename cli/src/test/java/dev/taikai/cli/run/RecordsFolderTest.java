package dev.taikai.cli.run;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.taikai.enginehost.config.ConfigException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A cluster tournament's records folder is checked before the tournament is created, as {@code taikai
 * run} checks its own: one that cannot be made was found only after every game had been played.
 */
class RecordsFolderTest {
    @Test
    void aFolderThatCannotBeMadeIsRefusedBeforeTheTournament(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("afile"), "not a folder\n");
        RunPlan plan = CutechessArguments.parse(List.of(
                "-variant",
                "minishogi",
                "-engine",
                "conf=taikai-1",
                "-engine",
                "conf=taikai-2",
                "-out",
                dir.resolve("afile").resolve("sub").toString()));
        ConfigException e = assertThrows(ConfigException.class, () -> RecordsFolder.checkFree(plan, null));
        assertTrue(e.getMessage().startsWith("cannot create the records folder " + plan.output()), e.getMessage());

        RunPlan fine = plan.withOutput(dir.resolve("records").resolve("new"));
        RecordsFolder.checkFree(fine, null);
        assertTrue(Files.isDirectory(fine.output()), "made now, as taikai run makes its own");
    }
}
