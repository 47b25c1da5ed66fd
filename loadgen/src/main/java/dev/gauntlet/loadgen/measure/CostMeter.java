package dev.gauntlet.loadgen.measure;

import com.sun.management.OperatingSystemMXBean;
import dev.gauntlet.api.RunSummary;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.lang.management.ThreadMXBean;
import java.util.Arrays;
import java.util.Comparator;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * What the generator's run costs it: its own CPU time, peak heap and peak threads over the run, its
 * CPU share in the measured phase and its busiest engine thread's demand. Sampled by the interval
 * ticker, finished by the run's thread.
 */
public final class CostMeter {
    private final OperatingSystemMXBean os = ManagementFactory.getPlatformMXBean(OperatingSystemMXBean.class);
    private final MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
    private final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    private final long cpuStartNs;
    private final Supplier<ThreadDemand[]> engines;
    private volatile long heapUsedMaxBytes;
    /** The process's CPU time and the wall clock when the measured phase started; written by the ticker. */
    private volatile long measureCpuStartNs = -1;
    private volatile long measureStartNs;
    /** The process's CPU time from the measured phase's start to {@link #finish()}; -1 before either. */
    private long measuredCpuNs = -1;

    /** @param engines the demand of each engine thread of the run, known once every one of them has started */
    public CostMeter(Supplier<ThreadDemand[]> engines) {
        this.engines = engines;
        threads.resetPeakThreadCount();
        cpuStartNs = os.getProcessCpuTime();
    }

    public void measureStarts() {
        for (ThreadDemand engine : engines.get()) {
            engine.mark();
        }
        measureStartNs = System.nanoTime();
        measureCpuStartNs = os.getProcessCpuTime();
    }

    public void sample() {
        heapUsedMaxBytes = Math.max(heapUsedMaxBytes, memory.getHeapMemoryUsage().getUsed());
    }

    public RunSummary.GeneratorCost finish() {
        ThreadDemand.Share share = Arrays.stream(engines.get()).map(ThreadDemand::share)
                .max(Comparator.comparingDouble(ThreadDemand.Share::wantedPercent)).orElseThrow();
        long cpuNowNs = os.getProcessCpuTime();
        measuredCpuNs = measureCpuStartNs < 0 ? -1 : cpuNowNs - measureCpuStartNs;
        return new RunSummary.GeneratorCost(TimeUnit.NANOSECONDS.toMillis(cpuNowNs - cpuStartNs),
                heapUsedMaxBytes, threads.getPeakThreadCount(), share.runningPercent(), share.waitingPercent(),
                processCpuPercent(cpuNowNs));
    }

    /** After {@link #finish()}: the CPU time from the measured phase's start per request of {@code completed}, µs. */
    public Double cpuUsPerRequest(long completed) {
        return RunSummary.CpuPerRequest.of(measuredCpuNs, completed);
    }

    /** 0 when the run ended before its measured phase began. */
    private double processCpuPercent(long cpuNowNs) {
        long wallNs = System.nanoTime() - measureStartNs;
        if (measureCpuStartNs < 0 || wallNs <= 0) {
            return 0;
        }
        return 100.0 * (cpuNowNs - measureCpuStartNs) / wallNs / Runtime.getRuntime().availableProcessors();
    }
}
