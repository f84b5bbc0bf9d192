package dev.taikai.cli.run;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.taikai.enginehost.catalog.Catalog;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** The keys a tournament file and an engine catalog take are the keys their docs' tables list. */
class FileKeysDocumentedTest {
    private static final Pattern ROW_KEY = Pattern.compile("(?m)^\\| `([a-z-]+)(?:\\.[a-z.-]+)?` \\|");

    @Test
    void theTournamentFilesKeysAreTheDocumentedOnes() throws Exception {
        String docs = Files.readString(Path.of("../docs/tournaments.md"));
        String table = docs.substring(docs.indexOf("## The tournament file"), docs.indexOf("## cutechess-cli"));
        assertEquals(new TreeSet<>(TournamentFile.KEYS), keys(table));
    }

    @Test
    void theCatalogsKeysAreTheDocumentedOnes() throws Exception {
        String docs = Files.readString(Path.of("../docs/engines.md"));
        String table = docs.substring(0, docs.indexOf("## Quirks"));
        assertEquals(new TreeSet<>(Catalog.ENGINE_KEYS), keys(table));
    }

    private static Set<String> keys(String table) {
        Set<String> keys = new TreeSet<>();
        ROW_KEY.matcher(table).results().forEach(m -> keys.add(m.group(1)));
        return keys;
    }
}
