package dev.taikai.cli.run;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The plan a run and a submission begin with. A submitted league or Swiss said the games paired at its
 * creation ("2 games planned", its first round), as if that were all; an endless league said "0 rounds".
 */
class PlanTextTest {
    @TempDir
    Path dir;

    @Test
    void eachFormatSaysItsPlan() throws Exception {
        assertEquals(
                "12 games planned",
                text("format: round-robin\ngames: 2\nrounds: 2\nengines: [taikai-1, taikai-2, taikai-3]", 12));
        assertEquals("1 game planned", text("engines: [taikai-1, taikai-2]", 1));
        assertEquals("a league without an end", text("format: league\nrounds: 0\nengines: [taikai-1, taikai-2]", 2));
        assertEquals("1 round", text("format: league\nengines: [taikai-1, taikai-2]", 2));
        assertEquals("5 rounds", text("format: swiss\nrounds: 5\nengines: [taikai-1, taikai-2, taikai-3]", 2));
        assertEquals("single elimination", text("format: knockout\nengines: [taikai-1, taikai-2, taikai-3]", 2));
    }

    private String text(String body, int paired) throws Exception {
        Path file = Files.writeString(dir.resolve("t.yaml"), "variant: minishogi\n" + body + "\n");
        return PlanText.of(TournamentFile.read(file).spec(), paired);
    }
}
