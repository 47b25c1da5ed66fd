package dev.gauntlet.targets.vertx;

import dev.gauntlet.targets.HelloContract;
import dev.gauntlet.targets.HelloServer;
import dev.gauntlet.targets.RequestStats;
import dev.gauntlet.targets.TargetSettings;
import io.vertx.core.ThreadingModel;

/**
 * {@code vertx-core-sync}: the event-loop handler sleeps in {@code executeBlocking} on the Vert.x
 * worker pool ({@code workers} platform threads) and responds when the blocking call completes,
 * back on the event loop.
 *
 * <p>Unordered, since ordered blocking calls of one context would run one at a time. The worker
 * pool is a fixed-size pool: it starts a new thread per blocking call until it has {@code workers}.
 */
public final class VertxCoreSync implements HelloServer {
    private final VertxServer server = new VertxServer();

    @Override
    public int start(TargetSettings settings, RequestStats stats) throws Exception {
        return server.start(settings, stats, ThreadingModel.EVENT_LOOP, (context, waitMs, respond) ->
                context.executeBlocking(() -> {
                    HelloContract.sleep(waitMs);
                    return null;
                }, false).onComplete(done -> respond.run()));
    }

    @Override
    public void stop() throws Exception {
        server.stop();
    }
}
