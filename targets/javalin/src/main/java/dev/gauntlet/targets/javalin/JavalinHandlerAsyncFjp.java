package dev.gauntlet.targets.javalin;

import dev.gauntlet.targets.DelayedCompletion;

/**
 * {@code javalin-handler-async-fjp}: the handler returns an unfinished {@code ctx.future} with the
 * request stored; each 10 ms sweep hands the stored requests to a ForkJoinPool job, and a scheduler
 * sets the result and completes the future once the wait is over. Up to {@code asyncThreads} Jetty threads.
 */
public final class JavalinHandlerAsyncFjp extends DelayedJavalinHandler {
    public JavalinHandlerAsyncFjp() {
        super(DelayedCompletion::viaForkJoinPool);
    }
}
