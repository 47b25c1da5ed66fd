package dev.gauntlet.target.jdk;

import dev.gauntlet.target.HelloServer;
import dev.gauntlet.target.PlatformWorkers;
import dev.gauntlet.target.RequestStats;
import dev.gauntlet.target.TargetSettings;

import java.io.IOException;

/** {@code com.sun.net.httpserver}, sync: the handler sleeps on a pool of up to {@code workers} platform threads. */
public final class JdkHttpServerSync implements HelloServer {
    private final JdkServer server = new JdkServer();

    @Override
    public int start(TargetSettings settings, RequestStats stats) throws IOException {
        return server.start(settings, stats, PlatformWorkers.upTo(settings.workers(), "jdk-worker-"));
    }

    @Override
    public void stop() {
        server.stop();
    }
}
