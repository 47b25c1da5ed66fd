package dev.gauntlet.targets.vertx;

import dev.gauntlet.targets.DelayedCompletion;

/**
 * {@code vertx-core-async-queue}: the event-loop handler stores the request in
 * {@link DelayedCompletion#viaQueue()}; the completion thread hands the response back to the
 * request's event loop ({@code runOnContext}).
 */
public final class VertxCoreAsyncQueue extends DelayedVertxCore {
    public VertxCoreAsyncQueue() {
        super(DelayedCompletion::viaQueue);
    }
}
