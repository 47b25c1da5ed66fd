package dev.gauntlet.hiccup;

import org.HdrHistogram.Histogram;
import org.HdrHistogram.SingleWriterRecorder;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * Measures the platform's own stalls, jHiccup's way: a thread asks to sleep 1 ms, over and over,
 * and records by how much each sleep overran. Whatever delays it — the scheduler, a busy
 * neighbour on the host, a safepoint — delays every other thread of the process as well, so its
 * histogram is the noise floor under any latency that process measures.
 *
 * <pre>{@code
 * try (HiccupMeter meter = HiccupMeter.start()) {
 *     ...                                               // the work whose platform is measured
 *     Histogram intervalNs = meter.intervalHistogram();  // oversleeps since the last call, ns
 * }
 * }</pre>
 *
 * <p>A stall of 9 ms also hides the eight wake-ups that should have happened inside it; they are
 * recorded too (HdrHistogram's expected-interval correction), as jHiccup does, so the percentiles
 * describe what a thread waking at any moment would have seen. One reader samples intervals at a
 * time; the meter's own thread is the only writer.
 */
public final class HiccupMeter implements AutoCloseable {
    /** How long the meter asks to sleep each time. */
    public static final long RESOLUTION_NS = TimeUnit.MILLISECONDS.toNanos(1);
    /** Stalls above are clamped; no measured phase lasts an hour. */
    static final long HIGHEST_TRACKABLE_NS = TimeUnit.HOURS.toNanos(1);

    private final SingleWriterRecorder recorder = new SingleWriterRecorder(1, HIGHEST_TRACKABLE_NS, 3);
    private final MeterThread thread;
    private Histogram interval;

    private HiccupMeter(String threadName) {
        thread = new MeterThread(threadName, this::measure);
    }

    /** Starts a meter on its own daemon thread, named {@code gauntlet-hiccup}. */
    public static HiccupMeter start() {
        return new HiccupMeter("gauntlet-hiccup");
    }

    /** The oversleeps recorded since the previous call (or the start), in nanoseconds. */
    public synchronized Histogram intervalHistogram() {
        interval = recorder.getIntervalHistogram(interval);
        return interval;
    }

    /** Discards what was recorded so far: the next interval starts now. */
    public synchronized void reset() {
        recorder.reset();
    }

    @Override
    public void close() {
        thread.close();
    }

    private void measure(BooleanSupplier running) {
        Duration resolution = Duration.ofNanos(RESOLUTION_NS);
        while (running.getAsBoolean()) {
            long beforeNs = System.nanoTime();
            try {
                Thread.sleep(resolution);
            } catch (InterruptedException e) {
                return;
            }
            long overNs = System.nanoTime() - beforeNs - RESOLUTION_NS;
            recorder.recordValueWithExpectedInterval(Math.max(0, Math.min(overNs, HIGHEST_TRACKABLE_NS)), RESOLUTION_NS);
        }
    }
}
