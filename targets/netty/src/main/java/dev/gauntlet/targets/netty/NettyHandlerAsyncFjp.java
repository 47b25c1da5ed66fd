package dev.gauntlet.targets.netty;

import dev.gauntlet.targets.DelayedCompletion;

/**
 * {@code netty-handler-async-fjp}: the request is stored in {@link DelayedCompletion#viaForkJoinPool()};
 * the completion thread hands the response to the connection's event loop.
 */
public final class NettyHandlerAsyncFjp extends DelayedNettyHandler {
    public NettyHandlerAsyncFjp() {
        super(DelayedCompletion::viaForkJoinPool);
    }
}
