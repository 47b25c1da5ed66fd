package dev.gauntlet.targets.undertow;

import dev.gauntlet.targets.HelloServer;
import dev.gauntlet.targets.RequestStats;
import dev.gauntlet.targets.TargetSettings;
import dev.gauntlet.targets.servlet.HelloServlet;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * {@code undertow-servlet-virtual}: the deployment runs every request on a
 * virtual-thread-per-task executor ({@code DeploymentInfo.setExecutor}), where the servlet sleeps
 * out the wait; the XNIO worker pool is not used.
 */
public final class UndertowServletVirtual implements HelloServer {
    private final UndertowServletServer server = new UndertowServletServer();
    private final ExecutorService virtualThreads = Executors.newVirtualThreadPerTaskExecutor();

    @Override
    public int start(TargetSettings settings, RequestStats stats) throws Exception {
        return server.start(settings, UndertowServer.Threads.ASYNC, virtualThreads, HelloServlet.sleeping(stats));
    }

    @Override
    public void stop() throws Exception {
        server.stop();
        virtualThreads.shutdownNow();
    }
}
