package dev.gauntlet.targets.javalin;

import dev.gauntlet.targets.DelayedCompletion;
import dev.gauntlet.targets.HelloServer;
import dev.gauntlet.targets.WithStyleThreads;

import java.util.function.Supplier;

/** The Javalin targets, one factory per style, as the target catalogue names them ({@code JavalinTargets#handlerSync}). */
public final class JavalinTargets {
    private JavalinTargets() {
    }

    /** {@code javalin-handler-sync}: a {@code GET /hello} handler that sleeps out the wait on a Jetty worker (up to {@code workers}). */
    public static HelloServer handlerSync() {
        return new JavalinServer(JavalinServer.Threads.BLOCKING, JavalinServer.SLEEPING);
    }

    /** {@code javalin-handler-virtual}: the blocking handler of the sync style, every request on a new virtual thread. */
    public static HelloServer handlerVirtual() {
        return new JavalinServer(JavalinServer.Threads.VIRTUAL, JavalinServer.SLEEPING);
    }

    /**
     * {@code javalin-handler-async-fjp}: the handler returns an unfinished {@code ctx.future} with the request stored;
     * each 10 ms sweep hands them to a ForkJoinPool job, and a scheduler sets the result and completes the future.
     */
    public static HelloServer handlerAsyncFjp() {
        return delayed(DelayedCompletion::viaForkJoinPool);
    }

    /** {@code javalin-handler-async-queue}: as async-fjp, but each sweep puts the stored requests on a queue that 3 threads poll. */
    public static HelloServer handlerAsyncQueue() {
        return delayed(DelayedCompletion::viaQueue);
    }

    /** Up to {@code asyncThreads} Jetty threads. */
    private static HelloServer delayed(Supplier<DelayedCompletion> style) {
        return WithStyleThreads.completing(style,
                completion -> new JavalinServer(JavalinServer.Threads.ASYNC, JavalinServer.delayed(completion)));
    }
}
