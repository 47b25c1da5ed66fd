package dev.gauntlet.bench;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * What one client used over its measured window, a fixed stretch once it runs at its load and before it ends: its CPU
 * time, the part of it its JIT compiler took, and the requests nginx answered meanwhile (only that client was loading
 * that nginx). Its cost per request leaves the JIT out: the gate runs Gauntlet's generator again and again in one JVM,
 * and what a run's end (its results written) gave the compiler to do spills into the next run's window, 5-25 % of its
 * CPU in one pair out of three; a JVM that runs the generator once pays that once.
 *
 * @param cpuNs    the client process's CPU time over the window
 * @param jitNs    its JIT compiler threads' part of it (0 for a process with none)
 * @param requests the requests nginx answered over it
 */
record WindowCost(long cpuNs, long jitNs, long requests) {
    /** The window, from a Gauntlet run's start: after its connections opened and its rate settled, before it ends. */
    static final long FROM_NS = TimeUnit.MILLISECONDS.toNanos(600);
    static final long LENGTH_NS = TimeUnit.MILLISECONDS.toNanos(600);
    static final double SECONDS = LENGTH_NS / 1e9;

    /** The CPU per request, the JIT's part left out. */
    double cpuNsPerRequest() {
        return (double) (cpuNs - jitNs) / requests;
    }

    /** Measures the window of process {@code pid} from {@code fromNs} on a thread of its own; completes at its end. */
    static CompletableFuture<WindowCost> measure(long pid, NginxCounter nginx, long fromNs) {
        CpuClock clock = CpuClock.ofProcess(pid);
        CpuClock jit = CpuClock.ofJitCompilers(pid);
        CompletableFuture<WindowCost> window = new CompletableFuture<>();
        Thread.ofPlatform().daemon().name("gate-window").start(() -> {
            try {
                parkUntil(fromNs);
                long requestsBefore = nginx.requests();
                long cpuBeforeNs = clock.cpuNs();
                long jitBeforeNs = jit.cpuNs();
                parkUntil(fromNs + LENGTH_NS);
                long cpuNs = clock.cpuNs() - cpuBeforeNs;
                long jitNs = jit.cpuNs() - jitBeforeNs;
                long requests = nginx.requests() - requestsBefore;
                if (cpuNs <= 0 || requests <= 0) {
                    throw new GateException("a window measured " + requests + " requests over " + cpuNs
                            + " ns of CPU: the client was not loading nginx then");
                }
                window.complete(new WindowCost(cpuNs, jitNs, requests));
            } catch (RuntimeException e) {
                window.completeExceptionally(e);
            }
        });
        return window;
    }

    static void parkUntil(long deadlineNs) {
        for (long leftNs; (leftNs = deadlineNs - System.nanoTime()) > 0; ) {
            LockSupport.parkNanos(leftNs);
        }
    }
}
