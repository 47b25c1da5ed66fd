package dev.gauntlet.target.tomcat;

import dev.gauntlet.target.HelloContract;
import dev.gauntlet.target.RequestStats;
import jakarta.servlet.AsyncContext;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import java.io.IOException;

/** The servlet of the servlet styles, mapped to {@code /hello}: the {@code wait} parameter and the response; the style only waits. */
final class HelloServlet extends HttpServlet {

    /**
     * How a style waits {@code waitMs} and then runs {@code respond}, on the container's request
     * thread. An asynchronous style calls {@link #startAsync} first; {@code respond} then also
     * completes the request.
     */
    @FunctionalInterface
    interface Wait {
        void start(HttpServletRequest request, long waitMs, Runnable respond);
    }

    /** The blocking wait of the sync, virtual and async-dispatch styles, on whichever thread runs it. */
    static final Wait SLEEP = (request, waitMs, respond) -> {
        HelloContract.sleep(waitMs);
        respond.run();
    };

    private final transient RequestStats stats;
    private final transient Wait wait;

    HelloServlet(RequestStats stats, Wait wait) {
        this.stats = stats;
        this.wait = wait;
    }

    /** Puts the request in asynchronous mode with no timeout: the wait, at most an hour, ends it. */
    static AsyncContext startAsync(HttpServletRequest request) {
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
            // The output stream, not the writer: a writer would append a charset to the content type.
            response.setContentType(HelloContract.CONTENT_TYPE);
            response.setContentLength(HelloContract.BODY_BYTES.length);
            response.getOutputStream().write(HelloContract.BODY_BYTES);
            stats.complete();
        } catch (IOException e) {
            stats.fail();
        } finally {
            if (request.isAsyncStarted()) {
                request.getAsyncContext().complete();
            }
        }
    }
}
