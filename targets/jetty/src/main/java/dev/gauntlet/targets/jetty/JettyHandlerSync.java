package dev.gauntlet.targets.jetty;

import dev.gauntlet.targets.HelloServer;
import dev.gauntlet.targets.RequestStats;
import dev.gauntlet.targets.TargetSettings;

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
