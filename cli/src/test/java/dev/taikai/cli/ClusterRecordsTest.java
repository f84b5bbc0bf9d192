package dev.taikai.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.taikai.cli.run.RunPlan;
import dev.taikai.cli.run.TournamentFile;
import dev.taikai.tournament.messages.TournamentMessages;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What `cluster submit` sends for a file: the league's tuning and engine logs travel with the spec. */
class ClusterRecordsTest {
    @Test
    void aLeaguesTuningAndItsEngineLogsGoToTheScheduler(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("l.yaml");
        Files.writeString(
                file,
                "variant: minishogi\nformat: league\nrounds: 3\nengines: [taikai-1, taikai-2, taikai-3]\n"
                        + "engine-logs: true\nleague: {rematch-penalty: 0, rematch-memory: 2, half-life: 6}\n");
        RunPlan plan = TournamentFile.read(file);
        var message = ClusterRecords.specMessage(plan);
        assertTrue(message.getEngineLogs());
        assertTrue(message.getLeague().hasRematchPenalty(), "a penalty of 0 is sent as 0, not as 'the default'");
        assertEquals(plan.leagueSettings(), TournamentMessages.leagueSettings(message), "the same tuning");

        Files.writeString(file, "variant: minishogi\nengines: [taikai-1, taikai-2]\n");
        var match = ClusterRecords.specMessage(TournamentFile.read(file));
        assertFalse(match.hasLeague(), "a match has no league settings");
        assertFalse(match.getEngineLogs());
    }
}
