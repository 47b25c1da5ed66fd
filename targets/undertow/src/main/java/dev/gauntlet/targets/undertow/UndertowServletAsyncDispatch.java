package dev.gauntlet.targets.undertow;

import dev.gauntlet.targets.HelloServer;
import dev.gauntlet.targets.RequestStats;
import dev.gauntlet.targets.TargetSettings;
import dev.gauntlet.targets.servlet.HelloServlet;

/**
 * {@code undertow-servlet-async-dispatch}: the servlet starts async mode and hands the request to the
 * container executor ({@code AsyncContext.start}: the XNIO worker pool), where it sleeps out the
 * wait, writes the response and completes.
 */
public final class UndertowServletAsyncDispatch implements HelloServer {
    private final UndertowServletServer server = new UndertowServletServer();

    @Override
    public int start(TargetSettings settings, RequestStats stats) throws Exception {
        return server.start(settings, UndertowServer.Threads.BLOCKING, null, HelloServlet.dispatching(stats));
    }

    @Override
    public void stop() throws Exception {
        server.stop();
    }
}
