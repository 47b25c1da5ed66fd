package dev.gauntlet.runner.metrics;

import dev.gauntlet.api.JvmMetrics;
import dev.gauntlet.api.RunDirectory;
import dev.gauntlet.api.RunJvmCosts;
import dev.gauntlet.api.RunSummary;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * After a run: reads both sides' recordings (the target's run window, which the runner copied out of its
 * recording) and lines their GC pauses up with the interval logs. Whatever cannot be read becomes a note; a run's
 * latency figures never depend on it.
 *
 * <pre>{@code
 * String noRecording = target.copyRecording(runStart, runEnd, new RunDirectory(runDir).targetJfr());
 * RunJvmCosts jvm = JvmCosts.collect(runDir, noRecording, runStart, runEnd, summary);
 * store.writeJson(new RunDirectory(runDir).jvm(), jvm);   // jvm.json, beside the generator's summary.json
 * }</pre>
 */
public final class JvmCosts {

    private JvmCosts() {
    }

    /**
     * @param noTargetRecording why the target's window of its recording was not copied to {@code target.jfr}; null when it was
     * @param runStart  when the generator JVM was started
     * @param runEnd    when it had exited
     */
    public static RunJvmCosts collect(Path runDir, String noTargetRecording, Instant runStart, Instant runEnd, RunSummary summary) {
        List<String> notes = new ArrayList<>();
        JvmMetricsReader.Window run = new JvmMetricsReader.Window(runStart, runEnd);
        Instant measuredStart = summary.measureStartedAt();
        JvmMetricsReader.Window measured = new JvmMetricsReader.Window(measuredStart,
                measuredStart.plusNanos((long) (summary.measuredSec() * 1e9)));

        Path targetFile = new RunDirectory(runDir).targetJfr();
        JvmMetrics target = null;
        if (noTargetRecording != null) {
            notes.add("no target.jfr: " + noTargetRecording);
        } else {
            target = read(targetFile, run, measured, "target", notes);
        }
        Path generatorFile = new RunDirectory(runDir).generatorJfr();
        JvmMetrics generator = null;
        if (Files.isRegularFile(generatorFile)) {
            generator = read(generatorFile, run, measured, "generator", notes);
        } else {
            notes.add("no generator.jfr: the generator JVM wrote none (a results path with a comma, or a JVM that was killed)");
        }

        RunJvmCosts.PauseAlignment alignment = null;
        try {
            alignment = PauseAligner.align(runDir, measuredPausesOf(target, measured), measuredPausesOf(generator, measured));
        } catch (IOException e) {
            notes.add("interval logs not lined up with GC pauses: " + e.getMessage());
        }
        return new RunJvmCosts(target, generator, alignment, notes);
    }

    private static JvmMetrics read(Path file, JvmMetricsReader.Window run, JvmMetricsReader.Window measured, String side,
                                   List<String> notes) {
        try {
            return JvmMetricsReader.read(file, run, measured);
        } catch (IOException e) {
            notes.add("the " + side + "'s recording " + file.getFileName() + " could not be read: " + e.getMessage());
            return null;
        }
    }

    /**
     * The pauses the JVM's figures count, those that began in the measured phase: the tail's pauses are among them, so
     * the evidence's longest is never one the JVM's figures leave out (a warm-up's, one after the phase's end).
     */
    private static List<JvmMetrics.Pause> measuredPausesOf(JvmMetrics metrics, JvmMetricsReader.Window measured) {
        return metrics == null ? List.of() : metrics.gcPauses().timeline().stream()
                .filter(pause -> measured.contains(JvmMetricsReader.instant(pause.startEpochMs()))).toList();
    }
}
