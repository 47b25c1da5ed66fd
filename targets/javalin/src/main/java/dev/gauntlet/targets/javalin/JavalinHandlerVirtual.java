package dev.gauntlet.targets.javalin;

import dev.gauntlet.targets.HelloServer;
import dev.gauntlet.targets.RequestStats;
import dev.gauntlet.targets.TargetSettings;
import dev.gauntlet.targets.jetty.JettyConnectionFactories;

/**
 * {@code javalin-handler-virtual}: the blocking handler of the sync style with Javalin's
 * {@code useVirtualThreads}, so every request (and every Jetty task) runs on a new virtual thread.
 */
public final class JavalinHandlerVirtual implements HelloServer {
    private final JavalinServer server = JavalinServer.sleepingOnVirtualThreads();

    @Override
    public int start(TargetSettings settings, RequestStats stats) {
        return server.start(settings, stats);
    }

    @Override
    public void stop() {
        server.stop();
    }
}
