package dev.gauntlet.targets.undertow;

import dev.gauntlet.targets.HelloContract;
import dev.gauntlet.targets.HelloServer;
import dev.gauntlet.targets.RequestStats;
import dev.gauntlet.targets.TargetSettings;

/**
 * {@code undertow-handler-sync}: the exchange is dispatched from the I/O thread to the XNIO worker
 * pool first, and the hello handler runs there: it sleeps out the wait on that worker and sends the
 * response.
 *
 * <p>Dispatched before the handler, not from it, so a request counts as started
 * ({@code stats.begin()}) only once a worker runs it: requests queued for a busy pool are not yet
 * being processed, and the concurrency case must see the pool's size.
 */
public final class UndertowHandlerSync implements HelloServer {
    private final UndertowServer server = new UndertowServer();

    @Override
    public int start(TargetSettings settings, RequestStats stats) throws Exception {
        HelloHandler onWorker = new HelloHandler(stats, (exchange, waitMs, respond) -> {
            HelloContract.sleep(waitMs);
            respond.run();
        });
        return server.start(settings, UndertowServer.Threads.BLOCKING, exchange -> exchange.dispatch(onWorker));
    }

    @Override
    public void stop() {
        server.stop();
    }
}
