package dev.gauntlet.targets.undertow;

import dev.gauntlet.targets.TargetSettings;
import io.undertow.Undertow;
import io.undertow.UndertowOptions;
import io.undertow.server.HttpHandler;
import io.undertow.util.Headers;
import org.xnio.Options;

import java.net.InetSocketAddress;

/**
 * An Undertow HTTP/1.1 listener with the target's settings; the styles differ in the root handler
 * and in how the threads are split.
 *
 * <p>As in the old server benchmark, Undertow's threads are split evenly between XNIO I/O threads
 * and the worker pool: half of {@code workers} each for the styles that block a platform worker
 * (5,000 + 5,000 by default), half of {@code asyncThreads} each for the others (50 + 50).
 * {@code ioThreads} is therefore not used.
 */
final class UndertowServer {

    /** Which setting sizes the threads. */
    enum Threads {
        /** A platform worker is held for the whole wait: {@code workers}. */
        BLOCKING,
        /** No platform thread is held while waiting: {@code asyncThreads}. */
        ASYNC;

        int total(TargetSettings settings) {
            return this == BLOCKING ? settings.workers() : settings.asyncThreads();
        }
    }

    private Undertow undertow;

    int start(TargetSettings settings, Threads threads, HttpHandler root) {
        int total = threads.total(settings);
        int ioThreads = Math.max(1, total / 2);
        int workerThreads = Math.max(1, total - ioThreads);
        undertow = Undertow.builder()
                .addHttpListener(settings.port(), settings.bind())
                .setIoThreads(ioThreads)
                .setWorkerThreads(workerThreads)
                .setSocketOption(Options.BACKLOG, settings.backlog())
                .setSocketOption(Options.TCP_NODELAY, settings.tcpNoDelay())
                .setSocketOption(Options.REUSE_ADDRESSES, settings.reuseAddress())
                .setServerOption(UndertowOptions.ALWAYS_SET_DATE, false)
                // Otherwise every HTTP/1.1 response says "Connection: keep-alive", which HTTP/1.1 implies.
                .setServerOption(UndertowOptions.ALWAYS_SET_KEEP_ALIVE, false)
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
