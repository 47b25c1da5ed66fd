package dev.gauntlet.runner.metrics;

import dev.gauntlet.api.JvmMetrics;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedObject;
import jdk.jfr.consumer.RecordingFile;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;

/**
 * Reads one JVM's JFR recording into {@link JvmMetrics}: figures over the measured phase, GC pauses
 * and samples over time over the whole run window (a recording dumped from a longer one holds more; it is cut here).
 *
 * <pre>{@code
 * JvmMetrics target = JvmMetricsReader.read(run.targetJfr(), runWindow, measuredPhase);
 * }</pre>
 */
final class JvmMetricsReader {
    /** Emitted once a second by every target ({@code dev.gauntlet.targets.VirtualThreadSchedulerEvent}). */
    static final String SCHEDULER_EVENT = "dev.gauntlet.VirtualThreadScheduler";
    private static final double BYTES_PER_MB = 1024.0 * 1024.0;

    /** A span of wall-clock time, both ends included. */
    record Window(Instant from, Instant to) {
        boolean contains(Instant instant) {
            return !instant.isBefore(from) && !instant.isAfter(to);
        }

        double seconds() {
            return Duration.between(from, to).toNanos() / 1e9;
        }
    }

    private JvmMetricsReader() {
    }

    /** The instant of a pause's or sample's fractional {@code epochMs}, to the nanosecond as its event had it. */
    static Instant instant(double epochMs) {
        long wholeMs = (long) Math.floor(epochMs);
        return Instant.ofEpochMilli(wholeMs).plusNanos(Math.round((epochMs - wholeMs) * 1e6));
    }

    static JvmMetrics read(Path file, Window run, Window measured) throws IOException {
        Figures figures = new Figures();
        try (RecordingFile recording = new RecordingFile(file)) {
            while (recording.hasMoreEvents()) {
                RecordedEvent event = recording.readEvent();
                if (event.getEventType().getName().equals("jdk.GCPhasePause")) {
                    figures.pause(event, run, measured);
                    continue;
                }
                if (run.contains(event.getStartTime())) {
                    figures.overTime(event);
                }
                if (measured.contains(event.getStartTime())) {
                    figures.sample(event);
                } else {
                    figures.describe(event);
                }
            }
        }
        return figures.metrics(measured);
    }

    /** What the events add up to, as they are read. */
    private static final class Figures {
        private String gc;
        private List<String> jvmArguments = List.of();
        private final List<JvmMetrics.Pause> timeline = new ArrayList<>();
        private int pauses;
        private double pauseTotalMs;
        private double pauseMaxMs;
        private final Stat heapUsed = new Stat();
        private final Stat heapCommitted = new Stat();
        private final Stat platformThreads = new Stat();
        private long pinned;
        private final Stat mounted = new Stat();
        private final Stat queued = new Stat();
        private final Stat carriers = new Stat();
        private final Stat cpuPercent = new Stat();
        private long allocatedBytes;
        private final Stat resident = new Stat();
        private final Stat direct = new Stat();
        private final List<JvmMetrics.Sample> heapAfterGc = new ArrayList<>();
        private final List<JvmMetrics.Sample> threadsOverTime = new ArrayList<>();
        private final List<JvmMetrics.Sample> cpuOverTime = new ArrayList<>();
        private final List<JvmMetrics.Sample> mountedOverTime = new ArrayList<>();
        private final List<JvmMetrics.Sample> queuedOverTime = new ArrayList<>();

        void pause(RecordedEvent event, Window run, Window measured) {
            if (!run.contains(event.getStartTime())) {
                return;
            }
            double durationMs = event.getDuration().toNanos() / 1e6;
            timeline.add(new JvmMetrics.Pause(epochMs(event), durationMs, event.getString("name")));
            if (measured.contains(event.getStartTime())) {
                pauses++;
                pauseTotalMs += durationMs;
                pauseMaxMs = Math.max(pauseMaxMs, durationMs);
            }
        }

        /** The run window's samples, for timelines. */
        void overTime(RecordedEvent event) {
            switch (event.getEventType().getName()) {
                case "jdk.GCHeapSummary" -> {
                    if ("After GC".equals(event.getString("when"))) {
                        heapAfterGc.add(new JvmMetrics.Sample(epochMs(event), event.getLong("heapUsed")));
                    }
                }
                case "jdk.JavaThreadStatistics" -> threadsOverTime.add(new JvmMetrics.Sample(epochMs(event), event.getLong("activeCount")));
                case "jdk.CPULoad" -> cpuOverTime.add(new JvmMetrics.Sample(epochMs(event), cpuPercentOf(event)));
                case SCHEDULER_EVENT -> {
                    mountedOverTime.add(new JvmMetrics.Sample(epochMs(event), event.getLong("mounted")));
                    queuedOverTime.add(new JvmMetrics.Sample(epochMs(event), event.getLong("queued")));
                }
                default -> { }
            }
        }

