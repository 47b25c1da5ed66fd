package dev.gauntlet.targets.javalin;

import dev.gauntlet.targets.DelayedCompletion;

/**
 * {@code javalin-handler-async-queue}: the handler returns an unfinished {@code ctx.future} with the
 * request stored; each 10 ms sweep puts the stored requests on a queue that 3 threads poll, and a
 * scheduler sets the result and completes the future once the wait is over. Up to {@code asyncThreads} Jetty threads.
 */
public final class JavalinHandlerAsyncQueue extends DelayedJavalinHandler {
    public JavalinHandlerAsyncQueue() {
        super(DelayedCompletion::viaQueue);
    }
}
