package dev.gauntlet.bench;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * What one client used over its measured window, a fixed stretch after its start that skips its start-up and ends
 * before its end: its CPU time, and the requests nginx answered meanwhile (only that client was loading nginx).
 *
 * @param cpuNs    the client process's CPU time over the window
 * @param requests the requests nginx answered over it
 */
record WindowCost(long cpuNs, long requests) {
    /** The window, from a client's start: after its connections opened and its rate settled, before it ends. */
    static final long FROM_NS = TimeUnit.MILLISECONDS.toNanos(600);
    static final long TO_NS = TimeUnit.MILLISECONDS.toNanos(1_200);

    double cpuNsPerRequest() {
        return (double) cpuNs / requests;
    }

    /** Measures the window of a client started at {@code startNs}, on a thread of its own; completes at its end. */
    static CompletableFuture<WindowCost> measure(CpuClock clock, NginxCounter nginx, long startNs) {
        CompletableFuture<WindowCost> window = new CompletableFuture<>();
        Thread.ofPlatform().daemon().name("gate-window").start(() -> {
            try {
                parkUntil(startNs + FROM_NS);
                long requestsBefore = nginx.requests();
                long cpuBeforeNs = clock.cpuNs();
                parkUntil(startNs + TO_NS);
                long cpuNs = clock.cpuNs() - cpuBeforeNs;
                long requests = nginx.requests() - requestsBefore;
                if (cpuNs <= 0 || requests <= 0) {
                    throw new GateException("a window measured " + requests + " requests over " + cpuNs
                            + " ns of CPU: the client was not loading nginx then");
                }
                window.complete(new WindowCost(cpuNs, requests));
            } catch (RuntimeException e) {
                window.completeExceptionally(e);
            }
        });
        return window;
    }

    private static void parkUntil(long deadlineNs) {
        for (long leftNs; (leftNs = deadlineNs - System.nanoTime()) > 0; ) {
            LockSupport.parkNanos(leftNs);
        }
    }
}
