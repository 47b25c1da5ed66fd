package dev.gauntlet.targets.undertow;

import dev.gauntlet.targets.DelayedCompletion;
import dev.gauntlet.targets.HelloContract;
import dev.gauntlet.targets.HelloServer;
import dev.gauntlet.targets.WithStyleThreads;
import dev.gauntlet.targets.servlet.HelloServlet;
import io.undertow.util.SameThreadExecutor;

import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import static dev.gauntlet.targets.undertow.UndertowServer.Threads.ASYNC;
import static dev.gauntlet.targets.undertow.UndertowServer.Threads.BLOCKING;

/**
 * The Undertow targets, one factory per style, as the target catalogue names them ({@code UndertowTargets#handlerSync}):
 * how the XNIO threads are split ({@link UndertowServer.Threads}) and where the hello handler or servlet waits.
 */
public final class UndertowTargets {
    private UndertowTargets() {
    }

    /**
     * {@code undertow-handler-sync}: the exchange is dispatched from the I/O thread to the XNIO worker pool first, and
     * the hello handler sleeps out the wait there. Dispatched before the handler, not from it, so a request counts as
     * started ({@code stats.begin()}) only once a worker runs it: requests queued for a busy pool are not yet being
     * processed, and the concurrency case must see the pool's size.
     */
    public static HelloServer handlerSync() {
        return new UndertowHandlerServer(BLOCKING, stats -> {
            HelloHandler onWorker = new HelloHandler(stats, (exchange, waitMs, respond) -> HelloContract.sleepThen(waitMs, respond));
            return exchange -> exchange.dispatch(onWorker);
        });
    }

    /**
     * {@code undertow-handler-virtual}: the handler dispatches the exchange from the I/O thread to a
     * virtual-thread-per-task executor, whose thread sleeps out the wait. The XNIO worker pool is not used.
     */
    public static HelloServer handlerVirtual() {
        return WithStyleThreads.executing(settings -> Executors.newVirtualThreadPerTaskExecutor(),
                virtualThreads -> new UndertowHandlerServer(ASYNC, stats -> new HelloHandler(stats,
                        (exchange, waitMs, respond) -> exchange.dispatch(virtualThreads, () -> HelloContract.sleepThen(waitMs, respond)))));
    }

    /**
     * {@code undertow-handler-event-loop}: the handler never leaves the XNIO I/O thread; the wait is a timer on that
     * thread ({@code XnioIoThread.executeAfter}). {@code SameThreadExecutor} only keeps the exchange open after the
     * handler returns.
     */
    public static HelloServer handlerEventLoop() {
        return new UndertowHandlerServer(ASYNC, stats -> new HelloHandler(stats,
                (exchange, waitMs, respond) -> exchange.dispatch(SameThreadExecutor.INSTANCE,
                        () -> exchange.getIoThread().executeAfter(respond, waitMs, TimeUnit.MILLISECONDS))));
    }

    /**
     * {@code undertow-handler-async-fjp}: the exchange is dispatched to {@code SameThreadExecutor}, which only keeps it
     * open after the handler returns, and stored in {@link DelayedCompletion#viaForkJoinPool()}; the completion thread
     * sends the response with the exchange's non-blocking sender.
     */
    public static HelloServer handlerAsyncFjp() {
        return handlerDelayed(DelayedCompletion::viaForkJoinPool);
    }

    /** {@code undertow-handler-async-queue}: as async-fjp, stored in {@link DelayedCompletion#viaQueue()}. */
    public static HelloServer handlerAsyncQueue() {
        return handlerDelayed(DelayedCompletion::viaQueue);
    }

    /** {@code undertow-servlet-sync}: the servlet sleeps out the wait on its XNIO worker thread. */
    public static HelloServer servletSync() {
        return new UndertowServletServer(BLOCKING, null, HelloServlet::sleeping);
    }

    /**
     * {@code undertow-servlet-virtual}: the deployment runs every request on a virtual-thread-per-task executor
     * ({@code DeploymentInfo.setExecutor}), where the servlet sleeps out the wait; the XNIO worker pool is not used.
     */
    public static HelloServer servletVirtual() {
        return WithStyleThreads.executing(settings -> Executors.newVirtualThreadPerTaskExecutor(),
                virtualThreads -> new UndertowServletServer(ASYNC, virtualThreads, HelloServlet::sleeping));
    }

    /**
     * {@code undertow-servlet-async-dispatch}: the servlet starts async mode and hands the request to the container
     * executor ({@code AsyncContext.start}: the XNIO worker pool), where it sleeps out the wait.
     */
    public static HelloServer servletAsyncDispatch() {
        return new UndertowServletServer(BLOCKING, null, HelloServlet::dispatching);
    }

    /**
     * {@code undertow-servlet-async-fjp}: the servlet starts async mode and stores the request in
     * {@link DelayedCompletion#viaForkJoinPool()}; the completion thread writes the response and calls {@code complete()}.
     */
    public static HelloServer servletAsyncFjp() {
        return servletDelayed(DelayedCompletion::viaForkJoinPool);
    }

    /** {@code undertow-servlet-async-queue}: as async-fjp, stored in {@link DelayedCompletion#viaQueue()}. */
    public static HelloServer servletAsyncQueue() {
        return servletDelayed(DelayedCompletion::viaQueue);
    }

    /**
     * {@code undertow-servlet-async-timer}: the servlet starts async mode and schedules the completion on
     * {@link DelayedCompletion#viaTimer()}'s one thread, the wait counted from there.
     */
    public static HelloServer servletAsyncTimer() {
        return servletDelayed(DelayedCompletion::viaTimer);
    }

    private static HelloServer handlerDelayed(Supplier<DelayedCompletion> style) {
        return WithStyleThreads.completing(style, completion -> new UndertowHandlerServer(ASYNC, stats -> new HelloHandler(stats,
                (exchange, waitMs, respond) -> exchange.dispatch(SameThreadExecutor.INSTANCE,
                        () -> completion.submit(waitMs, respond)))));
    }

    private static HelloServer servletDelayed(Supplier<DelayedCompletion> style) {
        return WithStyleThreads.completing(style, completion -> new UndertowServletServer(ASYNC, null,
                stats -> HelloServlet.delayed(stats, completion)));
    }
}
