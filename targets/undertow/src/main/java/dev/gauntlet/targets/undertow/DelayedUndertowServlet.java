package dev.gauntlet.target.undertow;

import dev.gauntlet.target.DelayedCompletion;
import dev.gauntlet.target.HelloServer;
import dev.gauntlet.target.RequestStats;
import dev.gauntlet.target.TargetSettings;
import dev.gauntlet.target.servlet.HelloServlet;

import java.util.function.Supplier;

/**
 * async-fjp and async-queue in Undertow's servlet container: the servlet starts async mode and
 * stores the request in the style's {@link DelayedCompletion}; the completion thread writes the
 * response and calls {@code AsyncContext.complete()}.
 */
abstract sealed class DelayedUndertowServlet implements HelloServer permits UndertowServletAsyncFjp, UndertowServletAsyncQueue {
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
