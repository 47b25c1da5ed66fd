package dev.gauntlet.targets.jdk;

import dev.gauntlet.targets.HelloServer;
import dev.gauntlet.targets.PlatformWorkers;
import dev.gauntlet.targets.RequestStats;
import dev.gauntlet.targets.TargetSettings;

/** {@code com.sun.net.httpserver}, sync: the handler sleeps on a pool of up to {@code workers} platform threads. */
public final class JdkHttpServerSync implements HelloServer {
    private final JdkServer server = new JdkServer();

    @Override
    public int start(TargetSettings settings, RequestStats stats) throws Exception {
        return server.start(settings, stats, PlatformWorkers.upTo(settings.workers(), "jdk-worker-"));
    }

    @Override
    public void stop() {
        server.stop();
    }
}
