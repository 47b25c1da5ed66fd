package dev.gauntlet.target.jetty;

import dev.gauntlet.target.HelloServer;
import dev.gauntlet.target.RequestStats;
import dev.gauntlet.target.TargetSettings;
import dev.gauntlet.target.servlet.HelloServlet;

/**
 * {@code jetty-servlet-virtual}: the blocking servlet of the sync style, which Jetty runs on virtual
 * threads (a {@code VirtualThreadPool} as the thread pool's virtual-threads executor).
 */
public final class JettyServletVirtual implements HelloServer {
    private final JettyServer server = new JettyServer();

    @Override
    public int start(TargetSettings settings, RequestStats stats) throws Exception {
        return server.start(settings, JettyServer.Threads.VIRTUAL, HelloServlet.sleeping(stats));
    }

    @Override
    public void stop() throws Exception {
        server.stop();
    }
}
