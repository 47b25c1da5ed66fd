package dev.gauntlet.runner.results;

import dev.gauntlet.runner.base.UserError;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * One run's exclusive hold on its results directory, for as long as the run lasts, so that a second
 * {@code ./gauntlet run --resume DIR} cannot write into a directory a live run is writing:
 *
 * <pre>{@code
 * try (ResultsLock lock = ResultsLock.take(dir)) {  // or a UserError naming the process that holds it
 *     ... measure, write rows ...
 * }
 * }</pre>
 *
 * An operating-system file lock on {@code DIR/.lock}, which the kernel releases when the process ends, however
 * it ends — SIGKILL and a crash included — so a lock is never left behind by a dead run and needs no clean-up.
 * The file holds the holder's PID, only for the message; the file itself stays.
 */
final class ResultsLock implements AutoCloseable {
    static final String FILE = ".lock";

    private final FileChannel channel;

    private ResultsLock(FileChannel channel) {
        this.channel = channel;
    }

    static ResultsLock take(Path dir) {
        Path file = dir.resolve(FILE);
        try {
            FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.READ,
                    StandardOpenOption.WRITE);
            FileLock lock;
            try {
                lock = channel.tryLock();
            } catch (OverlappingFileLockException e) {
                lock = null; // this JVM holds it already
            }
            if (lock == null) {
                String pid = holderPid(channel);
                channel.close();
                throw new UserError(dir + " is in use by a run " + (pid.isEmpty() ? "that is just starting"
                        : "in process " + pid) + "; wait for it to end, or stop it (" + (pid.isEmpty() ? "" : "kill " + pid + "; ")
                        + "what it measured is kept) and resume then");
            }
            channel.truncate(0);
            channel.write(ByteBuffer.wrap(Long.toString(ProcessHandle.current().pid()).getBytes(StandardCharsets.US_ASCII)), 0);
            return new ResultsLock(channel);
        } catch (IOException e) {
            throw new UserError("cannot lock " + file + " for this run: " + e.getMessage()
                    + " (the results directory must be writable)");
        }
    }

    /** The PID the holder wrote; empty while it has not yet. */
    private static String holderPid(FileChannel channel) throws IOException {
        ByteBuffer bytes = ByteBuffer.allocate(32);
        channel.read(bytes, 0);
        return new String(bytes.array(), 0, bytes.position(), StandardCharsets.US_ASCII).trim();
    }

    /** Lets the directory go; the process's end does the same. */
    @Override
    public void close() {
        try {
            channel.close();
        } catch (IOException e) {
            // Closing releases the lock whatever the error; the process's end would anyway.
        }
    }
}
