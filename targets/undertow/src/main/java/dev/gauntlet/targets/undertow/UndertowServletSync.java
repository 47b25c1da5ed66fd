package dev.gauntlet.targets.undertow;

import dev.gauntlet.targets.HelloServer;
import dev.gauntlet.targets.RequestStats;
import dev.gauntlet.targets.TargetSettings;
import dev.gauntlet.targets.servlet.HelloServlet;

/**
 * {@code undertow-servlet-sync}: the servlet sleeps out the wait on its XNIO worker thread and writes the response.
 */
public final class UndertowServletSync implements HelloServer {
    private final UndertowServletServer server = new UndertowServletServer();

    @Override
    public int start(TargetSettings settings, RequestStats stats) throws Exception {
        return server.start(settings, UndertowServer.Threads.BLOCKING, null, HelloServlet.sleeping(stats));
    }

    @Override
    public void stop() throws Exception {
        server.stop();
    }
}
