package dev.gauntlet.targets.tomcat;

import dev.gauntlet.targets.HelloServer;
import dev.gauntlet.targets.RequestStats;
import dev.gauntlet.targets.TargetSettings;
import dev.gauntlet.targets.servlet.HelloServlet;

/**
 * {@code tomcat-servlet-virtual}: the connector runs every request on a virtual thread of its own
 * ({@code useVirtualThreads}), where the servlet sleeps out the wait.
 */
public final class TomcatServletVirtual implements HelloServer {
    private final TomcatServer server = new TomcatServer();

    @Override
    public int start(TargetSettings settings, RequestStats stats) throws Exception {
        return server.start(settings, TomcatServer.Threads.VIRTUAL, HelloServlet.sleeping(stats));
    }

    @Override
    public void stop() throws Exception {
        server.stop();
    }
}
