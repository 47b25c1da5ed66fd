package dev.gauntlet.loadgen.transport;

import dev.gauntlet.api.RequestTimings;
import dev.gauntlet.loadgen.measure.LatencyRecorder;
import dev.gauntlet.loadgen.measure.PhaseClock;
import org.HdrHistogram.Histogram;

import java.util.List;

/**
 * Where the built-in engine's time went on the wire, as k6 splits it: each TCP connect and TLS handshake, and each
 * measured HTTP/1.1 request's wait for its answer's first byte and the reading of the rest; and each connection's
 * whole opening until it could carry a request (the summary's {@code connectTime}: the connect, the handshake, HTTP/2's
 * settings). Connections are timed warm-up included. Single writer (the engine's loop); read once its thread has ended.
 */
public final class WireTimings {
    private final PhaseClock clock;
    private final Histogram connect = LatencyRecorder.newHistogram();
    private final Histogram tlsHandshake = LatencyRecorder.newHistogram();
    private final Histogram waiting = LatencyRecorder.newHistogram();
    private final Histogram receiving = LatencyRecorder.newHistogram();
    private final Histogram ready = LatencyRecorder.newHistogram();

    /** @param clock when the measured phase starts: only its requests' waiting and receiving are recorded */
    public WireTimings(PhaseClock clock) {
        this.clock = clock;
    }

    /** A connection could carry a request {@code openingNs} after it began to open. */
    void ready(long openingNs) {
        ready.recordValue(openingNs);
    }

    void connected(long dialNs, long nowNs) {
        connect.recordValue(clamped(nowNs - dialNs));
    }

    void handshaken(long connectedNs, long nowNs) {
        tlsHandshake.recordValue(clamped(nowNs - connectedNs));
    }

    /** A whole answer: sent at {@code sendNs}, its first byte read at {@code firstByteNs}, its last at {@code endNs}. */
    void answered(long intendedStartNs, long sendNs, long firstByteNs, long endNs) {
        if (intendedStartNs >= clock.measureStartNs()) {
            waiting.recordValue(clamped(firstByteNs - sendNs));
            receiving.recordValue(clamped(endNs - firstByteNs));
        }
    }

    /** How long every engine's connections took to open until they could carry a request. */
    public static Histogram readyTimes(List<WireTimings> all) {
        Histogram sum = LatencyRecorder.newHistogram();
        all.forEach(each -> sum.add(each.ready));
        return sum;
    }

    /** Every engine's timings, summed. */
    public static RequestTimings summary(List<WireTimings> all) {
        Histogram connect = LatencyRecorder.newHistogram();
        Histogram tlsHandshake = LatencyRecorder.newHistogram();
        Histogram waiting = LatencyRecorder.newHistogram();
        Histogram receiving = LatencyRecorder.newHistogram();
        for (WireTimings each : all) {
            connect.add(each.connect);
            tlsHandshake.add(each.tlsHandshake);
            waiting.add(each.waiting);
            receiving.add(each.receiving);
        }
        return new RequestTimings(LatencyRecorder.percentiles(connect), LatencyRecorder.percentiles(tlsHandshake),
                LatencyRecorder.percentiles(waiting), LatencyRecorder.percentiles(receiving));
    }

    private static long clamped(long ns) {
        return Math.clamp(ns, 0, LatencyRecorder.HIGHEST_TRACKABLE_NS);
    }
}
