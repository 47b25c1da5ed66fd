package dev.gauntlet.targets.servlet;

import dev.gauntlet.targets.DelayedCompletion;
import dev.gauntlet.targets.HelloContract;
import dev.gauntlet.targets.RequestStats;
import jakarta.servlet.AsyncContext;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import java.io.IOException;
import java.util.function.Consumer;

/**
 * The servlet of every servlet target: the {@code wait} parameter, the stats and the response of
 * {@code GET /hello}; the factory picks how the wait passes. The container maps it to
 * {@link HelloContract#PATH} with async support on, and answers other paths with its own 404.
 *
 * <pre>{@code
 * Tomcat.addServlet(context, "hello", HelloServlet.sleeping(stats)).setAsyncSupported(true);
 * context.addServletMappingDecoded(HelloContract.PATH, "hello");
 * }</pre>
 *
 * <p>Written against Servlet 6.0, which the container provides (Tomcat 11, Jetty ee10, Undertow 2.3).
 */
public final class HelloServlet extends HttpServlet {

    /**
     * How a style waits {@code waitMs} and then runs {@code respond}, starting on the container's
     * request thread; an asynchronous style puts the request in async mode first and hands
     * {@code respond} its async context, which it completes (a synchronous style hands null).
     */
    @FunctionalInterface
    private interface Wait {
        void start(HttpServletRequest request, long waitMs, Consumer<AsyncContext> respond);
    }

    private final transient RequestStats stats;
    private final transient Wait wait;

    private HelloServlet(RequestStats stats, Wait wait) {
        this.stats = stats;
        this.wait = wait;
    }

    /** sync and virtual: sleeps on the container thread that called the servlet. */
    public static HelloServlet sleeping(RequestStats stats) {
        return new HelloServlet(stats, (request, waitMs, respond) -> HelloContract.sleepThen(waitMs, () -> respond.accept(null)));
    }

    /** async-dispatch: {@code startAsync}, then {@code AsyncContext.start} runs the sleep on the container's executor. */
    public static HelloServlet dispatching(RequestStats stats) {
        return new HelloServlet(stats, (request, waitMs, respond) -> {
            AsyncContext async = startAsync(request);
            async.start(() -> HelloContract.sleepThen(waitMs, () -> respond.accept(async)));
        });
    }

    /**
     * async-fjp, async-queue and async-timer: {@code startAsync}, then the completion thread writes and calls
     * {@code complete()}.
     */
    public static HelloServlet delayed(RequestStats stats, DelayedCompletion completion) {
        return new HelloServlet(stats, (request, waitMs, respond) -> {
            AsyncContext async = startAsync(request);
            completion.submit(waitMs, () -> respond.accept(async));
        });
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
        wait.start(request, waitMs, async -> respond(response, async));
    }

    /**
     * Writes the body and completes {@code async}, the context the style started (null: a synchronous one). The length is
     * left to the container, which sets it when it closes the response (the 5 bytes stay in its buffer until then): over
     * Tomcat's HTTP/2 a write that reaches a declared length ends the stream, and its request may be recycled and handed
     * to a new stream before this thread's {@code complete()}, which then ends that new stream early (CI saw a 500 after
     * 6 ms where 200 ms were asked).
     * Nothing here asks the request whether it is async, for the same reason.
     */
    private void respond(HttpServletResponse response, AsyncContext async) {
        try {
            // The output stream, not the writer: a writer would add a charset to the content type.
            response.setContentType(HelloContract.CONTENT_TYPE);
            response.getOutputStream().write(HelloContract.BODY_BYTES);
            stats.complete();
        } catch (IOException | RuntimeException e) {
            // A runtime exception too: on a completion thread it would otherwise leave the request uncounted.
            stats.fail();
        } finally {
            if (async != null) {
                async.complete();
            }
        }
    }
}
