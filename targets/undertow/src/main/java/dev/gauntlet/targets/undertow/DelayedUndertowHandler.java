package dev.gauntlet.targets.undertow;

import dev.gauntlet.targets.DelayedCompletion;
import dev.gauntlet.targets.HelloServer;
import dev.gauntlet.targets.RequestStats;
import dev.gauntlet.targets.TargetSettings;
import io.undertow.util.SameThreadExecutor;

import java.util.function.Supplier;

/**
 * async-fjp and async-queue with an Undertow {@code HttpHandler}: the exchange is dispatched to
 * {@code SameThreadExecutor}, which only keeps it open after the handler returns, and stored in the
 * style's {@link DelayedCompletion}; the completion thread sends the response with the exchange's
 * non-blocking sender.
 */
abstract sealed class DelayedUndertowHandler implements HelloServer permits UndertowHandlerAsyncFjp, UndertowHandlerAsyncQueue {
    private final UndertowServer server = new UndertowServer();
    private final Supplier<DelayedCompletion> completions;
    private DelayedCompletion completion;

    DelayedUndertowHandler(Supplier<DelayedCompletion> completions) {
        this.completions = completions;
    }

    @Override
    public final int start(TargetSettings settings, RequestStats stats) throws Exception {
        DelayedCompletion delayed = completions.get();
        completion = delayed;
        return server.start(settings, UndertowServer.Threads.ASYNC, new HelloHandler(stats,
                (exchange, waitMs, respond) -> exchange.dispatch(SameThreadExecutor.INSTANCE,
                        () -> delayed.submit(waitMs, respond))));
    }

    @Override
    public final void stop() {
        server.stop();
        if (completion != null) {
            completion.close();
        }
    }
}
