package dev.gauntlet.runner;

import java.io.IOException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardWatchEventKinds;
import java.nio.file.WatchKey;
import java.nio.file.WatchService;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * Waits for a line in a file a process writes (its log), woken by each change of the file or of the folder it is to
 * appear in, not by a sleep: the signal a test waits on when the process has no other way to say it got somewhere.
 */
public final class FileWatch {
    private FileWatch() {
    }

    /**
     * Returns once {@code file} holds a line {@code wanted} accepts; throws {@link AssertionError} after {@code within}.
     * The file and its folder may not exist yet: the nearest folder on the way that does is watched until they do.
     */
    public static void awaitLine(Path file, Predicate<String> wanted, Duration within) throws IOException, InterruptedException {
        long deadlineNs = System.nanoTime() + within.toNanos();
        try (WatchService watcher = FileSystems.getDefault().newWatchService()) {
            while (true) {
                Path folder = file.toAbsolutePath().getParent();
                while (!Files.isDirectory(folder)) {
                    folder = folder.getParent();
                }
                // Registered before the file is read, so no change between the read and the wait is missed.
                folder.register(watcher, StandardWatchEventKinds.ENTRY_CREATE, StandardWatchEventKinds.ENTRY_MODIFY);
                if (Files.isRegularFile(file) && Files.readString(file).lines().anyMatch(wanted)) {
                    return;
                }
                WatchKey change = watcher.poll(deadlineNs - System.nanoTime(), TimeUnit.NANOSECONDS);
                if (change == null) {
                    throw new AssertionError("no such line in " + file + " within " + within);
                }
                change.pollEvents();
                change.reset();
            }
        }
    }
}
