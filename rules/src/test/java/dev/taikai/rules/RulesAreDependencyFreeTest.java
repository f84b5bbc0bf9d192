package dev.taikai.rules;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The rules core is plain Java with no dependencies (ARCHITECTURE.md): its main sources import only
 * {@code java.*} and its own package, and no file grows past the size the style guide allows.
 */
class RulesAreDependencyFreeTest {
    private static final Path MAIN = Path.of("src/main/java/dev/taikai/rules");
    private static final int MAX_LINES = 600;

    @Test
    void mainSourcesImportOnlyTheJdk() throws IOException {
        List<String> offending = new ArrayList<>();
        for (Path file : sources()) {
            for (String line : Files.readAllLines(file)) {
                if (line.startsWith("import ") && !line.matches("import (static )?java\\..*")) {
                    offending.add(file.getFileName() + ": " + line);
                }
            }
        }
        assertEquals(List.of(), offending);
    }

    @Test
    void filesStaySmall() throws IOException {
        for (Path file : sources()) {
            int lines = Files.readAllLines(file).size();
            assertTrue(lines <= MAX_LINES, file.getFileName() + " has " + lines + " lines");
        }
    }

    private static List<Path> sources() throws IOException {
        try (Stream<Path> files = Files.list(MAIN)) {
            List<Path> java = files.filter(p -> p.toString().endsWith(".java")).toList();
            assertTrue(java.size() > 10, "rules sources not found under " + MAIN.toAbsolutePath());
            return java;
        }
    }
}
