package dev.gauntlet.target.jetty;

import dev.gauntlet.target.HelloServer;
import dev.gauntlet.target.RequestStats;
import dev.gauntlet.target.TargetSettings;
import dev.gauntlet.target.servlet.HelloServlet;

/**
 * {@code jetty-servlet-sync}: an ee10 servlet that sleeps out the wait on a {@code QueuedThreadPool}
 * worker (up to {@code workers} platform threads).
 */
public final class JettyServletSync implements HelloServer {
    private final JettyServer server = new JettyServer();

    @Override
    public int start(TargetSettings settings, RequestStats stats) throws Exception {
        return server.start(settings, JettyServer.Threads.BLOCKING, HelloServlet.sleeping(stats));
    }

    @Override
    public void stop() throws Exception {
        server.stop();
    }
}
