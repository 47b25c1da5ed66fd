package dev.gauntlet.targets.javalin;

import dev.gauntlet.targets.HelloServer;
import dev.gauntlet.targets.RequestStats;
import dev.gauntlet.targets.TargetSettings;
import dev.gauntlet.targets.jetty.JettyConnectionFactories;

/**
 * {@code javalin-handler-sync}: a Javalin {@code GET /hello} handler that sleeps out the wait on a Jetty
 * {@code QueuedThreadPool} worker (up to {@code workers} platform threads).
 */
public final class JavalinHandlerSync implements HelloServer {
    private final JavalinServer server = JavalinServer.sleepingOnPlatformThreads();

    @Override
    public int start(TargetSettings settings, RequestStats stats) {
        return server.start(settings, stats);
    }

    @Override
    public void stop() {
        server.stop();
    }
}
