package dev.gauntlet.loadgen.transport;

/**
 * The requests waiting for a connection, oldest first: each one's intended start, and when the loop queued it (what
 * an adaptive pool grows by). Bounded ({@link Engine#PENDING_PER_PROCESS}): a request
 * refused while it is full is the caller's to count as dropped. Single-threaded: the engine's loop owns it.
 *
 * <pre>{@code
 * if (!waiting.offer(intendedStartNs, nowNs)) judge.dropped(intendedStartNs);
 * send(connection, waiting.poll());
 * }</pre>
 */
final class WaitingRequests {
    private final LongQueue intendedStartsNs;
    private final LongQueue queuedAtNs;

    /** @param capacity requests waiting at once at most */
    WaitingRequests(int capacity) {
        this.intendedStartsNs = new LongQueue(capacity);
        this.queuedAtNs = new LongQueue(capacity);
    }

    /** Queues a request intended at {@code intendedStartNs}; false, queueing nothing, when full. */
    boolean offer(long intendedStartNs, long nowNs) {
        if (!intendedStartsNs.offer(intendedStartNs)) {
            return false;
        }
        queuedAtNs.offer(nowNs);
        return true;
    }

    /** The oldest waiting request's intended start, taken off the queue. */
    long poll() {
        queuedAtNs.poll();
        return intendedStartsNs.poll();
    }

    /** When the oldest waiting request was queued. */
    long oldestQueuedAtNs() {
        return queuedAtNs.peek();
    }

    boolean isEmpty() {
        return intendedStartsNs.isEmpty();
    }

    int size() {
        return intendedStartsNs.size();
    }
}
