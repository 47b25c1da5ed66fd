package dev.gauntlet.target.javalin;

import dev.gauntlet.target.DelayedCompletion;
import dev.gauntlet.target.HelloServer;
import dev.gauntlet.target.RequestStats;
import dev.gauntlet.target.TargetSettings;

/**
 * {@code javalin-handler-async-queue}: the handler returns an unfinished {@code ctx.future} with the
 * request stored; each 10 ms sweep puts the stored requests on a queue that 3 threads poll, and a
 * scheduler sets the result and completes the future once the wait is over. Up to {@code asyncThreads} Jetty threads.
 */
public final class JavalinHandlerAsyncQueue implements HelloServer {
    private DelayedCompletion completion;
    private JavalinServer server;

    @Override
    public int start(TargetSettings settings, RequestStats stats) {
        completion = DelayedCompletion.viaQueue();
        server = JavalinServer.delayed(completion);
        return server.start(settings, stats);
    }

    @Override
    public void stop() {
        if (server != null) {
            server.stop();
        }
        if (completion != null) {
            completion.close();
        }
    }
}
