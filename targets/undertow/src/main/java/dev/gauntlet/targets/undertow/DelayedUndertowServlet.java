package dev.gauntlet.targets.undertow;

import dev.gauntlet.targets.DelayedCompletion;
import dev.gauntlet.targets.HelloServer;
import dev.gauntlet.targets.RequestStats;
import dev.gauntlet.targets.TargetSettings;
import dev.gauntlet.targets.servlet.HelloServlet;

import java.util.function.Supplier;

/**
 * async-fjp, async-queue and async-timer in Undertow's servlet container: the servlet starts async
 * mode and hands the request to the style's {@link DelayedCompletion}; the completion thread writes the
 * response and calls {@code AsyncContext.complete()}.
 */
abstract sealed class DelayedUndertowServlet implements HelloServer permits UndertowServletAsyncFjp, UndertowServletAsyncQueue, UndertowServletAsyncTimer {
    private final UndertowServletServer server = new UndertowServletServer();
    private final Supplier<DelayedCompletion> completions;
    private DelayedCompletion completion;

    DelayedUndertowServlet(Supplier<DelayedCompletion> completions) {
        this.completions = completions;
    }

    @Override
    public final int start(TargetSettings settings, RequestStats stats) throws Exception {
        completion = completions.get();
        return server.start(settings, UndertowServer.Threads.ASYNC, null, HelloServlet.delayed(stats, completion));
    }

    @Override
    public final void stop() throws Exception {
        server.stop();
        if (completion != null) {
            completion.close();
        }
    }
}
