package dev.gauntlet.loadgen.transport;

import dev.gauntlet.api.LoadSpec;

import java.io.IOException;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;

/**
 * How the lean transport's event loop waits for I/O until its next wake. Its timer wakes for the
 * open loop's intended starts at a granularity: no sooner than that after it last slept, so that
 * one wake-up sends every request then due (each still timed from its intended start). A wake-up
 * costs a context switch here and another at the target, which each request's own wake paid
 * before: on a virtual machine that was half its CPU per request (docs/benchmarks.md). The
 * granularity is the spec's, or by default the platform's wake-up p99 over the last second
 * ({@link WakeFloor}), 1 ms at most: lateness within it is the platform's anyway. At a
 * granularity of 0 the loop wakes for each start, to within the wake-up jitter: closer than the
 * spin window it polls; else it sleeps until the start less the measured wake latency and polls
 * what is left if it woke early. Either way it sleeps
 * in the selector with a {@link SelectorAlarm} while responses or connects are awaited and the
 * sleep is long enough to pay for it, else parked. Every other wake (timeouts, phase ends,
 * back-offs) takes the selector's whole milliseconds. Single-threaded: the event loop owns it.
 */
final class SelectorWait implements AutoCloseable {
    /**
     * Open loop at a granularity of 0: the spin window, at most this long and at most {@link #SPIN_SHARE} of the mean gap
     * between intended starts. A start closer than that is polled for; a later one is slept for, to
     * wake at it by the measured wake latency, and the wake that comes early polls the rest. Each
     * sleep costs a wake-up (about 20 µs of CPU on a virtual machine), each polled microsecond costs
     * one: so the loop spins at most a quarter of its time, and at low rates only the early part of
     * its wake-ups. See docs/benchmarks.md for what it costs against the closed loop.
     */
    static final long MAX_SPIN_NS = TimeUnit.MICROSECONDS.toNanos(50);
    static final int SPIN_SHARE = 4;
    /**
     * Waiting for a start while responses or connects are awaited: a sleep at least this long waits
     * in the selector with a {@link SelectorAlarm} (responsive, three wake-ups), a shorter one parks
     * (one wake-up; what arrives meanwhile is read that much later).
     */
    static final long ALARM_MIN_NS = TimeUnit.MICROSECONDS.toNanos(200);
    /**
     * A loop that polls while responses are awaited ({@link #pollsFor}) looks at its sockets this often, for
     * at most {@link #POLL_SPAN_NS}, before it sleeps in the selector. Asleep, each response would have the server wake
     * it: on a virtual machine an inter-processor interrupt the server's CPU pays, and a prompt client that then
     * writes one or two streams' requests at a time has the server read and decrypt that many more, smaller records.
     * A client that is late by a few microseconds, as h2load is while it works through its other connections, finds a
     * connection's answers together and sends their next requests in one write. Against nginx over h2, 10 connections
     * × 10 streams, this took Gauntlet from 0.91-0.94 of h2load's rate (medians of 3) to 1.00-1.26, and its writes
     * from 0.43-0.49 to 0.14-0.18 a request (5 µs: 0.21; 20 µs: 0.10; docs/benchmarks.md). A response is read at most
     * this much later than it arrived: its latency includes up to 10 µs of the interval, below this platform's
     * wake-up jitter.
     */
    static final long POLL_INTERVAL_NS = TimeUnit.MICROSECONDS.toNanos(10);
    /** A loop polls at most this long before it sleeps: a slow server's responses are waited for asleep. */
    static final long POLL_SPAN_NS = TimeUnit.MICROSECONDS.toNanos(200);

    private final Selector selector;
    private final Consumer<SelectionKey> onReady;
    private final long spinNs;
    private final WakeLatency parkLatency = new WakeLatency();
    private final WakeLatency alarmLatency = new WakeLatency();
    /** The platform's wake-up p99, the granularity unless the spec gives one. */
    private final WakeFloor floor;
    /** The spec's granularity; negative: the {@link #floor}'s. */
    private final long fixedGranularityNs;
    /** Whether it polls while responses are awaited rather than sleeping at once; see {@link #POLL_INTERVAL_NS}. */
    private final boolean pollsForResponses;
    /** The time spent polling in vain, which is not the engine's work; written by the event loop, read by any thread. */
    private volatile long pollingNs;
    /** Wakes the selector between its whole milliseconds; started by the first sleep that needs it. */
    private SelectorAlarm alarm;

    /**
     * @param ratePerSec        the open loop's rate, for its spin window; 0 for a loop without intended starts
     * @param wakeGranularityUs the spec's granularity; null: the floor's
     * @param pollsForResponses whether it polls while responses are awaited ({@link #POLL_INTERVAL_NS})
     */
    SelectorWait(Selector selector, Consumer<SelectionKey> onReady, double ratePerSec, Long wakeGranularityUs,
                 WakeFloor floor, boolean pollsForResponses) {
        this.selector = selector;
        this.onReady = onReady;
        this.floor = floor;
        this.pollsForResponses = pollsForResponses;
        this.fixedGranularityNs = wakeGranularityUs == null ? -1 : TimeUnit.MICROSECONDS.toNanos(wakeGranularityUs);
        // A loop that waits for its starts by the granularity never spins: a start it woke early for waits for the next wake.
        this.spinNs = ratePerSec > 0 && fixedGranularityNs == 0
                ? Math.min(MAX_SPIN_NS, (long) (1e9 / ratePerSec / SPIN_SHARE)) : 0;
    }

