package dev.taikai.cli.run;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;

/**
 * Where a run's records go when nobody named a folder: {@code <base>/<name>-<yyyyMMdd-HHmmss>}, a new
 * folder for every run (with {@code -2}, {@code -3} ... when two start in the same second), so that a run
 * never resumes, or is refused by, another run's records unasked.
 */
public final class NewFolder {
    private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss");

    private NewFolder() {}

    /**
     * A folder under {@code base} named after {@code name} and the time now, that does not exist yet. The
     * name keeps its letters and digits in any script (a 名人戦 stays so); every other run of characters is
     * one {@code -}, and none leads, so that no folder reads as a command's option or a hidden file.
     */
    public static Path of(Path base, String name) {
        String kept = name.replaceAll("[^\\p{L}\\p{N}._-]+", "-").replaceAll("^[-.]+|-+$", "");
        if (kept.codePointCount(0, kept.length()) > 60) { // a file name has 255 bytes, 名 takes three
            kept = kept.substring(0, kept.offsetByCodePoints(0, 60));
        }
        String stem =
                (kept.isEmpty() ? "run" : kept) + "-" + LocalDateTime.now().format(STAMP);
        Path folder = base.resolve(stem);
        for (int n = 2; Files.exists(folder); n++) {
            folder = base.resolve(stem + "-" + n);
        }
        return folder;
    }
}
