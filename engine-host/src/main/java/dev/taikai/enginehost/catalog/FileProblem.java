package dev.taikai.enginehost.catalog;

import java.io.IOException;
import java.nio.charset.CharacterCodingException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;

/** Why a file could not be read or made, in words a user acts on rather than an exception's message. */
public final class FileProblem {
    private FileProblem() {}

    /**
     * "it does not exist", "permission denied", "it is a folder", "it is not UTF-8 text", or the exception's
     * message.
     */
    public static String of(Path file, IOException e) {
        if (e instanceof NoSuchFileException missing) {
            return missing.getFile() == null || Path.of(missing.getFile()).equals(file)
                    ? "it does not exist"
                    : missing.getFile() + " does not exist";
        }
        if (e instanceof AccessDeniedException) {
            return "permission denied";
        }
        if (e instanceof CharacterCodingException) {
            return "it is not UTF-8 text";
        }
        if (e instanceof FileAlreadyExistsException || e instanceof NotDirectoryException) {
            return e.getMessage() + " is a file, not a folder";
        }
        if (Files.isDirectory(file)) {
            return "it is a folder";
        }
        return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    }
}
