package dev.gauntlet.target.undertow;

import dev.gauntlet.target.DelayedCompletion;
import dev.gauntlet.target.HelloServer;
import dev.gauntlet.target.RequestStats;
import dev.gauntlet.target.TargetSettings;

/**
 * {@code undertow-servlet-async-queue}: the servlet starts async mode and stores the request in
 * {@link DelayedCompletion#viaQueue()}; the completion thread writes the response and calls
 * {@code AsyncContext.complete()}.
 */
public final class UndertowServletAsyncQueue implements HelloServer {
    private final UndertowServletServer server = new UndertowServletServer();
    private final DelayedCompletion completion = DelayedCompletion.viaQueue();

    @Override
    public int start(TargetSettings settings, RequestStats stats) throws Exception {
        return server.start(settings, UndertowServer.Threads.ASYNC, null, new HelloServlet(stats, (request, waitMs, respond) -> {
            HelloServlet.startAsync(request);
            completion.submit(waitMs, respond);
        }));
    }

    @Override
    public void stop() throws Exception {
        server.stop();
        completion.close();
    }
}
