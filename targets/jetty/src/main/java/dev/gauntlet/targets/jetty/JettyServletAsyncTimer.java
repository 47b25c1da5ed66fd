package dev.gauntlet.targets.jetty;

import dev.gauntlet.targets.DelayedCompletion;

/**
 * {@code jetty-servlet-async-timer}: the servlet starts async mode and schedules the completion on one
 * timer thread, the wait counted from there; that thread writes the response and calls {@code complete()}.
 * Up to {@code asyncThreads} Jetty threads.
 */
public final class JettyServletAsyncTimer extends DelayedJettyServlet {
    public JettyServletAsyncTimer() {
        super(DelayedCompletion::viaTimer);
    }
}
