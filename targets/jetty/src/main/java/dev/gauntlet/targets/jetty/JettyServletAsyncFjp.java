package dev.gauntlet.targets.jetty;

import dev.gauntlet.targets.DelayedCompletion;

/**
 * {@code jetty-servlet-async-fjp}: the servlet starts async mode and returns with the request stored;
 * each 10 ms sweep hands the stored requests to a ForkJoinPool job, and a scheduler writes the
 * response and calls {@code complete()} once the wait is over. Up to {@code asyncThreads} Jetty threads.
 */
public final class JettyServletAsyncFjp extends DelayedJettyServlet {
    public JettyServletAsyncFjp() {
        super(DelayedCompletion::viaForkJoinPool);
    }
}
