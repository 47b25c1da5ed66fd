package dev.gauntlet.targets.vertx;

import dev.gauntlet.targets.HelloServer;
import dev.gauntlet.targets.RequestStats;
import dev.gauntlet.targets.TargetSettings;
import io.vertx.core.ThreadingModel;

/**
 * {@code vertx-core-event-loop}: the request is handled on its verticle's event loop and the wait
 * is a Vert.x timer ({@code vertx.setTimer}) on that same loop.
 */
public final class VertxCoreEventLoop implements HelloServer {
    private final VertxServer server = new VertxServer();

    @Override
    public int start(TargetSettings settings, RequestStats stats) throws Exception {
        return server.start(settings, stats, ThreadingModel.EVENT_LOOP, (context, waitMs, respond) -> {
            if (waitMs == 0) {
                respond.run();
            } else {
                context.owner().setTimer(waitMs, timerId -> respond.run());
            }
        });
    }

    @Override
    public void stop() throws Exception {
        server.stop();
    }
}
