package dev.gauntlet.targets;

import com.sun.management.OperatingSystemMXBean;

import java.lang.management.ManagementFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * Counts of {@code /hello} requests, served on the admin port as {@code /stats}. Thread-safe;
 * {@link #begin()} and {@link #complete()} are called by any number of server threads.
 *
 * <p>{@code maxInFlight} answers the concurrency-level question: how many requests did the server
 * start processing at once? Each snapshot also carries the process's CPU time and CPUs, so a
 * generator can tell whether the target had time to spare over its measured phase.
 */
public final class RequestStats {
    private final LongAdder started = new LongAdder();
    private final LongAdder completed = new LongAdder();
    private final LongAdder errors = new LongAdder();
    private final AtomicLong inFlight = new AtomicLong();
    private final AtomicLong maxInFlight = new AtomicLong();
    private final OperatingSystemMXBean os = ManagementFactory.getPlatformMXBean(OperatingSystemMXBean.class);

    /** A request has reached the handler. */
    public void begin() {
        started.increment();
        long now = inFlight.incrementAndGet();
        maxInFlight.accumulateAndGet(now, Math::max);
    }

    /** A request's response has been handed to the server. */
    public void complete() {
        completed.increment();
        inFlight.decrementAndGet();
    }

    /** A request that began could not be answered (the handler failed or the client went away). */
    public void fail() {
        errors.increment();
        inFlight.decrementAndGet();
    }

    /** Starts a new measurement: counts go to zero, the in-flight requests stay counted. */
    public void reset() {
        started.reset();
        completed.reset();
        errors.reset();
        maxInFlight.set(inFlight.get());
    }

    public Snapshot snapshot() {
        return new Snapshot(started.sum(), completed.sum(), inFlight.get(), maxInFlight.get(), errors.sum(),
                TimeUnit.NANOSECONDS.toMillis(os.getProcessCpuTime()), Runtime.getRuntime().availableProcessors(),
                ManagementFactory.getRuntimeMXBean().getUptime());
    }

    /**
     * The counts at one moment, as the admin endpoint's JSON.
     *
     * @param cpuMs    the process's CPU time since it started, all threads
     * @param cpus     the CPUs the process may run on
     * @param uptimeMs the process's age: with {@code cpuMs}, a CPU share between two snapshots on the target's own clock
     */
    public record Snapshot(long started, long completed, long inFlight, long maxInFlight, long errors, long cpuMs, int cpus,
                           long uptimeMs) {
        public String toJson() {
            return "{\"started\":" + started + ",\"completed\":" + completed + ",\"inFlight\":" + inFlight
                    + ",\"maxInFlight\":" + maxInFlight + ",\"errors\":" + errors + ",\"cpuMs\":" + cpuMs
                    + ",\"cpus\":" + cpus + ",\"uptimeMs\":" + uptimeMs + "}";
        }
    }
}
