package dev.gauntlet.targets.jetty;

import dev.gauntlet.targets.DelayedCompletion;
import dev.gauntlet.targets.HelloContract;
import dev.gauntlet.targets.RequestStats;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

import java.nio.ByteBuffer;

/**
 * The core {@link Handler} of the handler styles: {@code /hello} with its {@code wait}; any other
 * path is left unhandled, so the server answers 404. The style decides only how the wait passes.
 */
final class HelloHandler extends Handler.Abstract {

    /** How a style waits {@code waitMs} and then runs {@code respond}. */
    @FunctionalInterface
    private interface Wait {
        void start(long waitMs, Runnable respond);
    }

    private final RequestStats stats;
    private final Wait wait;

    private HelloHandler(InvocationType invocationType, RequestStats stats, Wait wait) {
        super(invocationType);
        this.stats = stats;
        this.wait = wait;
    }

    /**
     * sync and virtual: a blocking handler, so Jetty runs it on a pool thread (a virtual one when
     * the pool has a virtual-threads executor), where it sleeps.
     */
    static HelloHandler sleeping(RequestStats stats) {
        return new HelloHandler(InvocationType.BLOCKING, stats, HelloContract::sleepThen);
    }

    /**
     * async-fjp and async-queue: Jetty's native asynchrony. {@code handle} returns at once with the
     * request stored, and the completion thread writes the response and so completes the
     * {@link Callback}. Non-blocking, so Jetty may call it on the selector thread without a dispatch.
     */
    static HelloHandler delayed(RequestStats stats, DelayedCompletion completion) {
        return new HelloHandler(InvocationType.NON_BLOCKING, stats, completion::submit);
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) {
        if (!HelloContract.PATH.equals(Request.getPathInContext(request))) {
            return false;
        }
        long waitMs;
        try {
            waitMs = HelloContract.waitMs(request.getHttpURI().getQuery());
        } catch (IllegalArgumentException e) {
            Response.writeError(request, response, callback, 400);
            return true;
        }
        stats.begin();
        wait.start(waitMs, () -> respond(response, callback));
        return true;
    }

    private void respond(Response response, Callback callback) {
        try {
            response.getHeaders().put(HttpHeader.CONTENT_TYPE, HelloContract.CONTENT_TYPE);
            response.getHeaders().put(HttpHeader.CONTENT_LENGTH, HelloContract.BODY_BYTES.length);
            response.write(true, ByteBuffer.wrap(HelloContract.BODY_BYTES), callback);
            stats.complete();
        } catch (RuntimeException e) {
            stats.fail();
            callback.failed(e);
        }
    }
}
