package dev.gauntlet.targets.jetty;

import dev.gauntlet.targets.HelloServer;
import dev.gauntlet.targets.RequestStats;
import dev.gauntlet.targets.TargetSettings;
import dev.gauntlet.targets.servlet.HelloServlet;

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
