package dev.gauntlet.loadgen.transport;

import dev.gauntlet.api.ErrorClass;
import dev.gauntlet.api.LoadSpec;
import dev.gauntlet.api.RunSummary;
import dev.gauntlet.loadgen.engine.ClientResponse;
import dev.gauntlet.loadgen.measure.TrafficCounters;
import dev.gauntlet.loadgen.model.LoadDriver;
import dev.gauntlet.loadgen.model.Phases;
import dev.gauntlet.loadgen.model.RequestJudge;
import dev.gauntlet.loadgen.model.Transport;

import java.util.ArrayDeque;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * The client-library transport: a {@link LoadDriver}'s requests handed to a client library
 * ({@link ClientCalls}). One thread runs the driver and owns every figure; requests end on other
 * threads and are posted back to it, stamped where they ended, so recording stays single-writer
 * and the library's threads only pay for a queue offer.
 *
 * <p>A request due while the driver's capacity is in flight waits in order, its intended start
 * kept. The library opens what connections it likes (a connection policy is the lean transport's).
 * The library's own timeouts are the spec's; the transport still gives up on a request its library
 * never ends (connect plus response timeout plus {@link #DEADLINE_GRACE_NS}) and counts it a
 * response timeout. It waits by parking, so its own lateness to an intended start is the
 * platform's wake-up latency (recorded as schedule lag and loop lateness, as always).
 */
public final class LibraryEngine implements Engine, Transport {
    private static final long DEADLINE_GRACE_NS = TimeUnit.SECONDS.toNanos(1);
    private static final long CLOSE_WAIT_MS = 5_000;

    private final LoadDriver driver;
    private final Phases phases;
    private final RequestJudge judge;
    /** Requests in flight at most: the driver's capacity. */
    private final int limit;
    private final ClientCalls calls;
    private final long deadlineNs;
    /** The version every response must come on. */
    private final ClientResponse.Version version;
    private final Queue<LibraryCall> outcomes = new ConcurrentLinkedQueue<>();
    /** Every request not yet let go of, in the order it was handed over; resolved ones leave from the head. */
    private final ArrayDeque<LibraryCall> inFlight = new ArrayDeque<>();
    /** Requests waiting for the limit, oldest first, by intended start; bounded as the lean transport's. */
    private final LongQueue waiting;
    private Thread loop;
    private final TrafficCounters traffic;
    private int inFlightCount;
    private int inFlightPeak;

    /**
     * @param maxConnections the open loop's limit, already resolved against the machine's limits
     * @param pendingLimit   requests waiting for the limit at most; what is due beyond is dropped
     * @param traffic        its requests in flight, for {@code traffic.csv} (the library keeps its sockets to itself)
     */
    public LibraryEngine(LoadSpec spec, LoadDriver driver, int maxConnections, int pendingLimit, TrafficCounters traffic) {
        this.driver = driver;
        this.traffic = traffic;
        this.phases = driver.phases();
        this.judge = driver.judge();
        this.limit = driver.capacity(maxConnections);
        this.waiting = new LongQueue(driver.waitingCapacity(pendingLimit));
        this.calls = ClientEngines.open(spec, limit);
        this.version = ClientResponse.Version.of(spec.protocol());
        this.deadlineNs = TimeUnit.MILLISECONDS.toNanos(spec.connectTimeoutMs() + spec.responseTimeoutMs()) + DEADLINE_GRACE_NS;
    }

    @Override
    public void run() {
        loop = Thread.currentThread();
        driver.start(this);
        try {
            while (true) {
                long nowNs = System.nanoTime();
                traffic.round(inFlightCount, nowNs);
                if (nowNs >= phases.hardCapNs() || loop.isInterrupted()) {
                    abortOutstanding();
                    break;
                }
                receive();
                while (!waiting.isEmpty() && inFlightCount < limit) {
                    start(waiting.poll(), nowNs);
                }
                driver.issue(nowNs);
                if (driver.finished()) {
                    break;
                }
                expire(nowNs);
                long waitNs = nextWakeNs(nowNs) - System.nanoTime();
                if (waitNs > 0 && outcomes.isEmpty()) {
                    LockSupport.parkNanos(waitNs);
                }
            }
        } finally {
            traffic.round(inFlightCount, System.nanoTime());
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

    @Override
    public RunSummary.Quic quic() {
        return calls.quic();
    }

    @Override
    public void dispatch(long intendedStartNs, long nowNs) {
        if (inFlightCount < limit) {
            start(intendedStartNs, nowNs);
        } else if (!waiting.offer(intendedStartNs)) {
            judge.dropped(intendedStartNs);
        }
    }

    @Override
    public boolean mayStartNew() {
        return true;
    }

    @Override
    public void startNew(long nowNs) {
        start(nowNs, nowNs);
    }

    private void start(long intendedStartNs, long nowNs) {
        LibraryCall call = new LibraryCall(intendedStartNs, nowNs + deadlineNs, outcomes, loop);
        inFlight.addLast(call);
        inFlightCount++;
        if (nowNs >= phases.measureStartNs()) {
            // A library's cold start piles requests up in the warm-up; the measured phase's peak is the one that tells.
            inFlightPeak = Math.max(inFlightPeak, inFlightCount);
        }
        judge.sent(intendedStartNs);
        calls.start(call);
    }

    @Override
    public void receive() {
        for (LibraryCall call; (call = outcomes.poll()) != null; ) {
            if (!call.resolved) {
                resolve(call);
            }
        }
    }

    /** Books what the library said of {@code call}; an answer frees its capacity for the driver's next request. */
    private void resolve(LibraryCall call) {
        release(call);
        if (call.sendNs != 0) {
            judge.lag(call.intendedStartNs, call.sendNs);
        }
        if (call.error != null) {
            judge.failed(call.intendedStartNs, call.error, call.endNs, call.failure);
            return;
        }
        if (call.response.version() != version) {
            // The library spoke another version than asked, e.g. fell back to HTTP/1.1 when ALPN offered it, or to TCP from QUIC.
            judge.failed(call.intendedStartNs, ErrorClass.PROTOCOL, call.endNs);
        } else {
            judge.answered(call.intendedStartNs, call.sendNs, call.endNs, call.response.status(),
                    judge.bodyMatches(call.response.body()));
        }
        call.response = null;
        long nowNs = System.nanoTime();
        if (driver.nextOnFreed(nowNs)) {
            start(nowNs, nowNs);
        }
    }

    private void release(LibraryCall call) {
        call.resolved = true;
        inFlightCount--;
    }

    @Override
    public int connected() {
        // A library does not say which of its connections are up: the requests in flight stand for them.
        return inFlightCount;
    }

    @Override
    public int inFlight() {
        return inFlightCount;
    }

    /** None: a library connects by itself, and its connect timeout fails the call (retries are turned off). */
    @Override
    public long connectRetries() {
        return 0;
    }

    @Override
    public void letGo() {
        for (LibraryCall call; (call = inFlight.pollFirst()) != null; ) {
            if (!call.resolved) {
                release(call);
                judge.letGo();
            }
        }
        failWaiting(ErrorClass.CONNECT_TIMEOUT);
    }

    private void failWaiting(ErrorClass errorClass) {
        while (!waiting.isEmpty()) {
            judge.failed(waiting.poll(), errorClass, System.nanoTime());
        }
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
        release(call);
        judge.failed(call.intendedStartNs, errorClass, System.nanoTime());
    }

    private void abortOutstanding() {
        phases.abort();
        receive();
        for (LibraryCall call; (call = inFlight.pollFirst()) != null; ) {
            if (!call.resolved) {
                fail(call, ErrorClass.RESPONSE_TIMEOUT);
            }
        }
        failWaiting(ErrorClass.RESPONSE_TIMEOUT);
    }

    private long nextWakeNs(long nowNs) {
        long wakeNs = driver.nextWakeNs(nowNs);
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
        return driver.concurrency();
    }
}
