package dev.gauntlet.targets.tomcat;

import dev.gauntlet.targets.HelloServer;
import dev.gauntlet.targets.RequestStats;
import dev.gauntlet.targets.TargetSettings;
import dev.gauntlet.targets.servlet.HelloServlet;

/**
 * {@code tomcat-servlet-sync}: the servlet sleeps out the wait on a connector worker thread (up to
 * {@code workers} platform threads) and writes the response.
 */
public final class TomcatServletSync implements HelloServer {
    private final TomcatServer server = new TomcatServer();

    @Override
    public int start(TargetSettings settings, RequestStats stats) throws Exception {
        return server.start(settings, TomcatServer.Threads.BLOCKING, HelloServlet.sleeping(stats));
    }

    @Override
    public void stop() throws Exception {
        server.stop();
    }
}
