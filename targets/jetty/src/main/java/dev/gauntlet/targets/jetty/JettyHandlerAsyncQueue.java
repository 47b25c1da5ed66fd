package dev.gauntlet.targets.jetty;

import dev.gauntlet.targets.DelayedCompletion;

/**
 * {@code jetty-handler-async-queue}: a non-blocking core handler returns with the request and its
 * {@code Callback} stored; each 10 ms sweep puts the stored requests on a queue that 3 threads poll, and a scheduler writes the response (completing the
 * {@code Callback}) once the wait is over. Up to {@code asyncThreads} Jetty threads.
 */
public final class JettyHandlerAsyncQueue extends DelayedJettyHandler {
    public JettyHandlerAsyncQueue() {
        super(DelayedCompletion::viaQueue);
    }
}
