package dev.gauntlet.targets.micronaut;

import dev.gauntlet.targets.HelloServer;
import dev.gauntlet.targets.RequestStats;
import dev.gauntlet.targets.TargetSettings;

import java.io.IOException;
import java.security.GeneralSecurityException;

/**
 * A Micronaut target: the server, started with its style's controller, is all a style adds to
 * {@link MicronautServer}; the controller itself is a nested class of the style, so that it is the
 * only one of the three that the style's property lets Micronaut create.
 */
abstract sealed class MicronautTarget implements HelloServer permits MicronautHttpEventLoop, MicronautHttpSync, MicronautHttpVirtual {
    private final MicronautServer server;

    MicronautTarget(MicronautServer server) {
        this.server = server;
    }

    @Override
    public final int start(TargetSettings settings, RequestStats stats) throws GeneralSecurityException, IOException {
        return server.start(settings, stats);
    }

    @Override
    public final void stop() throws InterruptedException {
        server.stop();
    }
}
