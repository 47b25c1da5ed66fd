package dev.gauntlet.loadgen.measure;

import java.io.BufferedReader;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.LongSupplier;

/**
 * How much of a window one thread spent running and how much waiting for a CPU: together, how
 * much of the window it wanted. A thread that wanted all of it had no time to spare, whether it
 * ran all along or a neighbour on its CPU kept it waiting. Its running time leaves out what it
 * says it spent polling for work that had not come (an engine that spins briefly rather than
 * sleep): time it could have given away.
 *
 * <pre>{@code
 * ThreadDemand engine = ThreadDemand.ofCurrentThread(engine::pollingNs);   // on the thread to watch
 * engine.mark();                                          // any thread: the window starts
 * ThreadDemand.Share share = engine.share();              // any thread: since the mark
 * }</pre>
 *
 * <p>Linux reports both figures per thread in {@code /proc/self/task/TID/schedstat}; elsewhere the
 * running time comes from {@link ThreadMXBean} and the waiting time is unknown (0).
 */
public final class ThreadDemand {
    private final long javaThreadId;
    private final Path schedstat;
    private final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    /** The time the thread spent polling in vain so far. */
    private final LongSupplier pollingNs;
    private volatile long[] atMark;
    private volatile long markNs;

    /** Percent of the window's wall time. */
    record Share(double runningPercent, double waitingPercent) {
        double wantedPercent() {
            return runningPercent + waitingPercent;
        }
    }

    private ThreadDemand(long javaThreadId, Path schedstat, LongSupplier pollingNs) {
        this.javaThreadId = javaThreadId;
        this.schedstat = schedstat;
        this.pollingNs = pollingNs;
        mark();
    }

    /** @param pollingNs the time the thread spent polling in vain so far, which is not its demand */
    public static ThreadDemand ofCurrentThread(LongSupplier pollingNs) {
        Path schedstat = null;
        try {
            // "/proc/thread-self" links to "PID/task/TID": the kernel's id of this very thread.
            String link = Files.readSymbolicLink(Path.of("/proc/thread-self")).toString();
            Path candidate = Path.of("/proc/self/task", link.substring(link.lastIndexOf('/') + 1), "schedstat");
            if (read(candidate) != null) {
                schedstat = candidate;
            }
        } catch (IOException | UnsupportedOperationException | IndexOutOfBoundsException notLinux) {
            // Running time from the JVM alone.
        }
        return new ThreadDemand(Thread.currentThread().threadId(), schedstat, pollingNs);
    }

    void mark() {
        atMark = sample();
        markNs = System.nanoTime();
    }

    Share share() {
        long[] now = sample();
        double wallNs = Math.max(1, System.nanoTime() - markNs);
        double runningNs = Math.max(0, now[0] - atMark[0] - (now[2] - atMark[2]));
        return new Share(Math.min(100, 100 * runningNs / wallNs), Math.min(100, 100 * (now[1] - atMark[1]) / wallNs));
    }

    /** Nanoseconds running, waiting to run and polling in vain, since the thread started. */
    private long[] sample() {
        long polling = pollingNs.getAsLong();
        long[] fromKernel = schedstat == null ? null : read(schedstat);
        return fromKernel != null ? new long[] {fromKernel[0], fromKernel[1], polling}
                : new long[] {Math.max(0, threads.getThreadCpuTime(javaThreadId)), 0, polling};
    }

    /** "RUNNING_NS WAITING_NS TIMESLICES", read in one go: some /proc files give only their first byte to a second read. */
    private static long[] read(Path file) {
        try (BufferedReader in = Files.newBufferedReader(file)) {
            String[] fields = in.readLine().trim().split("\\s+");
            return new long[] {Long.parseLong(fields[0]), Long.parseLong(fields[1])};
        } catch (IOException | RuntimeException gone) {
            return null;
        }
    }
}
