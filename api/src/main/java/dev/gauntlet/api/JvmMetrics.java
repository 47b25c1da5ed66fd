package dev.gauntlet.api;

import com.fasterxml.jackson.annotation.JsonAlias;
import com.fasterxml.jackson.annotation.JsonProperty;

import java.util.List;

/**
 * What one JVM — a target or a generator — cost during a run, read from its JFR recording.
 * Figures are over the run's measured phase; the pause timeline covers the whole recorded window,
 * warm-up included, so it can be drawn beside the latency interval logs (both are epoch-based).
 * A figure the recording did not hold is null.
 *
 * @param gc           the collectors in use, e.g. {@code G1New/G1Old}
 * @param jvmArguments the JVM's own flags as it reported them
 * @param gcPauses     stop-the-world pauses ({@code jdk.GCPhasePause}, not a collection's whole duration)
 * @param heap         heap used and committed after each collection ({@code jdk.GCHeapSummary}, "After GC")
 * @param threads      platform and virtual threads
 * @param cpu          the process's CPU and allocation rate
 * @param memory       resident and direct (off-heap) memory
 * @param samples      heap, threads and CPU over the recorded window, for timelines
 */
public record JvmMetrics(String gc, List<String> jvmArguments, GcPauses gcPauses, Heap heap, Threads threads, Cpu cpu,
                         Memory memory, Samples samples) {

    public JvmMetrics {
        jvmArguments = jvmArguments == null ? List.of() : List.copyOf(jvmArguments);
        samples = samples == null ? Samples.NONE : samples;
    }

    /** Figures without samples over time. */
    public JvmMetrics(String gc, List<String> jvmArguments, GcPauses gcPauses, Heap heap, Threads threads, Cpu cpu,
                      Memory memory) {
        this(gc, jvmArguments, gcPauses, heap, threads, cpu, memory, Samples.NONE);
    }

    /** The same figures without the pause timeline and the samples: for {@code results.json}, one row per run. */
    public JvmMetrics withoutTimeline() {
        return new JvmMetrics(gc, jvmArguments, gcPauses.withoutTimeline(), heap, threads, cpu, memory, Samples.NONE);
    }

    /**
     * @param count    pauses in the measured phase
     * @param totalMs  their summed duration
     * @param maxMs    the longest; 0 when there was none
     * @param timeline every pause of the recorded window, in order
     */
    public record GcPauses(int count, double totalMs, double maxMs, List<Pause> timeline) {
        public GcPauses {
            timeline = timeline == null ? List.of() : List.copyOf(timeline);
        }

        GcPauses withoutTimeline() {
            return new GcPauses(count, totalMs, maxMs, List.of());
        }
    }

    /** One stop-the-world pause: when it began (epoch ms, fractional) and how long it lasted. */
    public record Pause(double startEpochMs, double durationMs, String name) {
    }

    /** Heap after GC over the measured phase; null fields when no collection happened in it. */
    public record Heap(Long usedMaxBytes, Long usedMeanBytes, Long committedMaxBytes) {
    }

    /**
     * @param platformPeak          the most live platform threads sampled ({@code jdk.JavaThreadStatistics}, once a second)
     * @param virtualPinned         virtual threads pinned to their carrier for 1 ms or more ({@code jdk.VirtualThreadPinned})
     * @param virtualMountedMax     the most virtual threads mounted at once (sampled once a second; targets only)
     * @param virtualQueuedMax      the most virtual threads queued for a carrier at once (likewise)
     * @param carrierThreadsMax     the virtual-thread scheduler's pool size at most (likewise)
     */
    public record Threads(Integer platformPeak, long virtualPinned, Integer virtualMountedMax, Long virtualQueuedMax,
                          Integer carrierThreadsMax) {
    }

    /**
     * The JVM's CPU as JFR's {@code jdk.CPULoad} measures it: a share of the whole machine, whatever CPUs the process
     * was given, so named in JSON ({@code meanPercentOfMachine}; files written before say {@code meanPercent}). The
     * report rescales it to the CPUs the process was given.
     *
     * @param meanPercent            the JVM's user + system CPU, in percent of the machine's CPUs
     * @param maxPercent             its highest one-second sample
     * @param allocationMBPerSec     heap allocated per second ({@code jdk.ObjectAllocationSample}'s weights)
     */
    public record Cpu(@JsonProperty("meanPercentOfMachine") @JsonAlias("meanPercent") Double meanPercent,
                      @JsonProperty("maxPercentOfMachine") @JsonAlias("maxPercent") Double maxPercent,
                      Double allocationMBPerSec) {
    }

    /**
     * @param residentMaxBytes the process's resident set at most ({@code jdk.ResidentSetSize})
     * @param directMaxBytes   NIO direct buffers in use at most ({@code jdk.DirectBufferStatistics}); Netty's own
     *                         pooled off-heap memory is not counted here
     */
    public record Memory(Long residentMaxBytes, Long directMaxBytes) {
    }

    /**
     * What the recording sampled over its whole window, warm-up included, each series in time order. A series the
     * recording did not hold is empty.
     *
     * @param heapAfterGcBytes heap used after each collection ({@code jdk.GCHeapSummary}, "After GC")
     * @param platformThreads  live platform threads, once a second ({@code jdk.JavaThreadStatistics})
     * @param cpuPercent       the JVM's user + system CPU in percent of the machine's CPUs, once a second ({@code jdk.CPULoad})
     * @param virtualMounted   virtual threads mounted on a carrier, once a second (targets only)
     * @param virtualQueued    virtual threads queued for a carrier, once a second (targets only)
     */
    public record Samples(List<Sample> heapAfterGcBytes, List<Sample> platformThreads,
                          @JsonProperty("cpuPercentOfMachine") @JsonAlias("cpuPercent") List<Sample> cpuPercent,
                          List<Sample> virtualMounted, List<Sample> virtualQueued) {
        public static final Samples NONE = new Samples(List.of(), List.of(), List.of(), List.of(), List.of());

        public Samples {
            heapAfterGcBytes = copy(heapAfterGcBytes);
            platformThreads = copy(platformThreads);
            cpuPercent = copy(cpuPercent);
            virtualMounted = copy(virtualMounted);
            virtualQueued = copy(virtualQueued);
        }

        private static List<Sample> copy(List<Sample> series) {
            return series == null ? List.of() : List.copyOf(series);
        }
    }

    /** One sampled value and when it was taken (epoch ms, fractional). */
    public record Sample(double epochMs, double value) {
    }
}
