package dev.gauntlet.targets.jdk;

import com.sun.net.httpserver.HttpServer;
import dev.gauntlet.targets.RequestStats;
import dev.gauntlet.targets.TargetSettings;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.concurrent.ExecutorService;

/**
 * A {@code com.sun.net.httpserver} server with the hello handler on a given executor; the styles
 * differ only in that executor.
 *
 * <p>The server has one dispatcher thread (accept and readiness; {@code ioThreads} does not apply)
 * and reads each request's head on the executor's thread, blocking. Listening sockets always have
 * SO_REUSEADDR on Linux; the API offers no switch for it.
 */
final class JdkServer {
    /** Idle keep-alive connections kept open; the JDK's default of 200 closes the rest after each response. */
    private static final int MAX_IDLE_CONNECTIONS = 100_000;

    private HttpServer server;
    private ExecutorService executor;

    int start(TargetSettings settings, RequestStats stats, ExecutorService executor) throws IOException {
        // The JDK reads these once, when the first HttpServer of the process is created: this one,
        // as TargetMain starts the admin endpoint after it. A -D on the command line wins.
        defaultProperty("sun.net.httpserver.nodelay", String.valueOf(settings.tcpNoDelay()));
        defaultProperty("sun.net.httpserver.maxIdleConnections", String.valueOf(MAX_IDLE_CONNECTIONS));
        this.executor = executor;
        server = HttpServer.create(new InetSocketAddress(settings.bind(), settings.port()), settings.backlog());
        server.createContext("/", new HelloHandler(stats));
        server.setExecutor(executor);
        server.start();
        return server.getAddress().getPort();
    }

    /** Closes the listener and every connection, then interrupts the handlers still waiting. */
    void stop() {
        server.stop(0);
        executor.shutdownNow();
    }

    private static void defaultProperty(String name, String value) {
        if (System.getProperty(name) == null) {
            System.setProperty(name, value);
        }
    }
}
