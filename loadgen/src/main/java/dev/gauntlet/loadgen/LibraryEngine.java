package dev.gauntlet.loadgen;

import dev.gauntlet.api.ErrorClass;
import dev.gauntlet.api.LoadModel;
import dev.gauntlet.api.LoadSpec;
import dev.gauntlet.api.RunSummary;

import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Supplier;

/**
 * The driver of a client library engine: the same {@link Phases}, recorder and counters as the
 * lean engine, with the library sending each request ({@link ClientCalls}). One driver thread
 * owns every figure; requests end on other threads and are posted back to it, stamped where they
 * ended, so recording stays single-writer and the library's threads only pay for a queue offer.
 *
 * <p>Open loop: each intended start is handed to the library when due, while fewer than the
 * limit are in flight, else it waits in order with its intended start kept. The library opens
 * what connections it likes (the {@code connection policy} is the lean engine's). Closed loop:
 * N requests in flight, a new one as each ends. Max concurrency: one request at a time in the
 * warm-up, then N at the start of the measured phase, held to its end, then let go uncounted.
 *
 * <p>The library's own timeouts are the spec's; the driver still gives up on a request its library
 * never ends (connect plus response timeout plus {@link #DEADLINE_GRACE_NS}) and counts it a
 * response timeout. The driver waits by parking, so its own lateness to an intended start is
 * the platform's wake-up latency (recorded as schedule lag and loop lateness, as always).
 */
final class LibraryEngine implements Engine {
    private static final long DEADLINE_GRACE_NS = TimeUnit.SECONDS.toNanos(1);
    private static final long CLOSE_WAIT_MS = 5_000;

    private enum Mode { OPEN, CLOSED, HELD }

    private final LoadSpec spec;
    private final Phases phases;
    private final Mode mode;
    /** Requests in flight at most: the closed loop's and held model's N, the fixed pool, else the machine's limit. */
    private final int limit;
    private final ClientCalls calls;
    private final LatencyRecorder.Writer recorder;
    private final RequestCounters counters;
    private final Supplier<RunSummary.ServerStats> serverStats;
    private final byte[] expectedBody;
    private final long deadlineNs;
    private final Queue<LibraryCall> outcomes = new ConcurrentLinkedQueue<>();
    /** Every request not yet let go of, in the order it was handed over; resolved ones leave from the head. */
    private final ArrayDeque<LibraryCall> inFlight = new ArrayDeque<>();
    /** Open loop at the limit: intended starts waiting for a request to end, oldest first; bounded as the lean engine's. */
    private final LongQueue waiting;
    private Thread driver;
    private int inFlightCount;
    private int inFlightPeak;
    private boolean burstSent;
    private RunSummary.ServerStats serverAtStart;
    private RunSummary.Concurrency concurrency;

    /**
     * @param maxConnections the open loop's limit, already resolved against the machine's limits
     * @param pendingLimit   the open loop's requests waiting for the limit at most; what is due beyond is dropped
     * @param serverStats    fetches the target's {@code /stats}; null when the spec names no admin URL
     */
    LibraryEngine(LoadSpec spec, int maxConnections, int pendingLimit, long runStartNs, PhaseClock clock,
                  LatencyRecorder.Writer recorder, RequestCounters counters, Supplier<RunSummary.ServerStats> serverStats) {
        this.spec = spec;
        this.waiting = new LongQueue(pendingLimit);
        this.phases = new Phases(spec, runStartNs, clock);
        switch (spec.model()) {
            case LoadModel.OpenLoop open -> {
                mode = Mode.OPEN;
                limit = open.connectionPolicy() == LoadModel.ConnectionPolicy.FIXED ? open.connections() : maxConnections;
            }
            case LoadModel.ClosedLoop closed -> {
                mode = Mode.CLOSED;
                limit = closed.connections();
            }
            case LoadModel.MaxConcurrency held -> {
                mode = Mode.HELD;
                limit = held.requests();
            }
        }
        this.calls = ClientEngines.open(spec, limit);
        this.recorder = recorder;
        this.counters = counters;
        this.serverStats = serverStats;
        this.expectedBody = spec.expectedBody() == null ? null : spec.expectedBody().getBytes(StandardCharsets.UTF_8);
        this.deadlineNs = TimeUnit.MILLISECONDS.toNanos(spec.connectTimeoutMs() + spec.responseTimeoutMs()) + DEADLINE_GRACE_NS;
    }

