package dev.gauntlet.targets.netty;

import dev.gauntlet.targets.DelayedCompletion;

/**
 * {@code netty-handler-async-queue}: the request is stored in {@link DelayedCompletion#viaQueue()};
 * the completion thread hands the response to the connection's event loop.
 */
public final class NettyHandlerAsyncQueue extends DelayedNettyHandler {
    public NettyHandlerAsyncQueue() {
        super(DelayedCompletion::viaQueue);
    }
}
