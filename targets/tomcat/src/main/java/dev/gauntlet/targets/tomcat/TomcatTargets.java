package dev.gauntlet.targets.tomcat;

import dev.gauntlet.targets.DelayedCompletion;
import dev.gauntlet.targets.HelloServer;
import dev.gauntlet.targets.WithStyleThreads;
import dev.gauntlet.targets.servlet.HelloServlet;

import java.util.function.Supplier;

/**
 * The Tomcat targets, one factory per style, as the target catalogue names them ({@code TomcatTargets#servletSync}):
 * the connector's executor ({@link TomcatServer.Threads}) and how the servlet lets the wait pass.
 */
public final class TomcatTargets {
    private TomcatTargets() {
    }

    /** {@code tomcat-servlet-sync}: the servlet sleeps out the wait on a connector worker thread (up to {@code workers}). */
    public static HelloServer servletSync() {
        return new TomcatServer(TomcatServer.Threads.BLOCKING, HelloServlet::sleeping);
    }

    /** {@code tomcat-servlet-virtual}: the connector runs every request on a virtual thread of its own ({@code useVirtualThreads}). */
    public static HelloServer servletVirtual() {
        return new TomcatServer(TomcatServer.Threads.VIRTUAL, HelloServlet::sleeping);
    }

    /**
     * {@code tomcat-servlet-async-dispatch}: the servlet starts async mode and hands the request to the container
     * executor ({@code AsyncContext.start}: the connector's workers, up to {@code workers}), where it sleeps out the wait.
     */
    public static HelloServer servletAsyncDispatch() {
        return new TomcatServer(TomcatServer.Threads.BLOCKING, HelloServlet::dispatching);
    }

    /**
     * {@code tomcat-servlet-async-fjp}: the servlet starts async mode and stores the request in
     * {@link DelayedCompletion#viaForkJoinPool()}; the completion thread writes the response and calls {@code complete()}.
     */
    public static HelloServer servletAsyncFjp() {
        return delayed(DelayedCompletion::viaForkJoinPool);
    }

    /** {@code tomcat-servlet-async-queue}: as async-fjp, stored in {@link DelayedCompletion#viaQueue()}. */
    public static HelloServer servletAsyncQueue() {
        return delayed(DelayedCompletion::viaQueue);
    }

    /**
     * {@code tomcat-servlet-async-timer}: the servlet starts async mode and schedules the completion on
     * {@link DelayedCompletion#viaTimer()}'s one thread, the wait counted from there.
     */
    public static HelloServer servletAsyncTimer() {
        return delayed(DelayedCompletion::viaTimer);
    }

    /** Up to {@code asyncThreads} connector threads. */
    private static HelloServer delayed(Supplier<DelayedCompletion> style) {
        return WithStyleThreads.completing(style, completion -> new TomcatServer(TomcatServer.Threads.ASYNC,
                stats -> HelloServlet.delayed(stats, completion)));
    }
}
