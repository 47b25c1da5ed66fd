package dev.gauntlet.targets.undertow;

import dev.gauntlet.targets.HelloServer;
import dev.gauntlet.targets.RequestStats;
import dev.gauntlet.targets.TargetSettings;
import io.undertow.util.SameThreadExecutor;

import java.util.concurrent.TimeUnit;

/**
 * {@code undertow-handler-event-loop}: the handler never leaves the XNIO I/O thread; the wait is a
 * timer on that thread ({@code XnioIoThread.executeAfter}) that sends the response.
 */
public final class UndertowHandlerEventLoop implements HelloServer {
    private final UndertowServer server = new UndertowServer();

    @Override
    public int start(TargetSettings settings, RequestStats stats) throws Exception {
        return server.start(settings, UndertowServer.Threads.ASYNC, new HelloHandler(stats,
                (exchange, waitMs, respond) -> exchange.dispatch(SameThreadExecutor.INSTANCE,
                        () -> exchange.getIoThread().executeAfter(respond, waitMs, TimeUnit.MILLISECONDS))));
    }

    @Override
    public void stop() {
        server.stop();
    }
}