    @Override
    public void run() {
        driver = Thread.currentThread();
        if (mode == Mode.OPEN) {
            phases.startSchedule();
        }
        try {
            while (true) {
                long nowNs = System.nanoTime();
                if (nowNs >= phases.hardCapNs() || driver.isInterrupted()) {
                    abortOutstanding();
                    break;
                }
                drainOutcomes();
                switch (mode) {
                    case OPEN -> {
                        while (!waiting.isEmpty() && inFlightCount < limit) {
                            start(waiting.poll(), nowNs);
                        }
                        // Room below the limit means nothing waits: what is due starts at once, else queues.
                        for (long intendedNs; (intendedNs = phases.takeDue(nowNs)) != Phases.NONE; ) {
                            if (inFlightCount < limit) {
                                start(intendedNs, nowNs);
                            } else if (!waiting.offer(intendedNs) && phases.droppedUnsent(intendedNs)) {
                                // Never handed to the library, so never timed.
                                counters.droppedQueueFull();
                            }
                        }
                    }
                    case CLOSED -> keepInFlight(limit, nowNs);
                    case HELD -> {
                        if (nowNs < phases.measureStartNs()) {
                            keepInFlight(1, nowNs);
                        } else if (!burstSent) {
                            sendBurst(nowNs);
                        } else {
                            keepInFlight(limit, nowNs);
                        }
                    }
                }
                if (mode == Mode.HELD && burstSent && !phases.issuing()) {
                    endHold();
                    break;
                }
                if (phases.done()) {
                    break;
                }
                expire(nowNs);
                long waitNs = nextWakeNs(nowNs) - System.nanoTime();
                if (waitNs > 0 && outcomes.isEmpty()) {
                    LockSupport.parkNanos(waitNs);
                }
            }
        } finally {
            closeLibrary();
        }
    }

