package dev.gauntlet.loadgen.measure;

import java.io.BufferedReader;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * How much of a window one thread spent running and how much waiting for a CPU: together, how
 * much of the window it wanted. A thread that wanted all of it had no time to spare, whether it
 * ran all along or a neighbour on its CPU kept it waiting.
 *
 * <pre>{@code
 * ThreadDemand engine = ThreadDemand.ofCurrentThread();   // on the thread to watch
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
    private volatile long[] atMark;
    private volatile long markNs;

    /** Percent of the window's wall time. */
    record Share(double runningPercent, double waitingPercent) {
        double wantedPercent() {
            return runningPercent + waitingPercent;
        }
    }

    private ThreadDemand(long javaThreadId, Path schedstat) {
        this.javaThreadId = javaThreadId;
        this.schedstat = schedstat;
        mark();
    }

    public static ThreadDemand ofCurrentThread() {
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
        return new ThreadDemand(Thread.currentThread().threadId(), schedstat);
    }

    void mark() {
        atMark = sample();
        markNs = System.nanoTime();
    }

    Share share() {
        long[] now = sample();
        double wallNs = Math.max(1, System.nanoTime() - markNs);
        return new Share(Math.min(100, 100 * (now[0] - atMark[0]) / wallNs), Math.min(100, 100 * (now[1] - atMark[1]) / wallNs));
    }

    /** Nanoseconds running and waiting to run, since the thread started. */
    private long[] sample() {
        long[] fromKernel = schedstat == null ? null : read(schedstat);
        return fromKernel != null ? fromKernel : new long[] {Math.max(0, threads.getThreadCpuTime(javaThreadId)), 0};
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
