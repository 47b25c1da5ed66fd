package dev.gauntlet.targets.netty;

import dev.gauntlet.targets.DelayedCompletion;
import dev.gauntlet.targets.HelloServer;
import dev.gauntlet.targets.RequestStats;
import dev.gauntlet.targets.TargetSettings;

import javax.net.ssl.SSLException;
import java.util.function.Supplier;

/**
 * async-fjp and async-queue on Netty: the request is stored in the style's
 * {@link DelayedCompletion}; the completion thread hands the response to the connection's event loop.
 */
abstract sealed class DelayedNettyHandler implements HelloServer permits NettyHandlerAsyncFjp, NettyHandlerAsyncQueue {
    private final NettyServer server = new NettyServer();
    private final Supplier<DelayedCompletion> completions;
    private DelayedCompletion completion;

    DelayedNettyHandler(Supplier<DelayedCompletion> completions) {
        this.completions = completions;
    }

    @Override
    public final int start(TargetSettings settings, RequestStats stats) throws InterruptedException, SSLException {
        DelayedCompletion delayed = completions.get();
        completion = delayed;
        return server.start(settings, stats, () -> (ctx, waitMs, respond) -> delayed.submit(waitMs, respond));
    }

    @Override
    public final void stop() {
        server.stop();
        if (completion != null) {
            completion.close();
        }
    }
}
