package dev.gauntlet.targets.jdk;

import com.sun.net.httpserver.HttpServer;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import dev.gauntlet.targets.HelloServer;
import dev.gauntlet.targets.ProtocolNotServed;
import dev.gauntlet.targets.RequestStats;
import dev.gauntlet.targets.TargetSettings;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.security.GeneralSecurityException;
import java.util.concurrent.Executor;

/**
 * A {@code com.sun.net.httpserver} server with the hello handler on a given executor; the styles
 * ({@link JdkTargets}) differ only in that executor, which they own.
 *
 * <p>The server has one dispatcher thread (accept and readiness; {@code ioThreads} does not apply)
 * and reads each request's head on the executor's thread, blocking. Listening sockets always have
 * SO_REUSEADDR on Linux; the API offers no switch for it. With {@code --tls} it is an {@link HttpsServer} on the
 * JSSE context; the API has no HTTP/2.
 */
final class JdkServer implements HelloServer {
    /** Idle keep-alive connections kept open; the JDK's default of 200 closes the rest after each response. */
    private static final int MAX_IDLE_CONNECTIONS = 100_000;

    private final Executor executor;
    private HttpServer server;

    JdkServer(Executor executor) {
        this.executor = executor;
    }

    /** HTTP/1.1, with TLS or without: the API has no HTTP/2. */
    @Override
    public int start(TargetSettings settings, RequestStats stats)
            throws IOException, GeneralSecurityException, ProtocolNotServed {
        ProtocolNotServed.unlessHttp11(settings);
        // The JDK reads these once, when the first HttpServer of the process is created: this one,
        // as TargetMain starts the admin endpoint after it. A -D on the command line wins.
        defaultProperty("sun.net.httpserver.nodelay", String.valueOf(settings.tcpNoDelay()));
        defaultProperty("sun.net.httpserver.maxIdleConnections", String.valueOf(MAX_IDLE_CONNECTIONS));
        InetSocketAddress address = new InetSocketAddress(settings.bind(), settings.port());
        if (settings.tls() == null) {
            server = HttpServer.create(address, settings.backlog());
        } else {
            HttpsServer https = HttpsServer.create(address, settings.backlog());
            https.setHttpsConfigurator(new HttpsConfigurator(settings.tls().sslContext()));
            server = https;
        }
        server.createContext("/", new HelloHandler(stats));
        server.setExecutor(executor);
        server.start();
        return server.getAddress().getPort();
    }

    /** Closes the listener and every connection; the style then interrupts the handlers still waiting. */
    @Override
    public void stop() {
        server.stop(0);
    }

    private static void defaultProperty(String name, String value) {
        if (System.getProperty(name) == null) {
            System.setProperty(name, value);
        }
    }
}
