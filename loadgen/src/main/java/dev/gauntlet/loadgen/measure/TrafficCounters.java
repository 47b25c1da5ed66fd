package dev.gauntlet.loadgen.measure;

import dev.gauntlet.api.BytesTransferred;

import java.util.List;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * What one engine has on the wire: its requests in flight and connections open now, the bytes it wrote and read so
 * far, warm-up included, and apart those from the measured phase's start, for the summary. Single writer (the engine's
 * loop); the interval thread reads them once a second for {@code traffic.csv}, so writes are ordered releases rather
 * than full fences, as {@link RequestCounters}' are.
 *
 * <pre>{@code
 * TrafficCounters traffic = TrafficCounters.ofSockets(clock);  // the built-in engine; ofRequests(clock): a library's
 * traffic.round(busy.size(), nowNs);                            // each round of the engine's loop, as it starts
 * traffic.sent(written);  traffic.received(read);               // each socket write and read
 * TrafficCounters.Snapshot now = TrafficCounters.sumOf(all);
 * }</pre>
 *
 * <p>Whether a byte is the measured phase's is decided once a round, by the round's start: the phase's first round
 * counts from before it sends its first measured request.
 */
public final class TrafficCounters {
    private static final int IN_FLIGHT = 0;
    private static final int CONNECTIONS_OPENED = 1;
    private static final int CONNECTIONS_CLOSED = 2;
    private static final int BYTES_SENT = 3;
    private static final int BYTES_RECEIVED = 4;
    private static final int MEASURED_BYTES_SENT = 5;
    private static final int MEASURED_BYTES_RECEIVED = 6;

    /**
     * The engines' figures added up at one moment.
     *
     * @param seesSockets whether the connections and bytes are known: a client library's engine sees only its requests
     */
    public record Snapshot(long inFlight, long connectionsOpen, long bytesSent, long bytesReceived, boolean seesSockets) {
    }

    private final AtomicLongArray values = new AtomicLongArray(MEASURED_BYTES_RECEIVED + 1);
    private final boolean seesSockets;
    private final PhaseClock clock;
    private boolean measuring;

    private TrafficCounters(boolean seesSockets, PhaseClock clock) {
        this.seesSockets = seesSockets;
        this.clock = clock;
    }

    /** An engine that opens its own sockets, and so knows its connections and bytes. */
    public static TrafficCounters ofSockets(PhaseClock clock) {
        return new TrafficCounters(true, clock);
    }

    /** An engine that hands its requests to a client library, which keeps its connections and bytes to itself. */
    public static TrafficCounters ofRequests(PhaseClock clock) {
        return new TrafficCounters(false, clock);
    }

    /** A round of the engine's loop starts at {@code nowNs} with {@code inFlight} requests sent and not yet ended. */
    public void round(int inFlight, long nowNs) {
        values.setRelease(IN_FLIGHT, inFlight);
        measuring = nowNs >= clock.measureStartNs();
    }

    public void connectionOpened() {
        add(CONNECTIONS_OPENED, 1);
    }

    public void connectionClosed() {
        add(CONNECTIONS_CLOSED, 1);
    }

    public void sent(long bytes) {
        add(BYTES_SENT, bytes);
        if (measuring) {
            add(MEASURED_BYTES_SENT, bytes);
        }
    }

    public void received(long bytes) {
        add(BYTES_RECEIVED, bytes);
        if (measuring) {
            add(MEASURED_BYTES_RECEIVED, bytes);
        }
    }

    /** The engines' bytes from the measured phase's start, over {@code measuredSec}; null when they do not see them. */
    public static BytesTransferred measuredBytes(List<TrafficCounters> all, double measuredSec) {
        if (!all.stream().allMatch(each -> each.seesSockets)) {
            return null;
        }
        return BytesTransferred.over(all.stream().mapToLong(each -> each.values.getAcquire(MEASURED_BYTES_SENT)).sum(),
                all.stream().mapToLong(each -> each.values.getAcquire(MEASURED_BYTES_RECEIVED)).sum(), measuredSec);
    }

    /** Every engine's figures now, added up. */
    public static Snapshot sumOf(List<TrafficCounters> all) {
        long[] sum = new long[MEASURED_BYTES_RECEIVED + 1];
        for (TrafficCounters each : all) {
            for (int i = 0; i < sum.length; i++) {
                sum[i] += each.values.getAcquire(i);
            }
        }
        return new Snapshot(sum[IN_FLIGHT], sum[CONNECTIONS_OPENED] - sum[CONNECTIONS_CLOSED], sum[BYTES_SENT],
                sum[BYTES_RECEIVED], all.stream().allMatch(each -> each.seesSockets));
    }

    private void add(int index, long amount) {
        values.setRelease(index, values.getPlain(index) + amount);
    }
}
