package dev.gauntlet.targets;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * Counts of {@code /hello} requests, served on the admin port as {@code /stats}. Thread-safe;
 * {@link #begin()} and {@link #complete()} are called by any number of server threads.
 *
 * <p>{@code maxInFlight} answers the concurrency-level question: how many requests did the server
 * start processing at once?
 */
public final class RequestStats {
    private final LongAdder started = new LongAdder();
    private final LongAdder completed = new LongAdder();
    private final LongAdder errors = new LongAdder();
    private final AtomicLong inFlight = new AtomicLong();
    private final AtomicLong maxInFlight = new AtomicLong();

    /** A request has reached the handler. */
    public void begin() {
        started.increment();
        long now = inFlight.incrementAndGet();
        maxInFlight.accumulateAndGet(now, Math::max);
    }

    /** A request's response has been handed to the server. */
    public void complete() {
        completed.increment();
        inFlight.decrementAndGet();
    }

    /** A request that began could not be answered (the handler failed or the client went away). */
    public void fail() {
        errors.increment();
        inFlight.decrementAndGet();
    }

    /** Starts a new measurement: counts go to zero, the in-flight requests stay counted. */
    public void reset() {
        started.reset();
        completed.reset();
        errors.reset();
        maxInFlight.set(inFlight.get());
    }

    public Snapshot snapshot() {
        return new Snapshot(started.sum(), completed.sum(), inFlight.get(), maxInFlight.get(), errors.sum());
    }

    /** The counts at one moment, as the admin endpoint's JSON. */
    public record Snapshot(long started, long completed, long inFlight, long maxInFlight, long errors) {
        public String toJson() {
            return "{\"started\":" + started + ",\"completed\":" + completed + ",\"inFlight\":" + inFlight
                    + ",\"maxInFlight\":" + maxInFlight + ",\"errors\":" + errors + "}";
        }
    }
}
