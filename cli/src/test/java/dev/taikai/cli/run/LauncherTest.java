package dev.taikai.cli.run;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * The commands a message asks the user to type start with the launcher as the user typed it: they said
 * './taikai' wherever the user was, which a paste from another directory could not run.
 */
class LauncherTest {
    @Test
    void aResumeCommandStartsWithTheLauncherAsTyped() {
        String before = System.getProperty("taikai.command");
        try {
            System.clearProperty("taikai.command");
            assertEquals("./taikai run --resume results/mine", Invocation.resumeCommand(Path.of("results/mine")));
            System.setProperty("taikai.command", "/opt/taikai/taikai");
            assertEquals("/opt/taikai/taikai run --resume out", Invocation.resumeCommand(Path.of("out")));
            System.setProperty("taikai.command", "/home/me/my taikai/taikai");
            assertEquals(
                    "'/home/me/my taikai/taikai' run --resume 'it'\\''s mine'",
                    Invocation.resumeCommand(Path.of("it's mine")));
        } finally {
            if (before == null) {
                System.clearProperty("taikai.command");
            } else {
                System.setProperty("taikai.command", before);
            }
        }
    }
}
