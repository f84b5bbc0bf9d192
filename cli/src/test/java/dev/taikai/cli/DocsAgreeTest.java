package dev.taikai.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.taikai.testkit.FakeEngines;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** What --help says and what the docs say name the same flags and switches. */
class DocsAgreeTest {
    private static final Pattern RUN_FLAG = Pattern.compile("(?<![\\w-])-[a-z]+(?![\\w=.-])");

    @Test
    void everyRunFlagOfTheHelpIsInTheDocsAndEveryFlagOfTheDocsInTheHelp() throws Exception {
        CliRun help = CliRun.of("run", "--help");
        assertEquals(0, help.exitCode(), help.err());
        Set<String> inHelp = flags(help.out());
        String docs = Files.readString(Path.of("../docs/tournaments.md"));
        String table = docs.substring(
                docs.indexOf("## cutechess-cli and fastchess flags"), docs.indexOf("## Swiss and knockout"));
        Set<String> inDocs = flags(table.replaceAll("`[^`]*=[^`]*`", "")); // key=value examples hold no flags
        inDocs.removeAll(Set.of("-engine", "-each")); // named with their keys in both
        for (String flag : inDocs) {
            assertTrue(inHelp.contains(flag), flag + " is in docs/tournaments.md but not in run --help: " + inHelp);
        }
        for (String flag : inHelp) {
            assertTrue(table.contains("`" + flag), flag + " is in run --help but not in the docs' table");
        }
    }

    @Test
    void everyFakeEngineSwitchIsInTheDocs() throws Exception {
        String docs = Files.readString(Path.of("../docs/engines.md"));
        for (String line : FakeEngines.usage().lines().toList()) {
            var switchName = Pattern.compile("^\\s+(--[a-z-]+)").matcher(line);
            if (switchName.find()) {
                assertTrue(
                        docs.contains("`" + switchName.group(1)), switchName.group(1) + " is not in docs/engines.md");
            }
        }
    }

    private static Set<String> flags(String text) {
        Set<String> flags = new TreeSet<>();
        RUN_FLAG.matcher(text).results().map(m -> m.group()).forEach(flags::add);
        flags.remove("-h"); // --help's short form
        return flags;
    }
}
