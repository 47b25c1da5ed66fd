package dev.gauntlet.hiccup;

import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Locale;
import java.util.function.BooleanSupplier;

/**
 * The machine's capacity on this process's CPUs, second by second, beside its hiccup meter: every
 * 100 ms a thread times a fixed piece of work ({@link CapacityProbe}, about 0.6 ms: under 1 % of a
 * CPU; the thread compiles it first, some 20 ms), and each second becomes an index, the probe's units a second this CPU would run
 * now, times the share of the CPUs' time neither the hypervisor nor another process took
 * ({@link CpuAccounting}). A target serves its log on the admin port; the generator keeps its own.
 *
 * <pre>{@code
 * try (CapacityLog log = CapacityLog.start()) {
 *     log.reset();                             // the window starts now
 *     ...
 *     List<CapacityLog.Second> seconds = log.seconds();
 *     String csv = log.text();                 // the same, as served: CapacityLog.parse(csv)
 * }
 * }</pre>
 *
 * <p>The index is comparable between hosts only for the same probe: its unit is this class's, not a
 * standard one (1,500 to 2,300 a second on a free 2.6 GHz Xeon of 2026, by the host and the hour). Thread-safe; at most an hour of
 * seconds is kept, the oldest dropped first.
 */
public final class CapacityLog implements AutoCloseable {
    static final long PROBE_PERIOD_MS = 100;
    static final int MAX_SECONDS = 3_600;
    private static final String HEADER = "startEpochMs,endEpochMs,probeUs,stolenShare,foreignShare,index";

    private final CapacityProbe probe = new CapacityProbe();
    private final CpuAccounting cpus = CpuAccounting.ofThisProcess();
    private final MeterThread thread;
    private final Deque<Second> seconds = new ArrayDeque<>();
    private final List<Long> unitNs = new ArrayList<>();
    private long secondStartEpochMs;

    /**
     * One second of the log.
     *
     * @param probeUs      the probe's median time in it, µs (more: a slower CPU)
     * @param stolenShare  of the CPUs' time, what the hypervisor took (0 to 1)
     * @param foreignShare of the CPUs' time, what other processes used (0 to 1)
     */
    public record Second(long startEpochMs, long endEpochMs, double probeUs, double stolenShare, double foreignShare) {
        /** The probe's units a second this process could run on its CPUs: speed × the share left to it. */
        public double index() {
            return probeUs <= 0 ? 0 : 1e6 / probeUs * Math.max(0, 1 - stolenShare - foreignShare);
        }
    }

    private CapacityLog() {
        secondStartEpochMs = System.currentTimeMillis();
        thread = new MeterThread("gauntlet-capacity", this::measure);
    }

    /** Starts the probe on its own daemon thread, named {@code gauntlet-capacity}. */
    public static CapacityLog start() {
        return new CapacityLog();
    }

    /** Forgets every second: the window starts now. */
    public synchronized void reset() {
        seconds.clear();
        unitNs.clear();
        secondStartEpochMs = System.currentTimeMillis();
        if (cpus != null) {
            cpus.sinceLast();
        }
    }

    /** The whole seconds since the start or the last reset, oldest first. */
    public synchronized List<Second> seconds() {
        return List.copyOf(seconds);
    }

    /** {@link #seconds()} as CSV, one line a second under a header line. */
    public String text() {
        StringBuilder csv = new StringBuilder(HEADER).append('\n');
        for (Second s : seconds()) {
            csv.append(String.format(Locale.ROOT, "%d,%d,%.1f,%.4f,%.4f,%.1f%n", s.startEpochMs(), s.endEpochMs(),
                    s.probeUs(), s.stolenShare(), s.foreignShare(), s.index()));
        }
        return csv.toString();
    }

    /** The seconds of a {@link #text()}; lines that are not a second's are skipped. */
    public static List<Second> parse(String csv) {
        List<Second> parsed = new ArrayList<>();
        for (String line : csv.split("\n")) {
            String[] f = line.trim().split(",");
            if (f.length < 5 || !f[0].matches("\\d+")) {
                continue;
            }
            try {
                parsed.add(new Second(Long.parseLong(f[0]), Long.parseLong(f[1]), Double.parseDouble(f[2]),
                        Double.parseDouble(f[3]), Double.parseDouble(f[4])));
            } catch (NumberFormatException e) {
                // Not a second's line.
            }
        }
        return parsed;
    }

    @Override
    public void close() {
        thread.close();
        probe.close();
    }

    private void measure(BooleanSupplier running) {
        Duration period = Duration.ofMillis(PROBE_PERIOD_MS);
        try {
            probe.warmUp();
            // The seconds start after the warm-up's units, so none of them counts its compiling.
            reset();
            while (running.getAsBoolean()) {
                Thread.sleep(period);
                record(probe.timeUnitNs());
            }
        } catch (InterruptedException | UncheckedIOException e) {
            // Closed (an interrupt closes the probe's pipe too): the seconds so far stay.
        }
    }

    private synchronized void record(long ns) {
        unitNs.add(ns);
        long nowEpochMs = System.currentTimeMillis();
        if (nowEpochMs - secondStartEpochMs >= 1_000) {
            closeSecond(nowEpochMs);
        }
    }

    private void closeSecond(long nowEpochMs) {
        long[] sorted = unitNs.stream().mapToLong(Long::longValue).sorted().toArray();
        // The median: a unit that a preemption or a stolen slice lengthened is one of ten; the shares count those.
        double probeUs = sorted.length == 0 ? 0 : sorted[sorted.length / 2] / 1_000.0;
        CpuAccounting.Shares shares = cpus == null ? CpuAccounting.Shares.NONE : cpus.sinceLast();
        seconds.addLast(new Second(secondStartEpochMs, nowEpochMs, probeUs, shares.stolen(), shares.foreign()));
        if (seconds.size() > MAX_SECONDS) {
            seconds.removeFirst();
        }
        unitNs.clear();
        secondStartEpochMs = nowEpochMs;
    }
}
