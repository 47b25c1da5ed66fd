package dev.gauntlet.runner.execution;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A process's whole command line, its arguments joined by spaces, read from {@code /proc/PID/cmdline}: the JDK's
 * {@code ProcessHandle.Info#commandLine} reads one page (4,096 bytes) of it, and a generator JVM's classpath runs past
 * that, so the main class after it would not be seen. Empty once the process is gone.
 */
public final class FullCommandLine {
    private FullCommandLine() {
    }

    public static String of(ProcessHandle process) {
        try {
            return new String(Files.readAllBytes(Path.of("/proc", Long.toString(process.pid()), "cmdline")),
                    StandardCharsets.UTF_8).replace('\0', ' ').strip();
        } catch (IOException e) {
            return "";
        }
    }
}