    /**
     * Closes the library, waiting {@link #CLOSE_WAIT_MS} at most: one that lost a thread at the thread
     * limit may never finish closing, and the run's files must still be written. Its threads are
     * left to the process's exit.
     */
    private void closeLibrary() {
        Thread closer;
        try {
            closer = Thread.ofVirtual().name("gauntlet-client-close").start(() -> {
                try {
                    calls.close();
                } catch (Exception e) {
                    // The run's figures are taken; a library that fails to close has nothing left to report.
                }
            });
        } catch (OutOfMemoryError noThread) {
            return;
        }
        try {
            closer.join(CLOSE_WAIT_MS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Closed loop and held requests: a new request for each that ended, while the phase lets it
     * issue. The phase is asked even when nothing ended, so that issuing stops at its end while
     * every request is still held.
     */
    private void keepInFlight(int target, long nowNs) {
        for (boolean issuing = phases.keepIssuing(nowNs); issuing && inFlightCount < target;
             issuing = phases.keepIssuing(nowNs)) {
            phases.begin(nowNs);
            start(nowNs, nowNs);
        }
    }

    /** Max concurrency: all N requests at once, each intended at the start of the measured phase. */
    private void sendBurst(long nowNs) {
        burstSent = true;
        if (serverStats != null) {
            serverAtStart = serverStats.get();
        }
        // The warm-up's request goes uncounted, as the lean engine's does: the burst is N requests of its own.
        letGoOfInFlight();
        for (int i = 0; i < limit; i++) {
            // Starting a platform thread per request can take longer than the phase: what is not
            // started by its end never is, and the held count says how far the burst got.
            if (System.nanoTime() >= phases.measureEndNs() || driver.isInterrupted()) {
                return;
            }
            phases.begin(phases.measureStartNs());
            start(phases.measureStartNs(), nowNs);
        }
    }

    /** Max concurrency, at the end of the measured phase: what is held and what the server says, then the held go. */
    private void endHold() {
        drainOutcomes();
        RunSummary.ServerStats serverAtEnd = serverStats == null ? null : serverStats.get();
        // A library does not say which of its connections are up: the requests still held stand for both counts.
        concurrency = new RunSummary.Concurrency(inFlightCount, inFlightCount, serverAtStart, serverAtEnd);
        letGoOfInFlight();
    }

    private void start(long intendedStartNs, long nowNs) {
        LibraryCall call = new LibraryCall(intendedStartNs, nowNs + deadlineNs, outcomes, driver);
        inFlight.addLast(call);
        inFlightCount++;
        if (nowNs >= phases.measureStartNs()) {
            // A library's cold start piles requests up in the warm-up; the measured phase's peak is the one that tells.
            inFlightPeak = Math.max(inFlightPeak, inFlightCount);
        }
        if (phases.measured(intendedStartNs)) {
            counters.sent();
        }
        calls.start(call);
    }

    private void drainOutcomes() {
        for (LibraryCall call; (call = outcomes.poll()) != null; ) {
            if (!call.resolved) {
                judge(call);
            }
        }
    }

    /** The lean engine's rule: the expected status and body complete a request, anything else is its error. */
    private void judge(LibraryCall call) {
        resolve(call);
        if (!phases.measured(call.intendedStartNs)) {
            if (call.error == null && call.response.status() == spec.expectedStatus()
                    && (expectedBody == null || Arrays.equals(call.response.body(), expectedBody))) {
                recorder.recordWarmup(call.intendedStartNs, call.endNs);
            }
            call.response = null;
            return;
        }
        if (call.sendNs != 0) {
            recorder.recordLag(call.sendNs - call.intendedStartNs);
        }
        if (call.error != null) {
            counters.error(call.error, call.endNs);
        } else if (call.response.status() != spec.expectedStatus()) {
            counters.error(ErrorClass.BAD_STATUS, call.endNs);
        } else if (expectedBody != null && !Arrays.equals(call.response.body(), expectedBody)) {
            counters.error(ErrorClass.BAD_BODY, call.endNs);
        } else {
            counters.completed(call.endNs);
            recorder.recordResponse(call.intendedStartNs, call.sendNs, call.endNs);
        }
        call.response = null;
    }

    private void resolve(LibraryCall call) {
        call.resolved = true;
        inFlightCount--;
        phases.resolved();
    }

    /** Requests the library never ended by their deadline are response timeouts; the head drops what is resolved. */
    private void expire(long nowNs) {
        for (LibraryCall head = inFlight.peekFirst(); head != null; head = inFlight.peekFirst()) {
            if (!head.resolved) {
                if (head.deadlineNs > nowNs) {
                    return;
                }
                fail(head, ErrorClass.RESPONSE_TIMEOUT);
            }
            inFlight.pollFirst();
        }
    }

    private void fail(LibraryCall call, ErrorClass errorClass) {
        resolve(call);
        if (phases.measured(call.intendedStartNs)) {
            counters.error(errorClass, System.nanoTime());
        }
    }

    private void letGoOfInFlight() {
        for (LibraryCall call; (call = inFlight.pollFirst()) != null; ) {
            if (!call.resolved) {
                resolve(call);
            }
        }
    }

    private void abortOutstanding() {
        phases.abort();
        drainOutcomes();
        for (LibraryCall call; (call = inFlight.pollFirst()) != null; ) {
            if (!call.resolved) {
                fail(call, ErrorClass.RESPONSE_TIMEOUT);
            }
        }
        while (!waiting.isEmpty()) {
            long intendedStartNs = waiting.poll();
            phases.resolved();
            if (phases.measured(intendedStartNs)) {
                counters.error(ErrorClass.RESPONSE_TIMEOUT, System.nanoTime());
            }
        }
    }

    private long nextWakeNs(long nowNs) {
        long wakeNs = phases.hardCapNs();
        if (phases.issuing()) {
            wakeNs = Math.min(wakeNs, mode == Mode.OPEN ? phases.nextIntendedNs()
                    : nowNs < phases.measureStartNs() ? phases.measureStartNs() : phases.measureEndNs());
        }
        LibraryCall head = inFlight.peekFirst();
        if (head != null) {
            wakeNs = Math.min(wakeNs, head.deadlineNs);
        }
        return wakeNs;
    }

    @Override
    public Phases phases() {
        return phases;
    }

    /** Requests in flight at once at most in the measured phase: the connections a library can have needed. */
    @Override
    public int connectionsPeak() {
        return inFlightPeak;
    }

    @Override
    public int connectionsLimit() {
        return limit;
    }

    @Override
    public RunSummary.Concurrency concurrency() {
        return concurrency;
    }
}
