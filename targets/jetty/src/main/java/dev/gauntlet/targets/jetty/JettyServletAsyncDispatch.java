package dev.gauntlet.targets.jetty;

import dev.gauntlet.targets.HelloServer;
import dev.gauntlet.targets.RequestStats;
import dev.gauntlet.targets.TargetSettings;
import dev.gauntlet.targets.servlet.HelloServlet;

/**
 * {@code jetty-servlet-async-dispatch}: the servlet starts async mode and hands the request to the
 * container ({@code AsyncContext.start}: Jetty's {@code QueuedThreadPool}, up to {@code workers}
 * platform threads), where it sleeps out the wait, writes the response and completes.
 */
public final class JettyServletAsyncDispatch implements HelloServer {
    private final JettyServer server = new JettyServer();

    @Override
    public int start(TargetSettings settings, RequestStats stats) throws Exception {
        return server.start(settings, JettyServer.Threads.BLOCKING, HelloServlet.dispatching(stats));
    }

    @Override
    public void stop() throws Exception {
        server.stop();
    }
}
