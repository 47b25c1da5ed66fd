package dev.gauntlet.targets.jetty;

import dev.gauntlet.targets.DelayedCompletion;

/**
 * {@code jetty-servlet-async-queue}: the servlet starts async mode and returns with the request stored;
 * each 10 ms sweep puts the stored requests on a queue that 3 threads poll, and a scheduler writes
 * the response and calls {@code complete()} once the wait is over. Up to {@code asyncThreads} Jetty threads.
 */
public final class JettyServletAsyncQueue extends DelayedJettyServlet {
    public JettyServletAsyncQueue() {
        super(DelayedCompletion::viaQueue);
    }
}
