package dev.gauntlet.targets;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * The admin endpoint on its own port and thread, so it answers while the serving port is saturated:
 * {@code GET /stats}, {@code POST /stats/reset}, {@code GET /settings}.
 */
final class AdminServer {
    private final HttpServer server;
    private final ExecutorService executor = Executors.newSingleThreadExecutor(Thread.ofPlatform().name("admin").daemon().factory());

    AdminServer(TargetSettings settings, RequestStats stats, int servingPort) throws IOException {
        server = HttpServer.create(new InetSocketAddress(settings.bind(), settings.adminPort()), 50);
        server.setExecutor(executor);
        server.createContext("/stats", exchange -> {
            String path = exchange.getRequestURI().getPath();
            String method = exchange.getRequestMethod();
            if (path.equals("/stats") && method.equals("GET")) {
                reply(exchange, 200, stats.snapshot().toJson());
            } else if (path.equals("/stats/reset") && method.equals("POST")) {
                stats.reset();
                reply(exchange, 200, stats.snapshot().toJson());
            } else {
                reply(exchange, 404, "{\"error\":\"GET /stats or POST /stats/reset\"}");
            }
        });
        int adminPort = server.getAddress().getPort();
        String settingsJson = settings.withPorts(servingPort, adminPort).toJson();
        server.createContext("/settings", exchange -> reply(exchange, 200, settingsJson));
    }

    void start() {
        server.start();
    }

    int port() {
        return server.getAddress().getPort();
    }

    void stop() {
        server.stop(0);
        executor.shutdownNow();
    }

    private static void reply(HttpExchange exchange, int status, String json) throws IOException {
        byte[] body = json.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", "application/json");
        exchange.sendResponseHeaders(status, body.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(body);
        }
    }
}