    /**
     * Whether a load's loop polls for responses rather than sleeping at once ({@link #POLL_INTERVAL_NS}): over
     * HTTP/2 with several streams a connection, whose requests a poll gathers into one write; on CPUs set apart for the
     * generator, where spinning takes no time from a target beside it (unpinned, the tests' protocol contract took 5 %
     * longer with it); and with a CPU for each engine thread, which spinning takes from no other engine.
     */
    static boolean pollsFor(LoadSpec spec) {
        return spec.http2() && spec.streams() > 1 && spec.threads() <= Runtime.getRuntime().availableProcessors()
                && CpuPinning.setApart();
    }

    /** How long the timer now waits at least between wakes for intended starts. */
    private long granularityNs() {
        return fixedGranularityNs >= 0 ? fixedGranularityNs : floor.granularityNs();
    }

    /**
     * Handles what is ready until {@code wakeNs}.
     *
     * @param intendedStart whether {@code wakeNs} is an intended start, to be kept closely
     * @param ioAwaited     whether responses or connects are awaited
     */
    void await(long nowNs, long wakeNs, boolean intendedStart, boolean ioAwaited) throws IOException {
        long waitNs = wakeNs - nowNs;
        if (!intendedStart) {
            if (waitNs > 0 && pollsForResponses && ioAwaited && polled(nowNs, Math.min(wakeNs, nowNs + POLL_SPAN_NS))) {
                return;
            }
            // After polling in vain the wake may be due already: a select of a whole millisecond would overshoot it.
            long leftNs = wakeNs - System.nanoTime();
            if (leftNs <= 0) {
                selector.selectNow(onReady);
            } else {
                selector.select(onReady, ceilMs(leftNs));
            }
            return;
        }
        long granularityNs = granularityNs();
        if (granularityNs > 0) {
            // What falls due until then goes with this start; a wake for I/O sends what is due sooner.
            wakeNs = Math.max(wakeNs, nowNs + granularityNs);
            waitNs = wakeNs - nowNs;
        } else if (waitNs <= spinNs) {
            if (selector.selectNow(onReady) == 0) {
                Thread.onSpinWait();
            }
            return;
        }
        boolean useAlarm = ioAwaited && waitNs - alarmLatency.estimateNs() >= ALARM_MIN_NS;
        WakeLatency latency = useAlarm ? alarmLatency : parkLatency;
        long askNs = Math.max(wakeNs - latency.estimateNs(), nowNs + 1);
        if (!useAlarm) {
            // What is already readable is read first: a busy loop sleeps only when it has nothing to do.
            if (ioAwaited && selector.selectNow(onReady) > 0) {
                return;
            }
            LockSupport.parkNanos(askNs - nowNs);
            selector.selectNow(onReady);
        } else {
            if (alarm == null) {
                alarm = new SelectorAlarm(selector, "gauntlet-alarm");
            }
            alarm.set(askNs);
            selector.select(onReady, ceilMs(waitNs));
        }
        long wokeNs = System.nanoTime();
        if (wokeNs >= askNs) {
            latency.sample(wokeNs - askNs);
        }
    }

    /**
     * Looks at the sockets every {@link #POLL_INTERVAL_NS} until {@code untilNs}, spinning in between: true once it
     * found something ready (and handled it), false when nothing came by then. It yields its CPU at each look: the
     * scheduler otherwise lets a spinning thread finish its slice before a woken neighbour runs, and the hiccup meter
     * beside it measured 1.1-1.4 ms of wake-up p99 that was this loop's, not the platform's.
     */
    private boolean polled(long nowNs, long untilNs) throws IOException {
        long pollNs = nowNs;
        try {
            while (pollNs < untilNs) {
                long t;
                do {
                    Thread.onSpinWait();
                    t = System.nanoTime();
                } while (t - pollNs < POLL_INTERVAL_NS);
                pollNs = t;
                Thread.yield();
                if (selector.selectNow(onReady) > 0) {
                    return true;
                }
            }
            pollNs = System.nanoTime();
            return false;
        } finally {
            // Up to the poll that found something: handling it is the engine's work.
            pollingNs += pollNs - nowNs;
        }
    }

    /** The time it spent polling while nothing was ready, since it was made. */
    long pollingNs() {
        return pollingNs;
    }

    private static long ceilMs(long ns) {
        return (ns + 999_999) / 1_000_000;
    }

    @Override
    public void close() {
        if (alarm != null) {
            alarm.close();
        }
    }
}
