package dev.gauntlet.targets.jetty;

import dev.gauntlet.targets.HelloContract;
import dev.gauntlet.targets.HelloServer;
import dev.gauntlet.targets.RequestStats;
import dev.gauntlet.targets.TargetSettings;
import dev.gauntlet.targets.servlet.HelloServlet;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.eclipse.jetty.util.thread.VirtualThreadPool;

import java.util.function.Function;

/**
 * The Jetty set-up every style shares: one connector with the target settings, no
 * {@code Server} or {@code Date} header, and the thread pool of the style's {@link Threads}. The
 * handler styles run a core {@link Handler}; the servlet styles run {@link HelloServlet} in an
 * ee10 servlet context (other paths: the context's 404). The connector speaks what
 * {@link JettyConnectionFactories} gives it; the handler or servlet serves HTTP/2 streams unchanged.
 * {@link JettyTargets} makes one per style.
 */
final class JettyServer implements HelloServer {
    /**
     * How long a stop waits for busy threads before interrupting them; sleeping workers end early
     * when interrupted, so a stop stays well inside TargetMain's grace.
     */
    private static final long STOP_TIMEOUT_MS = 500;

    /** The thread pools of the styles. */
    enum Threads {
        /** sync and async-dispatch: up to {@code workers} platform threads. */
        BLOCKING,
        /**
         * virtual: Jetty's recommended embedding of virtual threads. The selectors run on a small
         * platform pool ({@code asyncThreads}), and every task Jetty deems blocking (the handler, the
         * servlet) on a {@link VirtualThreadPool}. Its {@code maxConcurrentTasks} caps the tasks
         * running at once (200 by default): set to none, since a virtual thread per request must
         * not be bounded by a pool size (a cap of 0 or less creates no semaphore).
         */
        VIRTUAL,
        /** async-fjp, async-queue, async-timer: up to {@code asyncThreads} platform threads run selectors and handlers. */
        ASYNC
    }

    private final Threads threads;
    private final Function<RequestStats, Handler> handler;
    private Server server;

    /** @param handler the style's core handler, or its servlet in a context ({@link #servlet}) */
    JettyServer(Threads threads, Function<RequestStats, Handler> handler) {
        this.threads = threads;
        this.handler = handler;
    }

    /** {@code servlet} mapped to {@code /hello} in an ee10 servlet context, async supported. */
    static Function<RequestStats, Handler> servlet(Function<RequestStats, HelloServlet> servlet) {
        return stats -> {
            ServletContextHandler context = new ServletContextHandler();
            ServletHolder holder = new ServletHolder(servlet.apply(stats));
            holder.setAsyncSupported(true);
            context.addServlet(holder, HelloContract.PATH);
            return context;
        };
    }

    @Override
    public int start(TargetSettings settings, RequestStats stats) throws Exception {
        server = new Server(threadPool(settings, threads));
        server.setStopTimeout(STOP_TIMEOUT_MS);

        HttpConfiguration http = new HttpConfiguration();
        http.setSendServerVersion(false);
        http.setSendDateHeader(false);
        ServerConnector connector = new ServerConnector(server, 1, settings.ioThreads(), JettyConnectionFactories.of(settings, http));
        connector.setHost(settings.bind());
        connector.setPort(settings.port());
        connector.setAcceptQueueSize(settings.backlog());
        connector.setReuseAddress(settings.reuseAddress());
        connector.setAcceptedTcpNoDelay(settings.tcpNoDelay());
        server.addConnector(connector);

        server.setHandler(handler.apply(stats));
        server.start();
        return connector.getLocalPort();
    }

    @Override
    public void stop() throws Exception {
        if (server != null) {
            server.stop();
        }
    }

    private static QueuedThreadPool threadPool(TargetSettings settings, Threads threads) {
        return switch (threads) {
            case BLOCKING -> platform(settings.workers());
            case ASYNC -> platform(settings.asyncThreads());
            case VIRTUAL -> {
                QueuedThreadPool pool = platform(settings.asyncThreads());
                VirtualThreadPool virtual = new VirtualThreadPool();
                virtual.setMaxConcurrentTasks(0);
                virtual.setName("jetty-virtual");
                pool.setVirtualThreadsExecutor(virtual);
                yield pool;
            }
        };
    }

    private static QueuedThreadPool platform(int maxThreads) {
        QueuedThreadPool pool = new QueuedThreadPool(maxThreads);
        pool.setName("jetty-worker");
        pool.setStopTimeout(STOP_TIMEOUT_MS);
        return pool;
    }
}
