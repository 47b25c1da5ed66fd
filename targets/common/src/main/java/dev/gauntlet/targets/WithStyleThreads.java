package dev.gauntlet.targets;

import dev.gauntlet.api.Protocol;

import java.util.concurrent.ExecutorService;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * A technology's server with the threads its style brings along, not the server's own: a {@link DelayedCompletion}
 * (async-fjp, async-queue, async-timer) or an executor the handler hands requests to (a pool of platform workers, a
 * virtual thread per request). The threads are created when the target starts, given to the server, and ended once
 * the server has stopped, so they neither run before it nor outlive it.
 *
 * <pre>{@code
 * public static HelloServer servletAsyncFjp() {
 *     return WithStyleThreads.completing(DelayedCompletion::viaForkJoinPool,
 *             completion -> new TomcatServer(Threads.ASYNC, stats -> HelloServlet.delayed(stats, completion)));
 * }
 * }</pre>
 *
 * @param <T> the style's threads
 */
public final class WithStyleThreads<T> implements HelloServer {
    private final Function<TargetSettings, T> threads;
    private final Consumer<T> end;
    private final Function<T, HelloServer> technology;
    private T started;
    private HelloServer server;

    private WithStyleThreads(Function<TargetSettings, T> threads, Consumer<T> end, Function<T, HelloServer> technology) {
        this.threads = threads;
        this.end = end;
        this.technology = technology;
    }

    /** A {@link DelayedCompletion} style: {@code viaForkJoinPool}, {@code viaQueue} or {@code viaTimer}. */
    public static HelloServer completing(Supplier<DelayedCompletion> style,
                                         Function<DelayedCompletion, HelloServer> technology) {
        return new WithStyleThreads<>(settings -> style.get(), DelayedCompletion::close, technology);
    }

    /** An executor of the style's, sized by the settings where it is a pool; interrupted at the end (sleeps end early). */
    public static HelloServer executing(Function<TargetSettings, ExecutorService> executor,
                                        Function<ExecutorService, HelloServer> technology) {
        return new WithStyleThreads<>(executor, ExecutorService::shutdownNow, technology);
    }

    /** The technology's server is made at the start, with the style's threads: it refuses HTTP/3 then if it has none. */
    @Override
    public boolean servesHttp3() {
        return true;
    }

    @Override
    public int start(TargetSettings settings, RequestStats stats) throws Exception {
        started = threads.apply(settings);
        server = technology.apply(started);
        if (settings.http3() && !server.servesHttp3()) {
            throw new ProtocolNotServed(Protocol.H3, "--http3");
        }
        return server.start(settings, stats);
    }

    @Override
    public void stop() throws Exception {
        try {
            if (server != null) {
                server.stop();
            }
        } finally {
            if (started != null) {
                end.accept(started);
            }
        }
    }
}
