package dev.gauntlet.targets.undertow;

import dev.gauntlet.targets.HelloContract;
import dev.gauntlet.targets.RequestStats;
import io.undertow.io.IoCallback;
import io.undertow.io.Sender;
import io.undertow.server.HttpHandler;
import io.undertow.server.HttpServerExchange;
import io.undertow.util.Headers;

import java.io.IOException;
import java.nio.ByteBuffer;

/** The root handler of the handler styles: routing, the {@code wait} parameter and the response; the style only waits. */
final class HelloHandler implements HttpHandler {

    /**
     * How a style waits {@code waitMs} and then runs {@code respond}; called on the thread that runs
     * the handler (the I/O thread, or a worker for the sync style, which dispatches first).
     */
    @FunctionalInterface
    interface Wait {
        void start(HttpServerExchange exchange, long waitMs, Runnable respond);
    }

    private final RequestStats stats;
    private final Wait wait;

    HelloHandler(RequestStats stats, Wait wait) {
        this.stats = stats;
        this.wait = wait;
    }

    @Override
    public void handleRequest(HttpServerExchange exchange) {
        if (!HelloContract.PATH.equals(exchange.getRequestPath())) {
            exchange.setStatusCode(404).endExchange();
            return;
        }
        long waitMs;
        try {
            waitMs = HelloContract.waitMs(exchange.getQueryString());
        } catch (IllegalArgumentException e) {
            exchange.setStatusCode(400).endExchange();
            return;
        }
        stats.begin();
        wait.start(exchange, waitMs, () -> respond(exchange));
    }

    /** Sends the body without blocking, from whichever thread the style completes on. */
    private void respond(HttpServerExchange exchange) {
        exchange.getResponseHeaders()
                .put(Headers.CONTENT_TYPE, HelloContract.CONTENT_TYPE)
                .put(Headers.CONTENT_LENGTH, HelloContract.BODY_BYTES.length);
        exchange.getResponseSender().send(ByteBuffer.wrap(HelloContract.BODY_BYTES), new IoCallback() {
            @Override
            public void onComplete(HttpServerExchange exchange, Sender sender) {
                stats.complete();
                IoCallback.END_EXCHANGE.onComplete(exchange, sender);
            }

            @Override
            public void onException(HttpServerExchange exchange, Sender sender, IOException exception) {
                stats.fail();
                IoCallback.END_EXCHANGE.onException(exchange, sender, exception);
            }
        });
    }
}
