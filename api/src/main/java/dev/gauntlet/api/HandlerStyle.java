package dev.gauntlet.api;

/** How a target's handler waits and completes a request; names as in the target catalogue. */
public enum HandlerStyle {
    /** Thread-blocking: {@code Thread.sleep} on a platform worker thread. */
    SYNC("sync"),
    /** The same blocking code on a virtual thread. */
    VIRTUAL("virtual"),
    /** Servlet {@code startAsync} + {@code dispatch} to the container executor, then sleep. */
    ASYNC_DISPATCH("async-dispatch"),
    /** Stored; a 10 ms sweep hands it to a ForkJoinPool, whose job starts the wait; a scheduler completes it after it. */
    ASYNC_FJP("async-fjp"),
    /** Stored; the 10 ms sweep queues the batch for 3 polling threads, which start the wait; completed as async-fjp. */
    ASYNC_QUEUE("async-queue"),
    /** Servlet {@code startAsync}; the handler schedules the completion on one timer thread, which writes and completes. */
    ASYNC_TIMER("async-timer"),
    /** Native non-blocking handler; the wait is a timer on the event loop. */
    EVENT_LOOP("event-loop"),
    /**
     * The request is handed to an actor (one per request, Erlang style); the wait is a timer
     * message to that actor, which then completes the response. No thread is held while waiting.
     */
    ACTOR("actor");

    private final String label;

    HandlerStyle(String label) {
        this.label = label;
    }

    @com.fasterxml.jackson.annotation.JsonValue
    public String label() {
        return label;
    }
}
