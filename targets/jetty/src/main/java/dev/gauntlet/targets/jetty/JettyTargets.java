package dev.gauntlet.targets.jetty;

import dev.gauntlet.targets.DelayedCompletion;
import dev.gauntlet.targets.HelloServer;
import dev.gauntlet.targets.WithStyleThreads;
import dev.gauntlet.targets.servlet.HelloServlet;

import java.util.function.Supplier;

import static dev.gauntlet.targets.jetty.JettyServer.servlet;

/**
 * The Jetty targets, one factory per style, as the target catalogue names them ({@code JettyTargets#handlerSync}).
 * A style is a thread pool ({@link JettyServer.Threads}) and how the core handler or the servlet lets the wait pass.
 */
public final class JettyTargets {
    private JettyTargets() {
    }

    /** {@code jetty-handler-sync}: a core handler that sleeps out the wait on a {@code QueuedThreadPool} worker (up to {@code workers}). */
    public static HelloServer handlerSync() {
        return new JettyServer(JettyServer.Threads.BLOCKING, HelloHandler::sleeping);
    }

    /** {@code jetty-handler-virtual}: the blocking core handler of the sync style, run by Jetty on virtual threads. */
    public static HelloServer handlerVirtual() {
        return new JettyServer(JettyServer.Threads.VIRTUAL, HelloHandler::sleeping);
    }

    /**
     * {@code jetty-handler-async-fjp}: a non-blocking core handler returns with the request and its {@code Callback}
     * stored; each 10 ms sweep hands them to a ForkJoinPool job, and a scheduler writes the response (completing the
     * {@code Callback}) once the wait is over.
     */
    public static HelloServer handlerAsyncFjp() {
        return handlerDelayed(DelayedCompletion::viaForkJoinPool);
    }

    /** {@code jetty-handler-async-queue}: as async-fjp, but each sweep puts the stored requests on a queue that 3 threads poll. */
    public static HelloServer handlerAsyncQueue() {
        return handlerDelayed(DelayedCompletion::viaQueue);
    }

    /** {@code jetty-servlet-sync}: an ee10 servlet that sleeps out the wait on a {@code QueuedThreadPool} worker (up to {@code workers}). */
    public static HelloServer servletSync() {
        return new JettyServer(JettyServer.Threads.BLOCKING, servlet(HelloServlet::sleeping));
    }

    /** {@code jetty-servlet-virtual}: the blocking servlet of the sync style, run by Jetty on virtual threads. */
    public static HelloServer servletVirtual() {
        return new JettyServer(JettyServer.Threads.VIRTUAL, servlet(HelloServlet::sleeping));
    }

    /**
     * {@code jetty-servlet-async-dispatch}: the servlet starts async mode and hands the request to the container
     * ({@code AsyncContext.start}: the {@code QueuedThreadPool}, up to {@code workers}), where it sleeps out the wait.
     */
    public static HelloServer servletAsyncDispatch() {
        return new JettyServer(JettyServer.Threads.BLOCKING, servlet(HelloServlet::dispatching));
    }

    /**
     * {@code jetty-servlet-async-fjp}: the servlet starts async mode and returns with the request stored; each 10 ms
     * sweep hands them to a ForkJoinPool job, and a scheduler writes the response and calls {@code complete()}.
     */
    public static HelloServer servletAsyncFjp() {
        return servletDelayed(DelayedCompletion::viaForkJoinPool);
    }

    /** {@code jetty-servlet-async-queue}: as async-fjp, but each sweep puts the stored requests on a queue that 3 threads poll. */
    public static HelloServer servletAsyncQueue() {
        return servletDelayed(DelayedCompletion::viaQueue);
    }

    /**
     * {@code jetty-servlet-async-timer}: the servlet starts async mode and schedules the completion on one timer
     * thread, the wait counted from there; that thread writes the response and calls {@code complete()}.
     */
    public static HelloServer servletAsyncTimer() {
        return servletDelayed(DelayedCompletion::viaTimer);
    }

    /** The delayed handler styles: Jetty's native asynchrony, up to {@code asyncThreads} Jetty threads. */
    private static HelloServer handlerDelayed(Supplier<DelayedCompletion> style) {
        return WithStyleThreads.completing(style, completion -> new JettyServer(JettyServer.Threads.ASYNC,
                stats -> HelloHandler.delayed(stats, completion)));
    }

    /** The delayed servlet styles: {@code startAsync}, up to {@code asyncThreads} Jetty threads. */
    private static HelloServer servletDelayed(Supplier<DelayedCompletion> style) {
        return WithStyleThreads.completing(style, completion -> new JettyServer(JettyServer.Threads.ASYNC,
                servlet(stats -> HelloServlet.delayed(stats, completion))));
    }
}
