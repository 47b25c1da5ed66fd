package dev.gauntlet.loadgen.transport;

import dev.gauntlet.api.RunSummary;
import dev.gauntlet.loadgen.model.Phases;

/**
 * How the requests of one engine thread are sent and completed: the built-in {@link LeanEngine},
 * or a client library's {@link LibraryEngine}. Both run the same {@link Phases} (schedule,
 * phases, what is measured) and write into the same recorder and counters; they differ in how a
 * request reaches the wire.
 */
public interface Engine {
    /**
     * Open-loop requests one process holds at most while they wait for a connection, shared evenly by
     * its engines: what falls due while they are full is dropped, counted, and makes the run
     * generator-limited, instead of the heap filling with requests that will never be sent. 2^20
     * intended starts and their wait stamps take 16 MB (32 MB while the ring doubles): ten seconds of
     * a 100k/s schedule, more than a run holds unless its rate outruns what the process can send.
     */
    int PENDING_PER_PROCESS = 1 << 20;

    /** Runs the whole load on the calling thread; an interrupt ends it as the hard cap does. */
    void run();

    Phases phases();

    /** Connections open at once at most during the run (a library engine: requests in flight, its upper bound). */
    int connectionsPeak();

    /** Connections (a library engine: requests in flight) this engine may have at most. */
    int connectionsLimit();

    /**
     * The time its thread spent polling for responses that had not come yet, since it was made: on a CPU, but not the
     * load's work, so left out of the engine's demand. 0 for an engine that sleeps while it waits.
     */
    default long pollingNs() {
        return 0;
    }

    /** An HTTP/3 load's QUIC figures, once the run is over; null for the other protocols. */
    default RunSummary.Quic quic() {
        return null;
    }

    /** The max-concurrency figures; null for the other models. */
    RunSummary.Concurrency concurrency();
}
