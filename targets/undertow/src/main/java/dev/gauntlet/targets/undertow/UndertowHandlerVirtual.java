package dev.gauntlet.targets.undertow;

import dev.gauntlet.targets.HelloContract;
import dev.gauntlet.targets.HelloServer;
import dev.gauntlet.targets.RequestStats;
import dev.gauntlet.targets.TargetSettings;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * {@code undertow-handler-virtual}: an {@code HttpHandler} dispatches the exchange from the I/O
 * thread to a virtual-thread-per-task executor, whose thread sleeps out the wait and sends the
 * response. The XNIO worker pool is not used.
 */
public final class UndertowHandlerVirtual implements HelloServer {
    private final UndertowServer server = new UndertowServer();
    private final ExecutorService virtualThreads = Executors.newVirtualThreadPerTaskExecutor();

    @Override
    public int start(TargetSettings settings, RequestStats stats) throws Exception {
        return server.start(settings, UndertowServer.Threads.ASYNC, new HelloHandler(stats,
                (exchange, waitMs, respond) -> exchange.dispatch(virtualThreads, () -> {
                    HelloContract.sleep(waitMs);
                    respond.run();
                })));
    }

    @Override
    public void stop() {
        server.stop();
        virtualThreads.shutdownNow();
    }
}
