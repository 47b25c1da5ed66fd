package dev.gauntlet.loadgen.model;

import dev.gauntlet.api.ErrorClass;
import dev.gauntlet.api.LoadSpec;
import dev.gauntlet.loadgen.measure.LatencyRecorder;
import dev.gauntlet.loadgen.measure.RequestCounters;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Books the end of each request of one driver, whatever carried it: a response with the expected
 * status and body completes it (its times recorded), anything else is its error; what was
 * intended before the measured phase is counted nowhere, and only a correct answer is recorded,
 * for the steady-state judge. Each request's end is told exactly once: answered, failed, let go
 * or dropped. Single-threaded: the transport's loop owns it.
 *
 * <pre>{@code
 * judge.sent(intendedStartNs);   judge.lag(intendedStartNs, sendNs);
 * judge.answered(intendedStartNs, sendNs, endNs, status, judge.bodyMatches(body));
 * }</pre>
 */
public final class RequestJudge {
    private static final byte[] EMPTY = new byte[0];

    private final int expectedStatus;
    /** Null: any body is accepted. */
    private final byte[] expectedBody;
    private final Phases phases;
    private final LatencyRecorder.Writer recorder;
    private final RequestCounters counters;

    RequestJudge(LoadSpec spec, Phases phases, LatencyRecorder.Writer recorder, RequestCounters counters) {
        this.expectedStatus = spec.expectedStatus();
        this.expectedBody = spec.expectedBody() == null ? null : spec.expectedBody().getBytes(StandardCharsets.UTF_8);
        this.phases = phases;
        this.recorder = recorder;
        this.counters = counters;
    }

    /** The body a correct response carries, for a parser that compares as it reads; null when any will do. */
    public byte[] expectedBody() {
        return expectedBody;
    }

    /** Whether {@code body} is the expected one; a missing body is an empty one, as a parser reads it. */
    public boolean bodyMatches(byte[] body) {
        return expectedBody == null || Arrays.equals(body == null ? EMPTY : body, expectedBody);
    }

    /** The request left for the server (or its library). */
    public void sent(long intendedStartNs) {
        if (phases.measured(intendedStartNs)) {
            counters.sent();
        }
    }

    /** How late the request was sent after its intended start. */
    public void lag(long intendedStartNs, long sendNs) {
        if (phases.measured(intendedStartNs)) {
            recorder.recordLag(sendNs - intendedStartNs);
        }
    }

    /** Open loop: how late the loop came to an intended start, as it took it. */
    void lateness(long intendedStartNs, long nowNs) {
        if (!phases.measured(intendedStartNs)) {
            recorder.recordWarmupLateness(nowNs - intendedStartNs);
        }
    }

    /** A whole response arrived: {@code bodyMatches} from {@link #bodyMatches} or the transport's own parser. */
    public void answered(long intendedStartNs, long sendNs, long endNs, int status, boolean bodyMatches) {
        phases.resolved();
        boolean correct = status == expectedStatus && bodyMatches;
        if (correct) {
            counters.answered(endNs);
        }
        if (!phases.measured(intendedStartNs)) {
            if (correct) {
                recorder.recordWarmup(intendedStartNs, endNs);
            }
        } else if (status != expectedStatus) {
            counters.badStatus(status, endNs);
        } else if (!bodyMatches) {
            counters.error(ErrorClass.BAD_BODY, endNs, null);
        } else {
            counters.completed(endNs);
            recorder.recordResponse(intendedStartNs, sendNs, endNs);
        }
    }

    /** The request failed as {@code errorClass} at {@code endNs}, seen by an engine that keeps no exception. */
    public void failed(long intendedStartNs, ErrorClass errorClass, long endNs) {
        failed(intendedStartNs, errorClass, endNs, null);
    }

    /** The request failed as {@code errorClass} at {@code endNs} with {@code failure}, the first of its class the message. */
    public void failed(long intendedStartNs, ErrorClass errorClass, long endNs, Throwable failure) {
        phases.resolved();
        if (phases.measured(intendedStartNs)) {
            counters.error(errorClass, endNs, failure);
        }
    }

    /** The request is let go of uncounted: a held request at the end of its hold, a warm-up one at a burst. */
    public void letGo() {
        phases.resolved();
    }

    /** The wait for capacity was full: the request is dropped, never sent, so never timed. */
    public void dropped(long intendedStartNs) {
        if (phases.droppedUnsent(intendedStartNs)) {
            counters.droppedQueueFull();
        }
    }
}
