package dev.gauntlet.target.jetty;

import dev.gauntlet.target.DelayedCompletion;
import dev.gauntlet.target.HelloServer;
import dev.gauntlet.target.RequestStats;
import dev.gauntlet.target.TargetSettings;

/**
 * {@code jetty-servlet-async-queue}: the servlet starts async mode and returns with the request stored;
 * each 10 ms sweep puts the stored requests on a queue that 3 threads poll, and a scheduler writes
 * the response and calls {@code complete()} once the wait is over. Up to {@code asyncThreads} Jetty threads.
 */
public final class JettyServletAsyncQueue implements HelloServer {
    private final JettyServer server = new JettyServer();
    private DelayedCompletion completion;

    @Override
    public int start(TargetSettings settings, RequestStats stats) throws Exception {
        completion = DelayedCompletion.viaQueue();
        return server.start(settings, JettyServer.Threads.ASYNC, HelloServlet.delayed(stats, completion));
    }

    @Override
    public void stop() throws Exception {
        server.stop();
        if (completion != null) {
            completion.close();
        }
    }
}
