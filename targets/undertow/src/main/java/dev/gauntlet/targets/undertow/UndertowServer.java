package dev.gauntlet.targets.undertow;

import dev.gauntlet.targets.TargetSettings;
import io.undertow.Undertow;
import io.undertow.UndertowOptions;
import io.undertow.server.HttpHandler;
import io.undertow.util.Headers;
import org.xnio.Options;

import java.net.InetSocketAddress;
import java.security.GeneralSecurityException;

/**
 * An Undertow listener with the target's settings; the styles differ in the root handler
 * and in how the threads are split. It speaks HTTP/1.1, with {@code --tls} over the JDK's TLS (JSSE), and with
 * {@code --http2} HTTP/2 beside it on the same port: over TLS as ALPN chooses, in clear when a connection opens with
 * the HTTP/2 preface (Undertow's HTTP/1.1 parser hands it over). The root handler serves HTTP/2 streams unchanged.
 *
 * <p>The styles that block a platform worker get {@code ioThreads} XNIO I/O threads and a worker
 * pool of {@code workers} (10,000 by default): the pool is the style, as in every other sync
 * target. Not the old server benchmark's even split (5,000 I/O + 5,000 workers): every XNIO I/O
 * thread holds an epoll selector and its wake-up descriptor, so 5,000 of them took 10,000 of the
 * process's 20,000 open files before any connection, and at about 10,000 held requests accepts
 * failed ("Too many open files") on the serving and the admin port alike. The other styles keep the
 * even split of {@code asyncThreads} (50 + 50).
 */
final class UndertowServer {
    /** Which settings size the I/O threads and the worker pool. */
    enum Threads {
        /** A platform worker is held for the whole wait: {@code ioThreads} I/O threads, {@code workers} workers. */
        BLOCKING,
        /** No platform thread is held while waiting: {@code asyncThreads}, half I/O and half workers. */
        ASYNC;

        int io(TargetSettings settings) {
            return this == BLOCKING ? settings.ioThreads() : Math.max(1, settings.asyncThreads() / 2);
        }

        int workers(TargetSettings settings) {
            return this == BLOCKING ? settings.workers() : Math.max(1, settings.asyncThreads() - io(settings));
        }
    }

    private Undertow undertow;

    int start(TargetSettings settings, Threads threads, HttpHandler root) throws GeneralSecurityException {
        Undertow.Builder builder = Undertow.builder();
        if (settings.tls() == null) {
            builder.addHttpListener(settings.port(), settings.bind());
        } else {
            builder.addHttpsListener(settings.port(), settings.bind(), settings.tls().sslContext());
        }
        undertow = builder
                .setIoThreads(threads.io(settings))
                .setWorkerThreads(threads.workers(settings))
                .setSocketOption(Options.BACKLOG, settings.backlog())
                .setSocketOption(Options.TCP_NODELAY, settings.tcpNoDelay())
                .setSocketOption(Options.REUSE_ADDRESSES, settings.reuseAddress())
                .setServerOption(UndertowOptions.ALWAYS_SET_DATE, false)
                // Otherwise every HTTP/1.1 response says "Connection: keep-alive", which HTTP/1.1 implies.
                .setServerOption(UndertowOptions.ALWAYS_SET_KEEP_ALIVE, false)
                .setServerOption(UndertowOptions.ENABLE_HTTP2, settings.http2())
                .setHandler(keepingHttp10Alive(root))
                .build();
        undertow.start();
        return ((InetSocketAddress) undertow.getListenerInfo().getFirst().getAddress()).getPort();
    }

    /**
     * Without ALWAYS_SET_KEEP_ALIVE Undertow keeps an HTTP/1.0 keep-alive connection open but no
     * longer says so, and HTTP/1.0 clients ({@code ab -k}) then close it; so the handler says so.
     * Undertow replaces the header with "close" if the exchange stops being persistent.
     */
    private static HttpHandler keepingHttp10Alive(HttpHandler root) {
        return exchange -> {
            if (!exchange.isHttp11() && exchange.isPersistent()) {
                exchange.getResponseHeaders().put(Headers.CONNECTION, Headers.KEEP_ALIVE.toString());
            }
            root.handleRequest(exchange);
        };
    }

    void stop() {
        if (undertow != null) {
            undertow.stop();
        }
    }
}
