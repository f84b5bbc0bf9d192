package dev.taikai.testkit;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The light engine ({@code light-engine.c} beside this class): a USI engine in C for scale runs, a real
 * process of about 1.5 MB of memory that starts in a millisecond, plays a legal Minishogi move after
 * sleeping a configured time and answers {@code isready}, {@code stop} and {@code quit} during that sleep.
 * Built here with the machine's C compiler, once per version of its source.
 */
public final class LightEngine {
    private static final String SOURCE = "light-engine.c";

    private LightEngine() {}

    /**
     * The light engine's program, compiled with {@code cc} (or {@code gcc}) into {@code java.io.tmpdir} when
     * this version of its source has not been compiled there yet.
     *
     * @throws IllegalStateException naming the compiler's complaint when it cannot be built
     */
    public static synchronized Path program() {
        byte[] source = source();
        Path directory = Path.of(System.getProperty("java.io.tmpdir"), "taikai-light-engine-" + digest(source));
        Path program = directory.resolve("light-engine");
        if (Files.isExecutable(program)) {
            return program;
        }
        try {
            Files.createDirectories(directory);
            Path file = directory.resolve(SOURCE);
            Files.write(file, source);
            Path built = Files.createTempFile(directory, "light-engine-", ".tmp");
            Path log = directory.resolve("cc.log");
            Process cc = new ProcessBuilder(compiler(), "-O2", "-o", built.toString(), file.toString())
                    .redirectErrorStream(true)
                    .redirectOutput(log.toFile())
                    .start();
            if (!cc.waitFor(120, TimeUnit.SECONDS) || cc.exitValue() != 0) {
                cc.destroyForcibly();
                throw new IllegalStateException("cannot compile the light engine (" + file + "): "
                        + Files.readString(log, StandardCharsets.UTF_8).strip());
            }
            // moved into place whole: another JVM building at the same moment finds a complete program or none
            Files.move(built, program, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            return program;
        } catch (IOException e) {
            throw new IllegalStateException("cannot build the light engine in " + directory + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while building the light engine", e);
        }
    }

    /**
     * {@code light-engine <switches>}: {@code --think-ms MIN[-MAX]}, {@code --seed N}, {@code --name NAME},
     * {@code --start-cpu-ms N} (CPU time spent before its first command), {@code --no-usiok} (a handshake
     * that never ends).
     */
    public static List<String> command(String... switches) {
        List<String> command = new ArrayList<>();
        command.add(program().toString());
        command.addAll(List.of(switches));
        return command;
    }

    private static String compiler() {
        for (String name : List.of("cc", "gcc")) {
            for (String dir : System.getenv().getOrDefault("PATH", "/usr/bin").split(":")) {
                if (Files.isExecutable(Path.of(dir, name))) {
                    return Path.of(dir, name).toString();
                }
            }
        }
        throw new IllegalStateException("the light engine needs a C compiler (cc or gcc): apt-get install gcc");
    }

    private static byte[] source() {
        try (InputStream in = LightEngine.class.getResourceAsStream(SOURCE)) {
            if (in == null) {
                throw new IllegalStateException("the testkit lacks " + SOURCE);
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new IllegalStateException("cannot read " + SOURCE + ": " + e.getMessage(), e);
        }
    }

    private static String digest(byte[] bytes) {
        try {
            return HexFormat.of()
                    .formatHex(MessageDigest.getInstance("SHA-256").digest(bytes))
                    .substring(0, 16);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
