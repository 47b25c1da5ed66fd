package dev.gauntlet.targets.jetty;

import dev.gauntlet.targets.HelloServer;
import dev.gauntlet.targets.RequestStats;
import dev.gauntlet.targets.TargetSettings;

/**
 * {@link JettyTargets#handlerVirtual()} by {@code new}, for loadgen's tests, which start it in their own JVM as a
 * server of every protocol. The catalogue names the factory; this class goes once those tests call it.
 */
public final class JettyHandlerVirtual implements HelloServer {
    private final HelloServer server = JettyTargets.handlerVirtual();

    @Override
    public int start(TargetSettings settings, RequestStats stats) throws Exception {
        return server.start(settings, stats);
    }

    @Override
    public void stop() throws Exception {
        server.stop();
    }
}
