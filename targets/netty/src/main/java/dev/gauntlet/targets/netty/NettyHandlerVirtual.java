package dev.gauntlet.targets.netty;

import dev.gauntlet.targets.HelloContract;
import dev.gauntlet.targets.HelloServer;
import dev.gauntlet.targets.RequestStats;
import dev.gauntlet.targets.TargetSettings;

import javax.net.ssl.SSLException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * {@code netty-handler-virtual}: each request sleeps on a new virtual thread (Netty has no
 * virtual-thread support of its own, so a virtual-thread-per-task executor stands in); the response
 * goes back through the connection's event loop.
 */
public final class NettyHandlerVirtual implements HelloServer {
    private final NettyServer server = new NettyServer();
    private final ExecutorService virtualThreads = Executors.newVirtualThreadPerTaskExecutor();

    @Override
    public int start(TargetSettings settings, RequestStats stats) throws InterruptedException, SSLException {
        return server.start(settings, stats, () -> (ctx, waitMs, respond) -> virtualThreads.execute(() -> {
            HelloContract.sleep(waitMs);
            respond.run();
        }));
    }

    @Override
    public void stop() {
        server.stop();
        virtualThreads.shutdownNow();
    }
}
