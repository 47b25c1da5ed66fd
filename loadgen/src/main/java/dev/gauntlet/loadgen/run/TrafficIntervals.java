package dev.gauntlet.loadgen.run;

import dev.gauntlet.loadgen.measure.TrafficCounters;
import dev.gauntlet.loadgen.measure.TrafficLog;

import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * The traffic log's intervals, a tick at a time over the whole run (the warm-up's too, unlike the latency logs): the
 * engines' requests in flight and connections open at each tick, the bytes since the one before. The interval
 * thread's, then the thread that ends the run.
 */
final class TrafficIntervals {
    /** A tick this soon after the last one (the first, at the run's start when its warm-up is whole seconds) is none. */
    private static final long SHORTEST_NS = TimeUnit.MILLISECONDS.toNanos(50);

    private final TrafficLog log;
    private final Supplier<TrafficCounters.Snapshot> traffic;
    private final long runStartNs;
    private long fromNs;
    private TrafficCounters.Snapshot before;

    /** @param log where each interval goes; null when the run writes no files */
    TrafficIntervals(TrafficLog log, Supplier<TrafficCounters.Snapshot> traffic, long runStartNs) {
        this.log = log;
        this.traffic = traffic;
        this.runStartNs = runStartNs;
        this.fromNs = runStartNs;
        this.before = new TrafficCounters.Snapshot(0, 0, 0, 0, true);
    }

    /** The interval that ends now into the log; none when the last one ended under 50 ms ago. */
    void interval(long nowNs) {
        if (nowNs - fromNs >= SHORTEST_NS) {
            write(nowNs);
        }
    }

    /** The run's last interval, however short, and the log closed. */
    void close(long nowNs) {
        if (nowNs > fromNs) {
            write(nowNs);
        }
        if (log != null) {
            log.close();
        }
    }

    private void write(long nowNs) {
        TrafficCounters.Snapshot now = traffic.get();
        if (log != null) {
            boolean sockets = now.seesSockets();
            log.write(new TrafficLog.Interval((fromNs - runStartNs) / 1e9, (nowNs - fromNs) / 1e9, now.inFlight(),
                    sockets ? now.connectionsOpen() : null, sockets ? now.bytesSent() - before.bytesSent() : null,
                    sockets ? now.bytesReceived() - before.bytesReceived() : null));
        }
        fromNs = nowNs;
        before = now;
    }
}
