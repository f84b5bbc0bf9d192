package dev.taikai.cli.run;

import dev.taikai.enginehost.catalog.FileProblem;
import java.io.IOException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A file of a run's records that could not be written (a full disk, a folder removed under the run): its
 * message names the file and why, in words. The journal keeps every game recorded before it, so the run
 * can be resumed once that is mended.
 */
public final class RecordsNotWritten extends IOException {
    private static final long serialVersionUID = 1L;

    RecordsNotWritten(Path file, IOException cause) {
        super("cannot write " + file + ": " + why(file, cause), cause);
    }

    private static String why(Path file, IOException e) {
        Path gone = null; // the outermost folder of the file's that no longer exists
        for (Path folder = file.toAbsolutePath().getParent();
                folder != null && !Files.exists(folder);
                folder = folder.getParent()) {
            gone = folder;
        }
        if (gone != null) {
            return "its folder " + gone + " no longer exists (removed while the run went on?)";
        }
        if (e instanceof FileSystemException fs && fs.getReason() != null) {
            return fs.getReason(); // the message would name the file a second time
        }
        return FileProblem.of(file, e);
    }
}
