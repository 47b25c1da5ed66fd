package dev.gauntlet.targets.tomcat;

import dev.gauntlet.targets.DelayedCompletion;
import dev.gauntlet.targets.HelloServer;
import dev.gauntlet.targets.RequestStats;
import dev.gauntlet.targets.TargetSettings;
import dev.gauntlet.targets.servlet.HelloServlet;

import java.util.function.Supplier;

/**
 * async-fjp, async-queue and async-timer on Tomcat: the servlet starts async mode and hands the request
 * to the style's {@link DelayedCompletion}; the completion thread writes the response and calls
 * {@code AsyncContext.complete()}. Up to {@code asyncThreads} connector threads.
 */
abstract sealed class DelayedTomcatServlet implements HelloServer permits TomcatServletAsyncFjp, TomcatServletAsyncQueue, TomcatServletAsyncTimer {
    private final TomcatServer server = new TomcatServer();
    private final Supplier<DelayedCompletion> completions;
    private DelayedCompletion completion;

    DelayedTomcatServlet(Supplier<DelayedCompletion> completions) {
        this.completions = completions;
    }

    @Override
    public final int start(TargetSettings settings, RequestStats stats) throws Exception {
        completion = completions.get();
        return server.start(settings, TomcatServer.Threads.ASYNC, HelloServlet.delayed(stats, completion));
    }

    @Override
    public final void stop() throws Exception {
        server.stop();
        if (completion != null) {
            completion.close();
        }
    }
}
