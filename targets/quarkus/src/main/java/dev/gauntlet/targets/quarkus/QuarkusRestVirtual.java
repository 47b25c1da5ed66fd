package dev.gauntlet.targets.quarkus;

import dev.gauntlet.targets.HelloServer;
import dev.gauntlet.targets.RequestStats;
import dev.gauntlet.targets.TargetSettings;

/** {@code quarkus-rest-virtual}: a {@code @RunOnVirtualThread} endpoint sleeps on a virtual thread. */
public final class QuarkusRestVirtual implements HelloServer {
    private final QuarkusServer server = new QuarkusServer();

    @Override
    public boolean startsTwiceInOneJvm() {
        return QuarkusServer.STARTS_TWICE_IN_ONE_JVM;
    }

    @Override
    public int start(TargetSettings settings, RequestStats stats) throws Exception {
        return server.start(settings, stats, QuarkusServer.Style.VIRTUAL);
    }

    @Override
    public void stop() {
        server.stop();
    }
}
