package dev.gauntlet.loadgen.model;

/**
 * What a {@link LoadDriver} asks of the transport that carries its requests: the lean NIO
 * transport ({@link dev.gauntlet.loadgen.transport.LeanEngine}) or a client library's ({@link dev.gauntlet.loadgen.transport.LibraryEngine}). The driver decides
 * which request starts when and what its end counts as; the transport only carries a request to
 * the wire and its response back, telling the driver's {@link RequestJudge} how each ended.
 */
public interface Transport {

    /**
     * A request intended at {@code intendedStartNs}, already begun: sent at once on free capacity,
     * else it waits its turn with its intended start kept (or, the wait being full, is dropped).
     */
    void dispatch(long intendedStartNs, long nowNs);

    /** Whether a request may start now on new capacity (a new connection, a new library call). */
    boolean mayStartNew();

    /** Starts a request intended now, already begun, on new capacity. */
    void startNew(long nowNs);

    /** Takes in every outcome that has arrived, so that what the driver counts next is current. */
    void receive();

    /** Connections established now (a library, which does not say: its requests in flight). */
    int connected();

    /** Requests sent and not yet answered. */
    int inFlight();

    /** Connects that timed out and were tried again, as the driver asked ({@link LoadDriver#retriesConnectTimeouts}). */
    long connectRetries();

    /**
     * Lets go of every request: those in flight end uncounted, those not yet sent fail as connect
     * timeouts (counted only when measured); free capacity is closed.
     */
    void letGo();
}
