package dev.gauntlet.targets.vertx;

import dev.gauntlet.targets.HelloContract;
import dev.gauntlet.targets.RequestStats;
import io.vertx.core.Context;
import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;

/**
 * The target contract as a Vert.x request handler: routes the request, counts it, hands the wait
 * to the style's {@link Wait} and ends the response with pre-built headers and body once the wait
 * is over. Vert.x itself adds no {@code Date} or {@code Server} header, and answers keep-alive as
 * HTTP/1.1 requires.
 */
final class HelloHandler implements Handler<HttpServerRequest> {

    /** How a style waits: {@code respond} is to run on {@code context} once {@code waitMs} have passed. */
    @FunctionalInterface
    interface Wait {
        void await(Context context, long waitMs, Runnable respond);
    }

    private static final CharSequence CONTENT_TYPE = HttpHeaders.createOptimized("Content-Type");
    private static final CharSequence CONTENT_LENGTH = HttpHeaders.createOptimized("Content-Length");
    private static final CharSequence TEXT_PLAIN = HttpHeaders.createOptimized(HelloContract.CONTENT_TYPE);
    private static final CharSequence BODY_LENGTH = HttpHeaders.createOptimized(String.valueOf(HelloContract.BODY_BYTES.length));
    private static final Buffer BODY = Buffer.buffer(HelloContract.BODY_BYTES);

    private final RequestStats stats;
    private final Wait wait;

    HelloHandler(RequestStats stats, Wait wait) {
        this.stats = stats;
        this.wait = wait;
    }

    @Override
    public void handle(HttpServerRequest request) {
        HttpServerResponse response = request.response();
        if (!HelloContract.PATH.equals(request.path())) {
            response.setStatusCode(404).end();
            return;
        }
        if (request.method() != HttpMethod.GET) {
            response.setStatusCode(405).end();
            return;
        }
        long waitMs;
        try {
            waitMs = HelloContract.waitMs(request.query());
        } catch (IllegalArgumentException e) {
            response.setStatusCode(400).end();
            return;
        }
        stats.begin();
        wait.await(Vertx.currentContext(), waitMs, () -> respond(response));
    }

    private void respond(HttpServerResponse response) {
        if (response.closed()) {
            stats.fail();
            return;
        }
        response.putHeader(CONTENT_TYPE, TEXT_PLAIN).putHeader(CONTENT_LENGTH, BODY_LENGTH).end(BODY);
        stats.complete();
    }
}
