package dev.gauntlet.targets.vertx;

import dev.gauntlet.targets.DelayedCompletion;
import dev.gauntlet.targets.HelloServer;
import dev.gauntlet.targets.RequestStats;
import dev.gauntlet.targets.TargetSettings;
import io.vertx.core.ThreadingModel;

import java.util.function.Supplier;

/**
 * async-fjp and async-queue on Vert.x core: the event-loop handler stores the request in the
 * style's {@link DelayedCompletion}; the completion thread hands the response back to the
 * request's event loop ({@code runOnContext}).
 */
abstract sealed class DelayedVertxCore implements HelloServer permits VertxCoreAsyncFjp, VertxCoreAsyncQueue {
    private final VertxServer server = new VertxServer();
    private final Supplier<DelayedCompletion> completions;
    private DelayedCompletion completion;

    DelayedVertxCore(Supplier<DelayedCompletion> completions) {
        this.completions = completions;
    }

    @Override
    public final int start(TargetSettings settings, RequestStats stats) throws Exception {
        DelayedCompletion delayed = completions.get();
        completion = delayed;
        return server.start(settings, stats, ThreadingModel.EVENT_LOOP, (context, waitMs, respond) ->
                delayed.submit(waitMs, () -> context.runOnContext(v -> respond.run())));
    }

    @Override
    public final void stop() throws Exception {
        server.stop();
        if (completion != null) {
            completion.close();
        }
    }
}
