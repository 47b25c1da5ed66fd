package dev.gauntlet.targets.jetty;

import dev.gauntlet.api.Protocol;
import dev.gauntlet.targets.HelloContract;
import dev.gauntlet.targets.TargetSettings;
import dev.gauntlet.targets.servlet.HelloServlet;
import org.eclipse.jetty.alpn.server.ALPNServerConnectionFactory;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.eclipse.jetty.http2.server.HTTP2CServerConnectionFactory;
import org.eclipse.jetty.http2.server.HTTP2ServerConnectionFactory;
import org.eclipse.jetty.server.ConnectionFactory;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.SecureRequestCustomizer;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.SslConnectionFactory;
import org.eclipse.jetty.util.ssl.SslContextFactory;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.eclipse.jetty.util.thread.VirtualThreadPool;

import java.security.GeneralSecurityException;
import java.util.Set;

/**
 * The Jetty set-up every style shares: one connector with the target settings, no
 * {@code Server} or {@code Date} header, and the thread pool of the style's {@link Threads}. The
 * handler styles run a core {@link Handler}; the servlet styles run {@link HelloServlet} in an
 * ee10 servlet context (other paths: the context's 404). The connector speaks HTTP/1.1, with
 * {@code --tls} over the JDK's TLS (JSSE), and with {@code --http2} HTTP/2 beside it on the same port; the
 * handler or servlet serves HTTP/2 streams unchanged.
 */
final class JettyServer {
    /** What every style serves. */
    static final Set<Protocol> PROTOCOLS = Set.of(Protocol.HTTP1, Protocol.HTTPS1, Protocol.H2, Protocol.H2C);

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
        /** async-fjp, async-queue: up to {@code asyncThreads} platform threads run selectors and handlers. */
        ASYNC
    }

    private Server server;

    /** Starts Jetty with {@code handler}; returns the bound port. */
    int start(TargetSettings settings, Threads threads, Handler handler) throws Exception {
        server = new Server(threadPool(settings, threads));
        server.setStopTimeout(STOP_TIMEOUT_MS);

        HttpConfiguration http = new HttpConfiguration();
        http.setSendServerVersion(false);
        http.setSendDateHeader(false);
        ServerConnector connector = new ServerConnector(server, 1, settings.ioThreads(), connectionFactories(settings, http));
        connector.setHost(settings.bind());
        connector.setPort(settings.port());
        connector.setAcceptQueueSize(settings.backlog());
        connector.setReuseAddress(settings.reuseAddress());
        connector.setAcceptedTcpNoDelay(settings.tcpNoDelay());
        server.addConnector(connector);

        server.setHandler(handler);
        server.start();
        return connector.getLocalPort();
    }

    /** Starts Jetty with {@code servlet} mapped to {@code /hello}, async supported; returns the bound port. */
    int start(TargetSettings settings, Threads threads, HelloServlet servlet) throws Exception {
        ServletContextHandler context = new ServletContextHandler();
        ServletHolder holder = new ServletHolder(servlet);
        holder.setAsyncSupported(true);
        context.addServlet(holder, HelloContract.PATH);
        return start(settings, threads, context);
    }

    /**
     * The connector's protocols, the one a connection starts with first: HTTP/1.1 alone unless the settings ask for
     * more. In clear, Jetty's HTTP/1.1 connection hands a connection that opens with the HTTP/2 preface to the h2c
     * factory; over TLS, ALPN picks h2 or http/1.1 (http/1.1 for a client that offers neither).
     */
    private static ConnectionFactory[] connectionFactories(TargetSettings settings, HttpConfiguration http)
            throws GeneralSecurityException {
        if (settings.tls() == null) {
            HttpConnectionFactory http1 = new HttpConnectionFactory(http);
            return settings.http2() ? new ConnectionFactory[] {http1, new HTTP2CServerConnectionFactory(http)}
                    : new ConnectionFactory[] {http1};
        }
        // So that requests say https and servlets see them as secure.
        http.addCustomizer(new SecureRequestCustomizer());
        HttpConnectionFactory http1 = new HttpConnectionFactory(http);
        SslContextFactory.Server ssl = new SslContextFactory.Server();
        ssl.setSslContext(settings.tls().sslContext());
        if (!settings.http2()) {
            return new ConnectionFactory[] {new SslConnectionFactory(ssl, http1.getProtocol()), http1};
        }
        // ALPN's names; the HTTP/1.1 factory's own is "HTTP/1.1", which no client offers.
        ALPNServerConnectionFactory alpn = new ALPNServerConnectionFactory("h2", "http/1.1");
        alpn.setDefaultProtocol("http/1.1");
        return new ConnectionFactory[] {new SslConnectionFactory(ssl, alpn.getProtocol()), alpn,
                new HTTP2ServerConnectionFactory(http), http1};
    }

    void stop() throws Exception {
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
