package dev.gauntlet.targets.vertx;

import dev.gauntlet.targets.HelloServer;
import dev.gauntlet.targets.RequestStats;
import dev.gauntlet.targets.TargetSettings;
import io.vertx.core.ThreadingModel;

/**
 * {@code vertx-core-virtual}: the verticles are deployed with {@link ThreadingModel#VIRTUAL_THREAD},
 * so every request is handled on a virtual thread, which blocks on a Vert.x timer with
 * {@code Future.await}.
 *
 * <p>Not {@code Thread.sleep}: a virtual-thread context runs its tasks one at a time and lets the
 * next one in only while a task is parked in {@code await}, so a sleeping handler would hold up
 * every other request of its verticle.
 */
public final class VertxCoreVirtual implements HelloServer {
    private final VertxServer server = new VertxServer();

    @Override
    public int start(TargetSettings settings, RequestStats stats) throws Exception {
        return server.start(settings, stats, ThreadingModel.VIRTUAL_THREAD, (context, waitMs, respond) -> {
            if (waitMs > 0) {
                context.owner().timer(waitMs).await();
            }
            respond.run();
        });
    }

    @Override
    public void stop() throws Exception {
        server.stop();
    }
}
