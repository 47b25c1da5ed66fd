package dev.gauntlet.target.undertow;

import dev.gauntlet.target.DelayedCompletion;
import dev.gauntlet.target.HelloServer;
import dev.gauntlet.target.RequestStats;
import dev.gauntlet.target.TargetSettings;
import io.undertow.util.SameThreadExecutor;

/**
 * {@code undertow-handler-async-fjp}: the exchange is dispatched to {@code SameThreadExecutor},
 * which only keeps it open after the handler returns, and stored in
 * {@link DelayedCompletion#viaForkJoinPool()}; the completion thread sends the response with the
 * exchange's non-blocking sender.
 */
public final class UndertowHandlerAsyncFjp implements HelloServer {
    private final UndertowServer server = new UndertowServer();
    private final DelayedCompletion completion = DelayedCompletion.viaForkJoinPool();

    @Override
    public int start(TargetSettings settings, RequestStats stats) {
        return server.start(settings, UndertowServer.Threads.ASYNC, new HelloHandler(stats,
                (exchange, waitMs, respond) -> exchange.dispatch(SameThreadExecutor.INSTANCE,
                        () -> completion.submit(waitMs, respond))));
    }

    @Override
    public void stop() {
        server.stop();
        completion.close();
    }
}
