package dev.gauntlet.targets.netty;

import dev.gauntlet.targets.DelayedCompletion;
import dev.gauntlet.targets.HelloContract;
import dev.gauntlet.targets.HelloServer;
import dev.gauntlet.targets.PlatformWorkers;
import dev.gauntlet.targets.WithStyleThreads;

import java.util.concurrent.Executor;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * The Netty targets, one factory per style, as the target catalogue names them ({@code NettyTargets#handlerSync}):
 * where a request's wait passes, the response always written on its connection's event loop.
 */
public final class NettyTargets {
    private NettyTargets() {
    }

    /**
     * {@code netty-event-loop}: the request is handled on its connection's event loop and the wait is a timer on that
     * same loop ({@code ctx.executor().schedule}); no other threads.
     */
    public static HelloServer eventLoop() {
        return new NettyServer(() -> (ctx, waitMs, respond) -> {
            if (waitMs == 0) {
                respond.run();
            } else {
                ctx.executor().schedule(respond, waitMs, TimeUnit.MILLISECONDS);
            }
        });
    }

    /**
     * {@code netty-handler-sync}: each request sleeps on a platform worker of a pool of up to {@code workers} threads
     * that reuses idle workers ({@link PlatformWorkers}).
     *
     * <p>Not Netty's {@code DefaultEventExecutorGroup}: it pins each connection to one executor, whose thread starts on
     * the event loop at the connection's first request and never ends, so every new connection costs a thread start
     * until all {@code workers} exist, however few requests wait at once.
     */
    public static HelloServer handlerSync() {
        return WithStyleThreads.executing(settings -> PlatformWorkers.upTo(settings.workers(), "netty-worker-"),
                NettyTargets::sleepingOn);
    }

    /**
     * {@code netty-handler-virtual}: each request sleeps on a new virtual thread (Netty has no virtual-thread support
     * of its own, so a virtual-thread-per-task executor stands in).
     */
    public static HelloServer handlerVirtual() {
        return WithStyleThreads.executing(settings -> Executors.newVirtualThreadPerTaskExecutor(), NettyTargets::sleepingOn);
    }

    /** {@code netty-handler-async-fjp}: the request is stored in {@link DelayedCompletion#viaForkJoinPool()}. */
    public static HelloServer handlerAsyncFjp() {
        return delayed(DelayedCompletion::viaForkJoinPool);
    }

    /** {@code netty-handler-async-queue}: the request is stored in {@link DelayedCompletion#viaQueue()}. */
    public static HelloServer handlerAsyncQueue() {
        return delayed(DelayedCompletion::viaQueue);
    }

    private static HelloServer sleepingOn(Executor threads) {
        return new NettyServer(() -> (ctx, waitMs, respond) -> threads.execute(() -> HelloContract.sleepThen(waitMs, respond)));
    }

    private static HelloServer delayed(Supplier<DelayedCompletion> style) {
        return WithStyleThreads.completing(style,
                completion -> new NettyServer(() -> (ctx, waitMs, respond) -> completion.submit(waitMs, respond)));
    }
}