        /** The measured phase's figures. */
        void sample(RecordedEvent event) {
            switch (event.getEventType().getName()) {
                case "jdk.GCHeapSummary" -> {
                    if ("After GC".equals(event.getString("when"))) {
                        heapUsed.add(event.getLong("heapUsed"));
                        heapCommitted.add(event.<RecordedObject>getValue("heapSpace").getLong("committedSize"));
                    }
                }
                case "jdk.JavaThreadStatistics" -> platformThreads.add(event.getLong("activeCount"));
                case "jdk.VirtualThreadPinned" -> pinned++;
                case SCHEDULER_EVENT -> {
                    mounted.add(event.getLong("mounted"));
                    queued.add(event.getLong("queued"));
                    carriers.add(event.getLong("poolSize"));
                }
                case "jdk.CPULoad" -> cpuPercent.add(cpuPercentOf(event));
                case "jdk.ObjectAllocationSample" -> allocatedBytes += event.getLong("weight");
                case "jdk.ResidentSetSize" -> resident.add(event.getLong("size"));
                case "jdk.DirectBufferStatistics" -> direct.add(event.getLong("memoryUsed"));
                default -> describe(event);
            }
        }

        /** The events that describe the JVM rather than measure it count whatever their time. */
        void describe(RecordedEvent event) {
            switch (event.getEventType().getName()) {
                case "jdk.GCConfiguration" -> gc = event.getString("youngCollector") + "/" + event.getString("oldCollector");
                case "jdk.JVMInformation" -> jvmArguments = Arrays.stream(
                        Objects.requireNonNullElse(event.getString("jvmArguments"), "").split(" ")).filter(s -> !s.isBlank()).toList();
                default -> { }
            }
        }

        JvmMetrics metrics(Window measured) {
            double seconds = measured.seconds();
            return new JvmMetrics(gc, jvmArguments,
                    new JvmMetrics.GcPauses(pauses, pauseTotalMs, pauseMaxMs, timeline),
                    new JvmMetrics.Heap(heapUsed.maxLong(), heapUsed.meanLong(), heapCommitted.maxLong()),
                    new JvmMetrics.Threads(platformThreads.maxInt(), pinned, mounted.maxInt(), queued.maxLong(), carriers.maxInt()),
                    new JvmMetrics.Cpu(cpuPercent.mean(), cpuPercent.max(),
                            seconds > 0 ? allocatedBytes / BYTES_PER_MB / seconds : null),
                    new JvmMetrics.Memory(resident.maxLong(), direct.maxLong()),
                    new JvmMetrics.Samples(sorted(heapAfterGc), sorted(threadsOverTime), sorted(cpuOverTime),
                            sorted(mountedOverTime), sorted(queuedOverTime)));
        }

        private static double cpuPercentOf(RecordedEvent event) {
            return 100.0 * (event.getFloat("jvmUser") + event.getFloat("jvmSystem"));
        }

        private static double epochMs(RecordedEvent event) {
            Instant start = event.getStartTime();
            return start.toEpochMilli() + start.getNano() % 1_000_000 / 1e6;
        }

        /** A recording's chunks are read in order, but events within one are not sorted by time. */
        private static List<JvmMetrics.Sample> sorted(List<JvmMetrics.Sample> series) {
            series.sort(Comparator.comparingDouble(JvmMetrics.Sample::epochMs));
            return series;
        }
    }

    /** Count, sum and maximum of a sampled figure; null figures when it was never sampled. */
    private static final class Stat {
        private long count;
        private double sum;
        private double max = Double.NEGATIVE_INFINITY;

        void add(double value) {
            count++;
            sum += value;
            max = Math.max(max, value);
        }

        Double max() {
            return count == 0 ? null : max;
        }

        Double mean() {
            return count == 0 ? null : sum / count;
        }

        Long maxLong() {
            return count == 0 ? null : (long) max;
        }

        Long meanLong() {
            return count == 0 ? null : Math.round(sum / count);
        }

        Integer maxInt() {
            return count == 0 ? null : (int) max;
        }
    }
}
