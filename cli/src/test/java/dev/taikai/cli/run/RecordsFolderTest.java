package dev.taikai.cli.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
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
    /** A Japanese event name gave a folder of dashes, "--20261206-110056", which a shell reads as an option. */
    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.CsvSource(
            delimiter = '|',
            value = {"名人 戦|名人-戦-", "my event!|my-event-", "--x|x-", "..|run-", "!!!|run-", "a/../b|a-..-b-"})
    void aNewFoldersNameKeepsTheEventsLettersAndNeverLeadsWithADash(String event, String prefix, @TempDir Path dir) {
        String folder = NewFolder.of(dir, event).getFileName().toString();
        assertTrue(folder.matches(java.util.regex.Pattern.quote(prefix) + "\\d{8}-\\d{6}"), event + " -> " + folder);
        String longest = NewFolder.of(dir, "名".repeat(100)).getFileName().toString();
        assertEquals(60 + "-20261206-110056".length(), longest.codePointCount(0, longest.length()), longest);
    }

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

    /**
     * A second fetch into a folder being written was refused by the folder's lock, but only after it had
     * cleared the folder under the first, which then failed: it touches nothing now.
     */
    @Test
    void aWriterRefusedByTheLockRemovesNothing(@TempDir Path dir) throws Exception {
        RunPlan plan = CutechessArguments.parse(List.of(
                "-variant",
                "minishogi",
                "-engine",
                "conf=taikai-1",
                "-engine",
                "conf=taikai-2",
                "-each",
                "nodes=20",
                "-maxmoves",
                "12",
                "-out",
                dir.resolve("fetched").toString()));
        Tournaments.run(plan, dev.taikai.enginehost.session.Timeouts.DEFAULT);
        Files.writeString(plan.output().resolve("cluster.txt"), "t-1\n");
        List<String> before;
        try (var files = Files.list(plan.output())) {
            before = files.map(f -> f.getFileName().toString()).sorted().toList();
        }
        try (var channel = java.nio.channels.FileChannel.open(
                        plan.output().resolve("taikai.lock"),
                        java.nio.file.StandardOpenOption.CREATE,
                        java.nio.file.StandardOpenOption.WRITE);
                var held = channel.lock()) {
            ConfigException refused = assertThrows(
                    ConfigException.class,
                    () -> RecordsFolder.write(
                            plan,
                            plan.newRun(),
                            "t-1",
                            List.of(),
                            new java.io.PrintWriter(new java.io.StringWriter())));
            assertTrue(refused.getMessage().contains("is in use by another run"), refused.getMessage());
        }
        try (var files = Files.list(plan.output())) {
            org.junit.jupiter.api.Assertions.assertEquals(
                    before, files.map(f -> f.getFileName().toString()).sorted().toList(), "every file still there");
        }
        org.junit.jupiter.api.Assertions.assertEquals(
                2, Tournaments.journal(plan.output()).size());
    }
}
