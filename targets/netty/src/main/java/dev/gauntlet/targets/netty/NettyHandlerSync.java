package dev.gauntlet.targets.netty;

import dev.gauntlet.targets.HelloContract;
import dev.gauntlet.targets.HelloServer;
import dev.gauntlet.targets.PlatformWorkers;
import dev.gauntlet.targets.RequestStats;
import dev.gauntlet.targets.TargetSettings;

import javax.net.ssl.SSLException;
import java.util.concurrent.ExecutorService;

/**
 * {@code netty-handler-sync}: each request sleeps on a platform worker of a pool of up to
 * {@code workers} threads that reuses idle workers ({@link PlatformWorkers}); the response goes
 * back through the connection's event loop.
 *
 * <p>Not Netty's {@code DefaultEventExecutorGroup}: it pins each connection to one executor, whose
 * thread starts on the event loop at the connection's first request and never ends, so every new
 * connection costs a thread start until all {@code workers} exist, however few requests wait at once.
 */
public final class NettyHandlerSync implements HelloServer {
    private final NettyServer server = new NettyServer();
    private ExecutorService workers;

    @Override
    public int start(TargetSettings settings, RequestStats stats) throws InterruptedException, SSLException {
        workers = PlatformWorkers.upTo(settings.workers(), "netty-worker-");
        return server.start(settings, stats, () -> (ctx, waitMs, respond) -> workers.execute(() -> {
            HelloContract.sleep(waitMs);
            respond.run();
        }));
    }

    @Override
    public void stop() {
        server.stop();
        if (workers != null) {
            workers.shutdownNow();
        }
    }
}
