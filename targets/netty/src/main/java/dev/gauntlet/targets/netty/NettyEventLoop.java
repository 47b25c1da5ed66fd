package dev.gauntlet.targets.netty;

import dev.gauntlet.targets.HelloServer;
import dev.gauntlet.targets.RequestStats;
import dev.gauntlet.targets.TargetSettings;

import javax.net.ssl.SSLException;
import java.util.concurrent.TimeUnit;

/**
 * {@code netty-event-loop}: the request is handled on its connection's event loop and the wait is
 * a timer on that same loop ({@code ctx.executor().schedule}); no other threads.
 */
public final class NettyEventLoop implements HelloServer {
    private final NettyServer server = new NettyServer();

    @Override
    public int start(TargetSettings settings, RequestStats stats) throws InterruptedException, SSLException {
        return server.start(settings, stats, () -> (ctx, waitMs, respond) -> {
            if (waitMs == 0) {
                respond.run();
            } else {
                ctx.executor().schedule(respond, waitMs, TimeUnit.MILLISECONDS);
            }
        });
    }

    @Override
    public void stop() {
        server.stop();
    }
}
