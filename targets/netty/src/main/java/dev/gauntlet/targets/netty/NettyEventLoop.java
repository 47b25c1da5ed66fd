package dev.gauntlet.targets.netty;

import dev.gauntlet.targets.HelloServer;
import dev.gauntlet.targets.RequestStats;
import dev.gauntlet.targets.TargetSettings;

import javax.net.ssl.SSLException;

/**
 * {@link NettyTargets#eventLoop()} by {@code new}, for loadgen's tests, which start it in their own JVM and stop it
 * where no checked exception may be thrown. The catalogue names the factory; this class goes once those tests call it.
 */
public final class NettyEventLoop implements HelloServer {
    private final NettyServer server = NettyTargets.eventLoopServer();

    @Override
    public int start(TargetSettings settings, RequestStats stats) throws InterruptedException, SSLException {
        return server.start(settings, stats);
    }

    @Override
    public void stop() {
        server.stop();
    }
}
