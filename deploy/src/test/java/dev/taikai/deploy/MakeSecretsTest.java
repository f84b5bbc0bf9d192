package dev.taikai.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * deploy/k8s/make-secrets.sh run again: it used to issue every token anew without a word, so that the next
 * apply locked out whoever held the admin token; and a mistyped overlay got a secrets folder no overlay
 * reads. The script runs here as users run it, on a copy of an overlay's kustomization.
 */
class MakeSecretsTest {
    private static final Path SCRIPT =
            Path.of("..").toAbsolutePath().normalize().resolve("deploy/k8s/make-secrets.sh");
    private static final List<String> FILES = List.of("tokens", "admin.token", "referee.token", "viewer.token");

    @TempDir
    Path work;

    private record Run(int exit, String output) {}

    @Test
    void aRerunKeepsTheTokensAndSaysSoAndRotateReplacesThem() throws Exception {
        Path overlay = overlay();
        assertEquals(0, run(overlay.toString()).exit());
        List<String> first = contents(overlay);
        Run again = run(overlay.toString());
        assertEquals(0, again.exit(), again.output());
        assertTrue(again.output().startsWith("tokens in " + overlay.resolve("secrets") + " kept"), again.output());
        assertTrue(again.output().contains("--rotate " + overlay), again.output());
        assertEquals(first, contents(overlay), "a rerun changes no token");
        Run rotate = run("--rotate", overlay.toString());
        assertEquals(0, rotate.exit(), rotate.output());
        List<String> rotated = contents(overlay);
        for (int i = 0; i < FILES.size(); i++) {
            assertNotEquals(first.get(i), rotated.get(i), FILES.get(i) + " is issued anew");
        }
        assertEquals("rwx------", perms(overlay.resolve("secrets")));
        assertEquals("rw-------", perms(overlay.resolve("secrets/admin.token")));
    }

    @Test
    void aFolderThatIsNoOverlayOrTokensMissingInPartAreRefused() throws Exception {
        Path mistyped = work.resolve("overlays/dve");
        Run refused = run(mistyped.toString());
        assertEquals(2, refused.exit(), refused.output());
        assertEquals(
                "make-secrets.sh: " + mistyped + " is not an overlay (it has no kustomization.yaml); nothing written\n",
                refused.output());
        assertFalse(Files.exists(mistyped), "nothing made for a mistyped overlay");

        Path overlay = overlay();
        assertEquals(0, run(overlay.toString()).exit());
        Files.delete(overlay.resolve("secrets/viewer.token"));
        Run partial = run(overlay.toString());
        assertEquals(2, partial.exit(), partial.output());
        assertEquals(
                "make-secrets.sh: " + overlay.resolve("secrets")
                        + " lacks viewer.token; issue every token anew with --rotate\n",
                partial.output());

        Run unknown = run("--rotat", overlay.toString());
        assertEquals(2, unknown.exit(), unknown.output());
        assertTrue(unknown.output().startsWith("make-secrets.sh: unknown option '--rotat'"), unknown.output());
        Run help = run("--help");
        assertEquals(0, help.exit(), help.output());
        assertTrue(help.output().startsWith("usage: deploy/k8s/make-secrets.sh [--rotate] OVERLAY_DIR"));
    }

    private Path overlay() throws Exception {
        Path overlay = Files.createDirectories(work.resolve("overlays/dev"));
        Files.copy(SCRIPT.resolveSibling("overlays/dev/kustomization.yaml"), overlay.resolve("kustomization.yaml"));
        return overlay;
    }

    private static List<String> contents(Path overlay) throws Exception {
        List<String> texts = new java.util.ArrayList<>();
        for (String file : FILES) {
            texts.add(Files.readString(overlay.resolve("secrets").resolve(file)));
        }
        return texts;
    }

    private static String perms(Path path) throws Exception {
        return java.nio.file.attribute.PosixFilePermissions.toString(Files.getPosixFilePermissions(path));
    }

    private static Run run(String... args) throws Exception {
        List<String> command = new java.util.ArrayList<>(List.of("sh", SCRIPT.toString()));
        command.addAll(List.of(args));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        byte[] output = process.getInputStream().readAllBytes();
        assertTrue(process.waitFor(60, TimeUnit.SECONDS), "make-secrets.sh ended");
        return new Run(process.exitValue(), new String(output, StandardCharsets.UTF_8));
    }
}
