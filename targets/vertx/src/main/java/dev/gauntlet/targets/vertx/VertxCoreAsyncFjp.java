package dev.gauntlet.targets.vertx;

import dev.gauntlet.targets.DelayedCompletion;

/**
 * {@code vertx-core-async-fjp}: the event-loop handler stores the request in
 * {@link DelayedCompletion#viaForkJoinPool()}; the completion thread hands the response back to the
 * request's event loop ({@code runOnContext}).
 */
public final class VertxCoreAsyncFjp extends DelayedVertxCore {
    public VertxCoreAsyncFjp() {
        super(DelayedCompletion::viaForkJoinPool);
    }
}
