package dev.gauntlet.targets.quarkus;

import dev.gauntlet.targets.HelloServer;
import dev.gauntlet.targets.RequestStats;
import dev.gauntlet.targets.TargetSettings;

/**
 * {@code quarkus-rest-event-loop}: a non-blocking endpoint on the connection's event loop returns a
 * {@code Uni} that a Vert.x timer on that loop completes; no thread is held while a request waits.
 */
public final class QuarkusRestEventLoop implements HelloServer {
    private final QuarkusServer server = new QuarkusServer();

    @Override
    public boolean startsTwiceInOneJvm() {
        return QuarkusServer.STARTS_TWICE_IN_ONE_JVM;
    }

    @Override
    public int start(TargetSettings settings, RequestStats stats) throws Exception {
        return server.start(settings, stats, QuarkusServer.Style.EVENT_LOOP);
    }

    @Override
    public void stop() {
        server.stop();
    }
}
