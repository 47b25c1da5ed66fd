package dev.gauntlet.runner.metrics;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The JFR recordings of the JVMs Gauntlet starts: the options that start one, and a target's run
 * window copied out of its recording.
 *
 * <pre>{@code
 * options.addAll(JfrRecording.continuous());                         // a target: one recording across its runs
 * JfrRecording.dumpWindow(target.pid(), runStart, runEnd, run.targetJfr());
 * options.addAll(JfrRecording.toFileAtExit(run.generatorJfr()));   // a generator: one JVM per run
 * }</pre>
 *
 * Both record with {@code gauntlet.jfc}: only the events the run figures are read from, the
 * periodic ones once a second, and nothing per request (JFR's own {@code default} settings record
 * every sleep, park and socket read over 20 ms with its stack, which costs a target serving
 * thousands of waiting requests a share of its CPU: {@code bench/jfr-overhead.sh}). Every recording
 * is capped at {@value #MAX_SIZE_MB} MB on disk, so a long run keeps its most recent data.
 */
public final class JfrRecording {
    /** The recording a target keeps across its runs, by which its windows are copied out. */
    public static final String NAME = "gauntlet";
    private static final int MAX_SIZE_MB = 256;
    private static final String SETTINGS_RESOURCE = "/dev/gauntlet/runner/gauntlet.jfc";
    /** The JVM reads its settings from a file: the resource is copied out once per runner. */
    private static Path settingsFile;
    /** JFR's start-up notice would otherwise be among the last lines quoted when a target dies. */
    private static final String QUIET = "-Xlog:jfr+startup=off";
    /** jcmd is a small JVM of its own: its start, the attach, and the copy of a few chunks. */
    private static final long DUMP_TIMEOUT_SEC = 30;

    private JfrRecording() {
    }

    /** Options for a JVM that lives across several runs: the recording is kept and windows are dumped from it. */
    public static List<String> continuous() {
        return List.of(QUIET, "-XX:StartFlightRecording=name=" + NAME + "," + settings());
    }

    /**
     * Options for a JVM on another machine, which reads the settings from its own {@code settingsFile} (a copy of
     * {@link #settingsText()}, in a pod's ConfigMap): a recording named {@code name}, kept in the JVM.
     */
    public static List<String> recordingIn(String name, String settingsFile) {
        return List.of(QUIET, "-XX:StartFlightRecording=name=" + name + ",settings=" + settingsFile + ",maxsize=" + MAX_SIZE_MB + "m");
    }

    /** {@code gauntlet.jfc}, as a pod's ConfigMap carries it. */
    public static String settingsText() {
        try (InputStream jfc = JfrRecording.class.getResourceAsStream(SETTINGS_RESOURCE)) {
            return new String(jfc.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the JFR settings " + SETTINGS_RESOURCE, e);
        }
    }

    /** Options for a JVM that lives for one run: the recording is written to {@code file} when it exits. */
    public static List<String> toFileAtExit(Path file) {
        String path = file.toAbsolutePath().toString();
        if (path.contains(",")) {
            // The option's own syntax splits on commas; such a directory gets no recording rather than a broken JVM start.
            return List.of();
        }
        return List.of(QUIET, "-XX:StartFlightRecording=name=" + NAME + ",filename=" + path + ",dumponexit=true," + settings());
    }

    private static synchronized String settings() {
        if (settingsFile == null) {
            try {
                Path file = Files.createTempFile("gauntlet-", ".jfc");
                file.toFile().deleteOnExit();
                Files.writeString(file, settingsText());
                settingsFile = file;
            } catch (IOException e) {
                throw new UncheckedIOException("cannot copy the JFR settings " + SETTINGS_RESOURCE + " to a file", e);
            }
        }
        return "settings=" + settingsFile + ",maxsize=" + MAX_SIZE_MB + "m";
    }

    /**
     * Copies what a {@link #continuous()} recording holds between {@code from} and {@code to} into {@code file},
     * through the JDK's {@code jcmd}. JFR copies whole chunks, so the file may hold a little more than the window:
     * readers filter by time. Returns null when done, else why not, in one sentence.
     */
    public static String dumpWindow(long pid, Instant from, Instant to, Path file) {
        Path jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd");
        List<String> command = List.of(jcmd.toString(), Long.toString(pid), "JFR.dump", "name=" + NAME,
                "begin=" + from.truncatedTo(ChronoUnit.SECONDS), "end=" + to.truncatedTo(ChronoUnit.SECONDS).plusSeconds(1),
                "filename=" + file.toAbsolutePath());
        try {
            Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
            // Its few lines fit the pipe's buffer: read them once it has exited.
            if (!process.waitFor(DUMP_TIMEOUT_SEC, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                return "jcmd JFR.dump took over " + DUMP_TIMEOUT_SEC + " s";
            }
            String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
            return process.exitValue() == 0 && file.toFile().isFile() ? null
                    : "jcmd JFR.dump failed: " + output.lines().reduce((first, last) -> last).orElse("no output");
        } catch (IOException e) {
            return "jcmd could not be run: " + e.getMessage();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "interrupted while dumping the target's recording";
        }
    }
}
