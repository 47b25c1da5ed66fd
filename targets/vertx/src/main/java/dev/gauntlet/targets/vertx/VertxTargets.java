package dev.gauntlet.targets.vertx;

import dev.gauntlet.targets.DelayedCompletion;
import dev.gauntlet.targets.HelloContract;
import dev.gauntlet.targets.HelloServer;
import dev.gauntlet.targets.WithStyleThreads;
import io.vertx.core.ThreadingModel;

import java.util.function.Supplier;

/**
 * The Vert.x core targets, one factory per style, as the target catalogue names them ({@code VertxTargets#coreSync}):
 * the verticles' threading model and where a request's wait passes.
 */
public final class VertxTargets {
    private VertxTargets() {
    }

    /** {@code vertx-core-event-loop}: the wait is a Vert.x timer ({@code vertx.setTimer}) on the request's event loop. */
    public static HelloServer coreEventLoop() {
        return new VertxServer(ThreadingModel.EVENT_LOOP, (context, waitMs, respond) -> {
            if (waitMs == 0) {
                respond.run();
            } else {
                context.owner().setTimer(waitMs, timerId -> respond.run());
            }
        });
    }

    /**
     * {@code vertx-core-sync}: the event-loop handler sleeps in {@code executeBlocking} on the Vert.x worker pool
     * ({@code workers} platform threads) and responds when the blocking call completes, back on the event loop.
     *
     * <p>Unordered, since ordered blocking calls of one context would run one at a time. The worker pool is a
     * fixed-size pool: it starts a new thread per blocking call until it has {@code workers}.
     */
    public static HelloServer coreSync() {
        return new VertxServer(ThreadingModel.EVENT_LOOP, (context, waitMs, respond) ->
                context.executeBlocking(() -> {
                    HelloContract.sleep(waitMs);
                    return null;
                }, false).onComplete(done -> respond.run()));
    }

    /**
     * {@code vertx-core-virtual}: the verticles are deployed with {@link ThreadingModel#VIRTUAL_THREAD}, so every
     * request is handled on a virtual thread, which blocks on a Vert.x timer with {@code Future.await}.
     *
     * <p>Not {@code Thread.sleep}: a virtual-thread context runs its tasks one at a time and lets the next one in only
     * while a task is parked in {@code await}, so a sleeping handler would hold up every other request of its verticle.
     */
    public static HelloServer coreVirtual() {
        return new VertxServer(ThreadingModel.VIRTUAL_THREAD, (context, waitMs, respond) -> {
            if (waitMs > 0) {
                context.owner().timer(waitMs).await();
            }
            respond.run();
        });
    }

    /**
     * {@code vertx-core-async-fjp}: the event-loop handler stores the request in
     * {@link DelayedCompletion#viaForkJoinPool()}; the completion thread hands the response back to the request's
     * event loop ({@code runOnContext}).
     */
    public static HelloServer coreAsyncFjp() {
        return delayed(DelayedCompletion::viaForkJoinPool);
    }

    /** {@code vertx-core-async-queue}: as async-fjp, stored in {@link DelayedCompletion#viaQueue()}. */
    public static HelloServer coreAsyncQueue() {
        return delayed(DelayedCompletion::viaQueue);
    }

    private static HelloServer delayed(Supplier<DelayedCompletion> style) {
        return WithStyleThreads.completing(style, completion -> new VertxServer(ThreadingModel.EVENT_LOOP,
                (context, waitMs, respond) -> completion.submit(waitMs, () -> context.runOnContext(v -> respond.run()))));
    }
}
