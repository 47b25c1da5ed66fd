package dev.gauntlet.targets.undertow;

import dev.gauntlet.targets.HelloContract;
import dev.gauntlet.targets.HelloServer;
import dev.gauntlet.targets.RequestStats;
import dev.gauntlet.targets.TargetSettings;

/**
 * {@code undertow-handler-sync}: an {@code HttpHandler} dispatches the exchange from the I/O thread
 * to the XNIO worker pool, whose thread sleeps out the wait and sends the response.
 */
public final class UndertowHandlerSync implements HelloServer {
    private final UndertowServer server = new UndertowServer();

    @Override
    public int start(TargetSettings settings, RequestStats stats) {
        return server.start(settings, UndertowServer.Threads.BLOCKING, new HelloHandler(stats,
                (exchange, waitMs, respond) -> exchange.dispatch(() -> {
                    HelloContract.sleep(waitMs);
                    respond.run();
                })));
    }

    @Override
    public void stop() {
        server.stop();
    }
}
