package dev.gauntlet.targets.jetty;

import dev.gauntlet.targets.DelayedCompletion;
import dev.gauntlet.targets.HelloServer;
import dev.gauntlet.targets.RequestStats;
import dev.gauntlet.targets.TargetSettings;
import dev.gauntlet.targets.servlet.HelloServlet;

import java.util.function.Supplier;

/**
 * async-fjp, async-queue and async-timer with the ee10 servlet: it starts async mode and returns with
 * the request handed to the style's {@link DelayedCompletion}, whose completion thread writes the response
 * and calls {@code complete()} once the wait is over. Up to {@code asyncThreads} Jetty threads.
 */
abstract sealed class DelayedJettyServlet implements HelloServer permits JettyServletAsyncFjp, JettyServletAsyncQueue, JettyServletAsyncTimer {
    private final JettyServer server = new JettyServer();
    private final Supplier<DelayedCompletion> completions;
    private DelayedCompletion completion;

    DelayedJettyServlet(Supplier<DelayedCompletion> completions) {
        this.completions = completions;
    }

    @Override
    public final int start(TargetSettings settings, RequestStats stats) throws Exception {
        completion = completions.get();
        return server.start(settings, JettyServer.Threads.ASYNC, HelloServlet.delayed(stats, completion));
    }

    @Override
    public final void stop() throws Exception {
        server.stop();
        if (completion != null) {
            completion.close();
        }
    }
}
