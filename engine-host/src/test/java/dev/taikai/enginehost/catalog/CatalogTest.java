package dev.taikai.enginehost.catalog;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.taikai.enginehost.config.ConfigException;
import dev.taikai.rules.Notation;
import java.io.StringReader;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class CatalogTest {
    @Test
    void theDocumentedExampleReadsAsDocumented() throws ConfigException {
        Catalog catalog = Catalog.read(Path.of("../docs/engines.example.yaml"));
        assertEquals(3, catalog.engines().size());

        EngineSpec strong = catalog.engine("fsf-strong").orElseThrow();
        assertEquals(List.of("fairy-stockfish"), strong.command());
        assertEquals(Map.of("Hash", "64", "Threads", "1"), strong.options());
        assertEquals(List.of("Hash", "Threads"), List.copyOf(strong.options().keySet()), "options keep file order");
        assertEquals(Set.of(Quirk.SWAPPED_CLOCKS), strong.quirks());
        assertEquals(ProcessLimits.DEFAULT, strong.limits());
        assertEquals(EngineSpec.AUTO_VARIANT_OPTION, strong.variantOption());
        assertNull(strong.workingDirectory());

        assertEquals("5", catalog.engine("fsf-level-5").orElseThrow().options().get("Skill Level"));
        assertEquals(1024, catalog.engine("fsf-level-5").orElseThrow().limits().memoryMegabytes());

        EngineSpec mine = catalog.engine("my-engine").orElseThrow();
        assertEquals(List.of("./bin/my-engine", "--usi", "--book=book file.bin"), mine.command());
        assertEquals(Path.of("/opt/engines/my-engine"), mine.workingDirectory());
        assertEquals(Map.of("OMP_NUM_THREADS", "1"), mine.environment());
        assertEquals("USI_Variant", mine.variantOption());
        assertEquals(Notation.LISHOGI, mine.notation());
        assertEquals(new ProcessLimits(2048, 64, 65536, 100), mine.limits());
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            quoteCharacter = '"',
            value = {
                "\"\" | engines.yaml: the catalog is empty; it needs an 'engines' list",
                "engine: [] | engines.yaml:1: unknown key 'engine'; expected one of engines",
                "engines: {} | engines.yaml:1: engines: expected a list",
                "engines:\\n  - id: a | engines.yaml:2: engines[0]: an engine needs 'command'",
                "engines:\\n  - command: x | engines.yaml:2: engines[0]: an engine needs 'id'",
                "engines:\\n  - id: a\\n    comand: x | engines.yaml:3: engines[0]: unknown key 'comand'",
                "engines:\\n  - id: 'a b'\\n    command: x | engines.yaml:2: engines[0].id: 'a b' is not a valid id",
                "engines:\\n  - id: a\\n    command: ''\\n | engines.yaml:3: engines[0].command: must not be empty",
                "engines:\\n  - id: a\\n    command: x\\n    quirks: [fast] | engines.yaml:4: engines[0].quirks: unknown quirk 'fast'; known: swapped-clocks",
                "engines:\\n  - id: a\\n    command: x\\n    notation: kif | engines.yaml:4: engines[0].notation: unknown notation; use fsf or lishogi",
                "engines:\\n  - id: a\\n    command: x\\n    limits:\\n      memory-mb: lots | engines.yaml:5: engines[0].limits.memory-mb: expected a whole number, not 'lots'",
                "engines:\\n  - id: a\\n    command: x\\n    limits:\\n      max-line-bytes: 10 | engines.yaml:5: engines[0].limits.max-line-bytes: 10 is out of range (256 to 67108864)",
                "engines:\\n  - id: a\\n    command: x\\n    options: [Hash] | engines.yaml:4: engines[0].options: expected a mapping of keys to values",
                "engines:\\n  - id: a\\n    command: x\\n    options: {Str: ~} | engines.yaml:4: engines[0].options.Str: '~' is YAML's null: quote it for the word, or leave the value empty for none",
                "engines:\\n  - id: a\\n    command: x\\n    options: {Str: null} | engines.yaml:4: engines[0].options.Str: 'null' is YAML's null",
                "engines:\\n  - id: a\\n    command: x\\n    id: b | engines.yaml:4: engines[0]: key 'id' appears twice",
                "engines:\\n  - id: a\\n    command: x\\n  - id: a\\n    command: y | engines.yaml:4: engines[1]: engine id 'a' is used twice",
                "engines:\\n  - id: a\\n   command: x | engines.yaml:3: not valid YAML",
                "engines:\\n\\t- id: a | engines.yaml:2: not valid YAML",
            })
    void everyErrorNamesFileLineAndField(String yaml, String message) {
        ConfigException e = assertThrows(
                ConfigException.class,
                () -> Catalog.parse(new StringReader(yaml.replace("\\n", "\n").replace("\\t", "\t")), "engines.yaml"));
        assertTrue(e.getMessage().startsWith(message), e.getMessage());
    }

    /** No program takes a NUL: refused where it is written, not by a failed start after the run began. */
    @Test
    void aNulInACommandOrTheEnvironmentIsRefusedWhereItIsWritten() {
        for (String yaml : List.of(
                "engines:\n  - id: a\n    command: \"x\\0y\"\n",
                "engines:\n  - id: a\n    command: x\n    env: {X: \"a\\0b\"}\n",
                "engines:\n  - id: a\n    command: x\n    env: {\"A=B\": x}\n")) {
            ConfigException e = assertThrows(
                    ConfigException.class, () -> Catalog.parse(new StringReader(yaml), "engines.yaml"), yaml);
            assertTrue(e.getMessage().startsWith("engines.yaml:"), e.getMessage());
            assertTrue(e.getMessage().contains("NUL"), e.getMessage());
            assertFalse(e.getMessage().contains("\0"), "the NUL itself is not printed: " + e.getMessage());
        }
    }

    @Test
    void anIdOrACommandLine() throws ConfigException {
        Catalog catalog = Catalog.builtIn();
        assertEquals(
                Set.of(Quirk.SWAPPED_CLOCKS), catalog.resolve("fairy-stockfish").quirks());
        EngineSpec command = catalog.resolve("/opt/x/engine --threads 2 'a b' \"c d\"");
        assertEquals("engine", command.id());
        assertEquals(List.of("/opt/x/engine", "--threads", "2", "a b", "c d"), command.command());
        assertTrue(command.quirks().isEmpty());
        EngineSpec pairs =
                catalog.resolve("name=strong cmd=/usr/games/fairy-stockfish arg=-x dir=/tmp 'option.Skill Level=5'"
                        + " option.Hash=64 env.OMP_NUM_THREADS=1 quirk=swapped-clocks notation=lishogi variant-option=UCI_Variant"
                        + " memory-mb=1024 processes=32 max-line-bytes=4096 stderr-lines=5");
        assertEquals("strong", pairs.id());
        assertEquals(List.of("/usr/games/fairy-stockfish", "-x"), pairs.command());
        assertEquals(Path.of("/tmp"), pairs.workingDirectory());
        assertEquals(Map.of("Skill Level", "5", "Hash", "64"), pairs.options());
        assertEquals(Map.of("OMP_NUM_THREADS", "1"), pairs.environment());
        assertEquals(Set.of(Quirk.SWAPPED_CLOCKS), pairs.quirks());
        assertEquals(Notation.LISHOGI, pairs.notation());
        assertEquals("UCI_Variant", pairs.variantOption());
        assertEquals(new ProcessLimits(1024, 32, 4096, 5), pairs.limits());
        assertEquals("engine", catalog.resolve("cmd=/opt/engine").id());
        assertEquals(
                "unknown engine argument 'comand'",
                assertThrows(ConfigException.class, () -> catalog.resolve("cmd=x comand=y"))
                        .getMessage());
        assertEquals(
                "memory-mb needs a whole number, not 'lots'",
                assertThrows(ConfigException.class, () -> catalog.resolve("cmd=x memory-mb=lots"))
                        .getMessage());
        assertEquals(
                "unknown quirk 'fast'",
                assertThrows(ConfigException.class, () -> catalog.resolve("cmd=x quirk=fast"))
                        .getMessage());
        assertThrows(ConfigException.class, () -> catalog.resolve("  "));
        assertThrows(ConfigException.class, () -> catalog.resolve("engine 'unclosed"));
    }
}
