package dev.gauntlet.runner;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Where a suite ran, recorded in {@code suite.json} so that figures can be compared fairly later:
 * JDK, CPUs, kernel, the open-files limit, the checkout's commit, and the isolation planned
 * ({@link Isolation#describe()}; what each target got is read back into its {@code isolation.json}).
 */
record Environment(
        Instant startedAt,
        String jdk,
        int cpus,
        String os,
        String kernel,
        String openFilesLimit,
        String gitCommit,
        Map<String, Object> isolation) {

    static Environment capture(GauntletHome home, Isolation isolation) {
        return new Environment(Instant.now(),
                System.getProperty("java.vm.vendor") + " " + System.getProperty("java.runtime.version"),
                Runtime.getRuntime().availableProcessors(),
                System.getProperty("os.name") + " " + System.getProperty("os.arch"),
                System.getProperty("os.version"),
                readOpenFilesLimit(),
                readGitCommit(home.root()),
                isolation.describe());
    }

    /** The soft limit from /proc/self/limits, as the kernel states it ("unknown" off Linux). */
    private static String readOpenFilesLimit() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/limits"), StandardCharsets.US_ASCII)) {
                if (line.startsWith("Max open files")) {
                    return line.substring("Max open files".length()).trim().split("\\s+")[0];
                }
            }
        } catch (IOException e) {
            // not Linux: reported as unknown
        }
        return "unknown";
    }

    private static String readGitCommit(Path checkout) {
        try {
            Process git = new ProcessBuilder("git", "-C", checkout.toString(), "rev-parse", "HEAD")
                    .redirectErrorStream(true).start();
            String out = new String(git.getInputStream().readAllBytes(), StandardCharsets.US_ASCII).trim();
            return git.waitFor(5, TimeUnit.SECONDS) && git.exitValue() == 0 ? out : "unknown";
        } catch (IOException e) {
            return "unknown";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "unknown";
        }
    }
}
