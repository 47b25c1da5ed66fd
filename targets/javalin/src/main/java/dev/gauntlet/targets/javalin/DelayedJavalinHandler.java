package dev.gauntlet.targets.javalin;

import dev.gauntlet.targets.DelayedCompletion;
import dev.gauntlet.targets.HelloServer;
import dev.gauntlet.targets.RequestStats;
import dev.gauntlet.targets.TargetSettings;
import dev.gauntlet.targets.jetty.JettyConnectionFactories;

import java.util.function.Supplier;

/**
 * async-fjp and async-queue on Javalin: the handler returns an unfinished {@code ctx.future} with
 * the request stored in the style's {@link DelayedCompletion}, whose completion thread sets the
 * result and completes the future once the wait is over. Up to {@code asyncThreads} Jetty threads.
 */
abstract sealed class DelayedJavalinHandler implements HelloServer permits JavalinHandlerAsyncFjp, JavalinHandlerAsyncQueue {
    private final Supplier<DelayedCompletion> completions;
    private DelayedCompletion completion;
    private JavalinServer server;

    DelayedJavalinHandler(Supplier<DelayedCompletion> completions) {
        this.completions = completions;
    }

    @Override
    public final int start(TargetSettings settings, RequestStats stats) {
        completion = completions.get();
        server = JavalinServer.delayed(completion);
        return server.start(settings, stats);
    }

    @Override
    public final void stop() {
        if (server != null) {
            server.stop();
        }
        if (completion != null) {
            completion.close();
        }
    }
}
