package dev.taikai.cli;

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
 * The plain-Java cores stay plain (ARCHITECTURE.md): no Quarkus, gRPC, Kafka, CDI, MicroProfile or
 * Micrometer type is named in them, and the command line carries none of those frameworks.
 */
class ArchitectureTest {
    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

    /** Source trees that are cores: whole core modules, and the core packages of the services. */
    private static final List<String> CORES = List.of(
            "rules/src/main/java",
            "engine-host/src/main/java",
            "referee/src/main/java",
            "tournament/src/main/java",
            "scheduler/src/main/java/dev/taikai/scheduler/book",
            "referee-service/src/main/java/dev/taikai/referee/live");

    private static final List<String> FRAMEWORKS = List.of(
            "io.quarkus", "io.grpc", "org.apache.kafka", "jakarta.", "org.eclipse.microprofile", "io.micrometer");

    @Test
    void coresNameNoFrameworkType() throws IOException {
        List<String> offences = new ArrayList<>();
        int files = 0;
        for (String core : CORES) {
            try (Stream<Path> sources = Files.walk(ROOT.resolve(core))) {
                for (Path source :
                        sources.filter(p -> p.toString().endsWith(".java")).toList()) {
                    files++;
                    List<String> lines = Files.readAllLines(source);
                    for (int i = 0; i < lines.size(); i++) {
                        for (String framework : FRAMEWORKS) {
                            if (lines.get(i).contains(framework)) {
                                offences.add(ROOT.relativize(source) + ":" + (i + 1) + ": "
                                        + lines.get(i).trim());
                            }
                        }
                    }
                }
            }
        }
        assertTrue(files > 50, "the cores were found (" + files + " files)");
        assertEquals(List.of(), offences);
    }

    @Test
    void theCommandLineCarriesNoServiceFramework() throws IOException {
        // what the taikai command runs with (its tests may use more: a Kafka client, a gRPC channel)
        String classpath = Files.readString(Path.of("target", "runtime-classpath.txt"));
        assertTrue(classpath.contains("taikai-rules"), classpath);
        for (String jar : classpath.split(java.io.File.pathSeparator)) {
            String name = Path.of(jar).getFileName().toString();
            for (String framework : List.of("quarkus-", "kafka-clients", "grpc-netty")) {
                assertTrue(!name.startsWith(framework), "the taikai command carries " + name);
            }
        }
    }
}
