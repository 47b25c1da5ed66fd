package dev.gauntlet.targets.quarkus;

import dev.gauntlet.targets.HelloServer;
import dev.gauntlet.targets.RequestStats;
import dev.gauntlet.targets.TargetSettings;

/** {@code quarkus-rest-sync}: a {@code @Blocking} endpoint sleeps on a thread of Quarkus' worker pool, at most {@code workers} threads. */
public final class QuarkusRestSync implements HelloServer {
    private final QuarkusServer server = new QuarkusServer();

    @Override
    public boolean startsTwiceInOneJvm() {
        return QuarkusServer.STARTS_TWICE_IN_ONE_JVM;
    }

    @Override
    public int start(TargetSettings settings, RequestStats stats) throws Exception {
        return server.start(settings, stats, QuarkusServer.Style.SYNC);
    }

    @Override
    public void stop() {
        server.stop();
    }
}
