package dev.gauntlet.target.netty;

import dev.gauntlet.target.DelayedCompletion;
import dev.gauntlet.target.HelloServer;
import dev.gauntlet.target.RequestStats;
import dev.gauntlet.target.TargetSettings;

/**
 * {@code netty-handler-async-fjp}: the request is stored in {@link DelayedCompletion#viaForkJoinPool()};
 * the completion thread hands the response to the connection's event loop.
 */
public final class NettyHandlerAsyncFjp implements HelloServer {
    private final NettyServer server = new NettyServer();
    private final DelayedCompletion completion = DelayedCompletion.viaForkJoinPool();

    @Override
    public int start(TargetSettings settings, RequestStats stats) throws InterruptedException {
        return server.start(settings, stats, () -> (ctx, waitMs, respond) -> completion.submit(waitMs, respond));
    }

    @Override
    public void stop() {
        server.stop();
        completion.close();
    }
}
