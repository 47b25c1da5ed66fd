package dev.gauntlet.target.jetty;

import dev.gauntlet.target.DelayedCompletion;
import dev.gauntlet.target.HelloServer;
import dev.gauntlet.target.RequestStats;
import dev.gauntlet.target.TargetSettings;

/**
 * {@code jetty-handler-async-fjp}: a non-blocking core handler returns with the request and its
 * {@code Callback} stored; each 10 ms sweep hands the stored requests to a ForkJoinPool job, and a scheduler writes the response (completing the
 * {@code Callback}) once the wait is over. Up to {@code asyncThreads} Jetty threads.
 */
public final class JettyHandlerAsyncFjp implements HelloServer {
    private final JettyServer server = new JettyServer();
    private DelayedCompletion completion;

    @Override
    public int start(TargetSettings settings, RequestStats stats) throws Exception {
        completion = DelayedCompletion.viaForkJoinPool();
        return server.start(settings, JettyServer.Threads.ASYNC, HelloHandler.delayed(stats, completion));
    }

    @Override
    public void stop() throws Exception {
        server.stop();
        if (completion != null) {
            completion.close();
        }
    }
}
