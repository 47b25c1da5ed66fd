package dev.gauntlet.targets.jdk;

import dev.gauntlet.targets.HelloServer;
import dev.gauntlet.targets.RequestStats;
import dev.gauntlet.targets.TargetSettings;

import java.util.concurrent.Executors;

/**
 * {@code com.sun.net.httpserver}, virtual: every exchange (reading its request, then the handler
 * and its sleep) runs on a new virtual thread.
 */
public final class JdkHttpServerVirtual implements HelloServer {
    private final JdkServer server = new JdkServer();

    @Override
    public int start(TargetSettings settings, RequestStats stats) throws Exception {
        return server.start(settings, stats,
                Executors.newThreadPerTaskExecutor(Thread.ofVirtual().name("jdk-virtual-", 0).factory()));
    }

    @Override
    public void stop() {
        server.stop();
    }
}
