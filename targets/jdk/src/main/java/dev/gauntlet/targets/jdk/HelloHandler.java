package dev.gauntlet.targets.jdk;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import dev.gauntlet.targets.HelloContract;
import dev.gauntlet.targets.RequestStats;

import java.io.IOException;
import java.io.OutputStream;

/** The blocking hello handler of every JDK style; the executor it runs on makes the style. */
final class HelloHandler implements HttpHandler {
    private final RequestStats stats;

    HelloHandler(RequestStats stats) {
        this.stats = stats;
    }

    @Override
    public void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            // A context matches by path prefix ("/hello" would take "/hellos"), so the server has
            // one root context and the path is checked here.
            if (!exchange.getRequestURI().getRawPath().equals(HelloContract.PATH)) {
                exchange.sendResponseHeaders(404, -1);
                return;
            }
            long waitMs;
            try {
                waitMs = HelloContract.waitMs(exchange.getRequestURI().getRawQuery());
            } catch (IllegalArgumentException e) {
                exchange.sendResponseHeaders(400, -1);
                return;
            }
            stats.begin();
            try {
                HelloContract.sleep(waitMs);
                exchange.getResponseHeaders().set("Content-Type", HelloContract.CONTENT_TYPE);
                exchange.sendResponseHeaders(200, HelloContract.BODY_BYTES.length);
                try (OutputStream body = exchange.getResponseBody()) {
                    body.write(HelloContract.BODY_BYTES);
                }
                stats.complete();
            } catch (IOException | RuntimeException e) {
                stats.fail();
                throw e;
            }
        }
    }
}
