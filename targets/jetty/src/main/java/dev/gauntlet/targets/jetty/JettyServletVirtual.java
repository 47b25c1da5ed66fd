package dev.gauntlet.targets.jetty;

import dev.gauntlet.targets.HelloServer;
import dev.gauntlet.targets.RequestStats;
import dev.gauntlet.targets.TargetSettings;
import dev.gauntlet.targets.servlet.HelloServlet;

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
