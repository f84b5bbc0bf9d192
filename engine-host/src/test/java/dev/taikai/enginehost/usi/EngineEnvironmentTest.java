package dev.taikai.enginehost.usi;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.taikai.enginehost.catalog.EngineSpec;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** An engine does not inherit the host's TAIKAI_* settings (credentials among them). */
class EngineEnvironmentTest {
    @Test
    void theHostsTaikaiVariablesAreNotPassedToEngines(@TempDir Path dir) throws Exception {
        assertEquals("s3cret", System.getenv("TAIKAI_TEST_SECRET"), "set for this test by the build (pom.xml)");
        Path script = dir.resolve("env-engine");
        Files.writeString(
                script,
                String.join(
                        "\n",
                        "#!/bin/sh",
                        "while read line; do",
                        "  case \"$line\" in",
                        "    usi) echo \"id name env=${TAIKAI_TEST_SECRET:-unset}\";"
                                + " echo 'option name UCI_Variant type combo default minishogi var minishogi';"
                                + " echo usiok ;;",
                        "    isready) echo readyok ;;",
                        "    quit) exit 0 ;;",
                        "  esac",
                        "done",
                        ""));
        Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwx------"));
        UsiEngine engine = Sessions.start(
                EngineSpec.of("env", List.of(script.toString())), dev.taikai.rules.Variant.MINISHOGI, Sessions.QUICK);
        try {
            assertEquals("env=unset", engine.identity().name());
        } finally {
            Sessions.closeAndAssertGone(engine);
        }
    }
}
