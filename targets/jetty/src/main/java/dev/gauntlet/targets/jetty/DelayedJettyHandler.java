package dev.gauntlet.targets.jetty;

import dev.gauntlet.targets.DelayedCompletion;
import dev.gauntlet.targets.HelloServer;
import dev.gauntlet.targets.RequestStats;
import dev.gauntlet.targets.TargetSettings;

import java.util.function.Supplier;

/**
 * async-fjp and async-queue with a core handler: it returns with the request and its
 * {@code Callback} stored in the style's {@link DelayedCompletion}, whose completion thread writes the
 * response (completing the {@code Callback}) once the wait is over. Up to {@code asyncThreads} Jetty threads.
 */
abstract sealed class DelayedJettyHandler implements HelloServer permits JettyHandlerAsyncFjp, JettyHandlerAsyncQueue {
    private final JettyServer server = new JettyServer();
    private final Supplier<DelayedCompletion> completions;
    private DelayedCompletion completion;

    DelayedJettyHandler(Supplier<DelayedCompletion> completions) {
        this.completions = completions;
    }

    @Override
    public final int start(TargetSettings settings, RequestStats stats) throws Exception {
        completion = completions.get();
        return server.start(settings, JettyServer.Threads.ASYNC, HelloHandler.delayed(stats, completion));
    }

    @Override
    public final void stop() throws Exception {
        server.stop();
        if (completion != null) {
            completion.close();
        }
    }
}
