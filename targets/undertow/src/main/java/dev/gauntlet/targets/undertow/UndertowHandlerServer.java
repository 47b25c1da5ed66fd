package dev.gauntlet.targets.undertow;

import dev.gauntlet.targets.HelloServer;
import dev.gauntlet.targets.RequestStats;
import dev.gauntlet.targets.TargetSettings;
import io.undertow.server.HttpHandler;

import java.security.GeneralSecurityException;
import java.util.function.Function;

/** The handler styles of {@link UndertowTargets}: an {@link UndertowServer} with the style's root handler. */
final class UndertowHandlerServer implements HelloServer {
    private final UndertowServer server = new UndertowServer();
    private final UndertowServer.Threads threads;
    private final Function<RequestStats, HttpHandler> root;

    UndertowHandlerServer(UndertowServer.Threads threads, Function<RequestStats, HttpHandler> root) {
        this.threads = threads;
        this.root = root;
    }

    @Override
    public int start(TargetSettings settings, RequestStats stats) throws GeneralSecurityException {
        return server.start(settings, threads, root.apply(stats));
    }

    @Override
    public void stop() {
        server.stop();
    }
}
