package dev.gauntlet.loadgen.transport;

import dev.gauntlet.api.ErrorClass;
import dev.gauntlet.loadgen.engine.AsyncClient;
import dev.gauntlet.loadgen.engine.ClientFailure;
import dev.gauntlet.loadgen.engine.ClientResponse;

import java.util.Queue;
import java.util.concurrent.locks.LockSupport;

/**
 * One request of a {@link LibraryEngine}, from its intended start to its outcome. The thread that
 * sends it stamps the send; whichever thread completes it (a request's own thread, a library's
 * event loop) stamps the end and posts it to the driver, which alone judges and records it.
 * As the async API's callback it needs no allocation of its own.
 */
final class LibraryCall implements AsyncClient.Callback {
    final long intendedStartNs;
    /** When the driver gives up on it, should the library's own timeouts not fire. */
    final long deadlineNs;
    private final Queue<LibraryCall> outcomes;
    private final Thread driver;
    // Written by the sending and the completing thread before the post; the queue orders them before the driver's reads.
    long sendNs;
    long endNs;
    ClientResponse response;
    ErrorClass error;
    /** The library's exception, when it gave one; its message goes into the error table. */
    Throwable failure;
    /** Driver only: judged, timed out or let go; a later outcome is ignored. */
    boolean resolved;

    LibraryCall(long intendedStartNs, long deadlineNs, Queue<LibraryCall> outcomes, Thread driver) {
        this.intendedStartNs = intendedStartNs;
        this.deadlineNs = deadlineNs;
        this.outcomes = outcomes;
        this.driver = driver;
    }

    /** The request leaves for the library now. */
    void sending() {
        sendNs = System.nanoTime();
    }

    @Override
    public void completed(ClientResponse response) {
        endNs = System.nanoTime();
        this.response = response;
        post();
    }

    @Override
    public void failed(Throwable failure) {
        this.failure = failure;
        failedAs(ClientFailure.classify(failure));
    }

    void failedAs(ErrorClass errorClass) {
        endNs = System.nanoTime();
        this.error = errorClass;
        post();
    }

    private void post() {
        outcomes.offer(this);
        LockSupport.unpark(driver);
    }
}
