package dev.gauntlet.targets.tomcat;

import dev.gauntlet.targets.HelloServer;
import dev.gauntlet.targets.RequestStats;
import dev.gauntlet.targets.TargetSettings;
import dev.gauntlet.targets.servlet.HelloServlet;

/**
 * {@code tomcat-servlet-async-dispatch}: the servlet starts async mode and hands the request to the
 * container executor ({@code AsyncContext.start}: the connector's worker threads, up to
 * {@code workers}), where it sleeps out the wait, writes the response and completes.
 */
public final class TomcatServletAsyncDispatch implements HelloServer {
    private final TomcatServer server = new TomcatServer();

    @Override
    public int start(TargetSettings settings, RequestStats stats) throws Exception {
        return server.start(settings, TomcatServer.Threads.BLOCKING, HelloServlet.dispatching(stats));
    }

    @Override
    public void stop() throws Exception {
        server.stop();
    }
}
