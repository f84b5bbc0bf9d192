package dev.taikai.cli.run;

import dev.taikai.enginehost.config.ConfigException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The lock a run holds on its records folder, so that two runs never write one folder at once: an
 * operating-system lock on {@value #FILE} in the folder, which holds the process id of the run that has it.
 * The lock ends with the process, however it ends; the file stays.
 */
final class FolderLock implements AutoCloseable {
    static final String FILE = "taikai.lock";

    private final FileChannel channel;
    private final FileLock lock;

    private FolderLock(FileChannel channel, FileLock lock) {
        this.channel = channel;
        this.lock = lock;
    }

    /** Takes the lock of {@code dir}, an existing folder; refused when another run holds it. */
    static FolderLock take(Path dir) throws IOException, ConfigException {
        Path file = dir.resolve(FILE);
        FileChannel channel =
                FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE);
        FileLock lock;
        try {
            lock = channel.tryLock();
        } catch (OverlappingFileLockException e) {
            lock = null; // a run of this process holds it
        } catch (IOException e) {
            channel.close();
            throw e;
        }
        if (lock == null) {
            channel.close();
            String holder = holder(file);
            throw new ConfigException("the records folder " + dir + " is in use by another run"
                    + (holder.isEmpty() ? "" : " (process " + holder + ")")
                    + "; wait until it ends, or name another folder (-out DIR, or 'output:')");
        }
        channel.truncate(0);
        channel.write(ByteBuffer.wrap((ProcessHandle.current().pid() + "\n").getBytes(StandardCharsets.US_ASCII)));
        return new FolderLock(channel, lock);
    }

    /** The process id written in the lock file, or "" when it holds none. */
    private static String holder(Path file) {
        try {
            String text = Files.readString(file, StandardCharsets.US_ASCII).strip();
            return text.matches("[0-9]{1,19}") ? text : "";
        } catch (IOException e) {
            return "";
        }
    }

    @Override
    public void close() throws IOException {
        try {
            lock.release();
        } finally {
            channel.close();
        }
    }
}
