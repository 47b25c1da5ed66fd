package dev.gauntlet.target.jetty;

import dev.gauntlet.target.DelayedCompletion;
import dev.gauntlet.target.HelloContract;
import dev.gauntlet.target.RequestStats;
import jakarta.servlet.AsyncContext;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.eclipse.jetty.server.Handler;

import java.io.IOException;

/**
 * The servlet of the servlet styles, mapped to {@code /hello} in an ee10 servlet context (other
 * paths: the context's 404). The style decides only how the wait passes.
 */
final class HelloServlet extends HttpServlet {

    /**
     * How a style waits {@code waitMs} and then runs {@code respond}, starting on the container's
     * request thread; an asynchronous style puts the request in async mode first, and
     * {@code respond} then also completes it.
     */
    @FunctionalInterface
    private interface Wait {
        void start(HttpServletRequest request, long waitMs, Runnable respond);
    }

    private final transient RequestStats stats;
    private final transient Wait wait;

    private HelloServlet(RequestStats stats, Wait wait) {
        this.stats = stats;
        this.wait = wait;
    }

    /** sync and virtual: sleeps on the container thread that called the servlet. */
    static Handler sleeping(RequestStats stats) {
        return context(new HelloServlet(stats, (request, waitMs, respond) -> sleepThen(waitMs, respond)));
    }

    /** async-dispatch: {@code startAsync}, then {@code AsyncContext.start} runs the sleep on Jetty's thread pool. */
    static Handler dispatching(RequestStats stats) {
        return context(new HelloServlet(stats, (request, waitMs, respond) ->
                startAsync(request).start(() -> sleepThen(waitMs, respond))));
    }

    /** async-fjp and async-queue: {@code startAsync}, then the completion writes and calls {@code complete()}. */
    static Handler delayed(RequestStats stats, DelayedCompletion completion) {
        return context(new HelloServlet(stats, (request, waitMs, respond) -> {
            startAsync(request);
            completion.submit(waitMs, respond);
        }));
    }

    private static Handler context(HelloServlet servlet) {
        ServletContextHandler context = new ServletContextHandler();
        ServletHolder holder = new ServletHolder(servlet);
        holder.setAsyncSupported(true);
        context.addServlet(holder, HelloContract.PATH);
        return context;
    }

    private static void sleepThen(long waitMs, Runnable respond) {
        HelloContract.sleep(waitMs);
        respond.run();
    }

    /** Async mode with no timeout: the wait, at most an hour, ends it. */
    private static AsyncContext startAsync(HttpServletRequest request) {
        AsyncContext async = request.startAsync();
        async.setTimeout(0);
        return async;
    }

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
        long waitMs;
        try {
            waitMs = HelloContract.waitMs(request.getQueryString());
        } catch (IllegalArgumentException e) {
            response.sendError(HttpServletResponse.SC_BAD_REQUEST);
            return;
        }
        stats.begin();
        wait.start(request, waitMs, () -> respond(request, response));
    }

    private void respond(HttpServletRequest request, HttpServletResponse response) {
        try {
            // The output stream, not the writer: a writer would add a charset to the content type.
            response.setContentType(HelloContract.CONTENT_TYPE);
            response.setContentLength(HelloContract.BODY_BYTES.length);
            response.getOutputStream().write(HelloContract.BODY_BYTES);
            stats.complete();
        } catch (IOException | RuntimeException e) {
            stats.fail();
        } finally {
            if (request.isAsyncStarted()) {
                request.getAsyncContext().complete();
            }
        }
    }
}
