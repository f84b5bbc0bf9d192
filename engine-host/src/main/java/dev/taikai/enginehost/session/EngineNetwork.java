package dev.taikai.enginehost.session;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Engines have no network where the host allows it: each engine process starts in a network namespace of
 * its own (util-linux {@code unshare --net}), which holds only a loopback interface that is down, so the
 * engine can open no connection to anything, this machine's own services included. Without the right to
 * make one ({@code CAP_SYS_ADMIN}), a user namespace is made too ({@code --user --map-current-user}),
 * which unprivileged users may do on most Linux hosts. Worked out once per process, by starting
 * {@code /bin/true} so; {@link #isolation()} says how it went, for the worker's start-up log.
 */
public final class EngineNetwork {
    private static final Path UNSHARE = Path.of("/usr/bin/unshare");
    private static final Path TRUE = Path.of("/bin/true");

    /**
     * How engines start: {@code prefix} goes before the engine's command line (empty: with the host's
     * network); {@code description} says so in words.
     */
    public record Isolation(List<String> prefix, String description) {
        public boolean isolated() {
            return !prefix.isEmpty();
        }
    }

    private static volatile Isolation isolation;

    private EngineNetwork() {}

    /** How this process starts engines; probed on first use. */
    public static Isolation isolation() {
        Isolation known = isolation;
        if (known == null) {
            synchronized (EngineNetwork.class) {
                if (isolation == null) {
                    isolation = probe();
                }
                known = isolation;
            }
        }
        return known;
    }

    private static Isolation probe() {
        if (!Files.isExecutable(UNSHARE) || !Files.isExecutable(TRUE)) {
            return new Isolation(List.of(), "engines have the host's network: " + UNSHARE + " is missing (util-linux)");
        }
        List<List<String>> candidates = List.of(
                List.of(UNSHARE.toString(), "--net", "--"),
                List.of(UNSHARE.toString(), "--user", "--map-current-user", "--net", "--"));
        String refusal = "";
        for (List<String> prefix : candidates) {
            refusal = tryStart(prefix);
            if (refusal.isEmpty()) {
                return new Isolation(
                        prefix,
                        "engines start without network, each in a network namespace of its own ("
                                + String.join(" ", prefix.subList(0, prefix.size() - 1)) + ")");
            }
        }
        return new Isolation(
                List.of(),
                "engines have the host's network: this host does not allow a network namespace (" + refusal + ")");
    }

    /** Starts {@code /bin/true} with {@code prefix}: empty when it worked, or else why not. */
    private static String tryStart(List<String> prefix) {
        List<String> argv = new ArrayList<>(prefix);
        argv.add(TRUE.toString());
        try {
            Process process = new ProcessBuilder(argv).redirectErrorStream(true).start();
            process.getOutputStream().close();
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                return String.join(" ", argv) + " did not end within 10 s";
            }
            String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
            return process.exitValue() == 0
                    ? ""
                    : String.join(" ", argv) + ": " + (output.isEmpty() ? "exit " + process.exitValue() : output);
        } catch (IOException e) {
            return String.join(" ", argv) + ": " + e.getMessage();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "interrupted";
        }
    }
}
