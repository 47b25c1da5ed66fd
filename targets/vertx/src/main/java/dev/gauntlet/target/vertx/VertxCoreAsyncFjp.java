package dev.gauntlet.target.vertx;

import dev.gauntlet.target.DelayedCompletion;
import dev.gauntlet.target.HelloServer;
import dev.gauntlet.target.RequestStats;
import dev.gauntlet.target.TargetSettings;
import io.vertx.core.ThreadingModel;

/**
 * {@code vertx-core-async-fjp}: the event-loop handler stores the request in
 * {@link DelayedCompletion#viaForkJoinPool()}; the completion thread hands the response back to the
 * request's event loop ({@code runOnContext}).
 */
public final class VertxCoreAsyncFjp implements HelloServer {
    private final VertxServer server = new VertxServer();
    private final DelayedCompletion completion = DelayedCompletion.viaForkJoinPool();

    @Override
    public int start(TargetSettings settings, RequestStats stats) throws Exception {
        return server.start(settings, stats, ThreadingModel.EVENT_LOOP, (context, waitMs, respond) ->
                completion.submit(waitMs, () -> context.runOnContext(v -> respond.run())));
    }

    @Override
    public void stop() throws Exception {
        server.stop();
        completion.close();
    }
}
