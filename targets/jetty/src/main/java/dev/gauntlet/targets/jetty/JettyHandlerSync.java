package dev.gauntlet.target.jetty;

import dev.gauntlet.target.HelloServer;
import dev.gauntlet.target.RequestStats;
import dev.gauntlet.target.TargetSettings;

/**
 * {@code jetty-handler-sync}: a core {@link org.eclipse.jetty.server.Handler} that sleeps out the
 * wait on a {@code QueuedThreadPool} worker (up to {@code workers} platform threads).
 */
public final class JettyHandlerSync implements HelloServer {
    private final JettyServer server = new JettyServer();

    @Override
    public int start(TargetSettings settings, RequestStats stats) throws Exception {
        return server.start(settings, JettyServer.Threads.BLOCKING, HelloHandler.sleeping(stats));
    }

    @Override
    public void stop() throws Exception {
        server.stop();
    }
}
