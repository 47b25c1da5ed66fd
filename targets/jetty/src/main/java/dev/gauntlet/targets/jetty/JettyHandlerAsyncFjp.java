package dev.gauntlet.targets.jetty;

import dev.gauntlet.targets.DelayedCompletion;

/**
 * {@code jetty-handler-async-fjp}: a non-blocking core handler returns with the request and its
 * {@code Callback} stored; each 10 ms sweep hands the stored requests to a ForkJoinPool job, and a scheduler writes the response (completing the
 * {@code Callback}) once the wait is over. Up to {@code asyncThreads} Jetty threads.
 */
public final class JettyHandlerAsyncFjp extends DelayedJettyHandler {
    public JettyHandlerAsyncFjp() {
        super(DelayedCompletion::viaForkJoinPool);
    }
}
