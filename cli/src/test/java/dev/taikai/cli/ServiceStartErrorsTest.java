package dev.taikai.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A service started with a configuration that cannot work (a tokens file or catalog that does not read, a
 * token file or certificate folder that is not there, certificates that are not PEM) stops at once with exit code 1 and says why in one line, without a stack
 * trace: before, the line was buried in one (or two, the gRPC server's and the application's).
 */
class ServiceStartErrorsTest {
    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

    static Stream<Arguments> misconfigurations() {
        String kafka = "-Dtaikai.kafka.bootstrap-servers=127.0.0.1:1";
        return Stream.of(
                Arguments.of(
                        "engine-worker",
                        List.of("-Dtaikai.worker.id=w1", "-Dtaikai.auth.tokens-file=FOLDER/tokens"),
                        "FOLDER/tokens:1: expected 'sha256:<hash> <role> <name>', found 1 word"),
                Arguments.of(
                        "engine-worker",
                        List.of(
                                "-Dtaikai.worker.id=w1",
                                "-Dtaikai.auth.disabled=true",
                                "-Dtaikai.worker.catalog=FOLDER/catalog.yaml"),
                        "taikai.worker.catalog: FOLDER/catalog.yaml:2: engines[0]: an engine needs 'command'"),
                Arguments.of(
                        "scheduler",
                        List.of(kafka, "-Dtaikai.auth.disabled=true", "-Dtaikai.scheduler.catalog=FOLDER/catalog.yaml"),
                        "taikai.scheduler.catalog: FOLDER/catalog.yaml:2: engines[0]: an engine needs 'command'"),
                Arguments.of(
                        "referee-service",
                        List.of(
                                kafka,
                                "-Dtaikai.auth.disabled=true",
                                "-Dtaikai.referee.id=r1",
                                "-Dtaikai.referee.workers=127.0.0.1:1",
                                "-Dtaikai.referee.token-file=FOLDER/missing.token"),
                        "cannot read taikai.referee.token-file: FOLDER/missing.token"),
                // a certificate folder that is not there, or whose files are not PEM: before, Quarkus's TLS
                // registry failed with a stack trace of four causes
                Arguments.of(
                        "engine-worker",
                        List.of("-Dtaikai.worker.id=w1", "-Dtaikai.tls.dir=FOLDER/none"),
                        "taikai.tls.dir=FOLDER/none: cannot read FOLDER/none/tls.crt"),
                Arguments.of(
                        "scheduler",
                        List.of(kafka, "-Dtaikai.auth.disabled=true", "-Dtaikai.tls.dir=FOLDER/garbage"),
                        "taikai.tls.dir=FOLDER/garbage: FOLDER/garbage/tls.crt does not hold PEM certificates: No"
                                + " certificate data found"));
    }

    @ParameterizedTest
    @MethodSource("misconfigurations")
    void aServiceThatCannotWorkSaysWhyInOneLine(String module, List<String> options, String expected, @TempDir Path dir)
            throws Exception {
        Files.writeString(dir.resolve("tokens"), "garbage\n");
        Files.writeString(dir.resolve("catalog.yaml"), "engines:\n  - {id: x}\n");
        Path garbage = Files.createDirectories(dir.resolve("garbage"));
        for (String file : List.of("tls.crt", "tls.key", "ca.crt")) {
            Files.writeString(garbage.resolve(file), "garbage\n");
        }
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Dquarkus.http.host=127.0.0.1",
                "-Dquarkus.http.port=0",
                "-Dquarkus.grpc.server.host=127.0.0.1",
                "-Dquarkus.grpc.server.port=0"));
        options.forEach(option -> command.add(option.replace("FOLDER", dir.toString())));
        command.add("-jar");
        command.add(ROOT.resolve(module)
                .resolve("target/quarkus-app/quarkus-run.jar")
                .toString());
        Path output = dir.resolve("output.txt");
        Process service = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(output.toFile())
                .start();
        try {
            assertTrue(service.waitFor(120, TimeUnit.SECONDS), module + " stops by itself");
            String said = Files.readString(output, StandardCharsets.UTF_8);
            assertEquals(1, service.exitValue(), said);
            assertTrue(said.lines().anyMatch(expected.replace("FOLDER", dir.toString())::equals), said);
            assertFalse(said.lines().anyMatch(line -> line.startsWith("\tat ")), "no stack trace:\n" + said);
            assertFalse(said.contains("Exception"), said);
        } finally {
            service.destroyForcibly();
        }
    }
}
