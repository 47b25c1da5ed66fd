package dev.gauntlet.target.netty;

import dev.gauntlet.target.HelloContract;
import dev.gauntlet.target.HelloServer;
import dev.gauntlet.target.RequestStats;
import dev.gauntlet.target.TargetSettings;
import io.netty.util.concurrent.DefaultEventExecutorGroup;
import io.netty.util.concurrent.DefaultThreadFactory;
import io.netty.util.concurrent.EventExecutor;
import io.netty.util.concurrent.EventExecutorGroup;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * {@code netty-handler-sync}: Netty's own way to run blocking handler code, a
 * {@link DefaultEventExecutorGroup} of {@code workers} platform threads. Each connection is pinned
 * to one of its executors (as {@code pipeline.addLast(group, handler)} would do), which sleeps
 * there; the response goes back through the connection's event loop.
 *
 * <p>An executor's thread starts with its first task and lives until {@code stop}, so the process
 * holds as many worker threads as connections it has seen, up to {@code workers}; connections
 * beyond that share executors and queue behind each other's waits.
 *
 * <p>{@code stop} shuts down only the executors handed out: shutting down one that never ran starts
 * its thread first, which for the whole group of 10,000 takes seconds.
 */
public final class NettyHandlerSync implements HelloServer {
    private final NettyServer server = new NettyServer();
    private final Set<EventExecutor> handedOut = ConcurrentHashMap.newKeySet();
    private EventExecutorGroup workers;

    @Override
    public int start(TargetSettings settings, RequestStats stats) throws InterruptedException {
        workers = new DefaultEventExecutorGroup(settings.workers(), new DefaultThreadFactory("netty-worker", true));
        return server.start(settings, stats, () -> {
            EventExecutor worker = workers.next();
            handedOut.add(worker);
            return (ctx, waitMs, respond) -> worker.execute(() -> {
                HelloContract.sleep(waitMs);
                respond.run();
            });
        });
    }

    @Override
    public void stop() {
        server.stop();
        handedOut.forEach(worker -> worker.shutdownGracefully(0, 1, TimeUnit.SECONDS));
    }
}
