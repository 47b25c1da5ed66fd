package dev.gauntlet.target.jetty;

import dev.gauntlet.target.DelayedCompletion;
import dev.gauntlet.target.HelloServer;
import dev.gauntlet.target.RequestStats;
import dev.gauntlet.target.TargetSettings;

/**
 * {@code jetty-handler-async-queue}: a non-blocking core handler returns with the request and its
 * {@code Callback} stored; each 10 ms sweep puts the stored requests on a queue that 3 threads poll, and a scheduler writes the response (completing the
 * {@code Callback}) once the wait is over. Up to {@code asyncThreads} Jetty threads.
 */
public final class JettyHandlerAsyncQueue implements HelloServer {
    private final JettyServer server = new JettyServer();
    private DelayedCompletion completion;

    @Override
    public int start(TargetSettings settings, RequestStats stats) throws Exception {
        completion = DelayedCompletion.viaQueue();
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
