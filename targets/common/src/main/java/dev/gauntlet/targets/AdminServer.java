package dev.gauntlet.targets;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.gauntlet.hiccup.HiccupLog;
import dev.gauntlet.hiccup.JitActivity;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * The admin endpoint on its own port and thread, so it answers while the serving port is saturated:
 * {@code GET /stats}, {@code POST /stats/reset} (the stats and the hiccup log), {@code GET /jit} (the JIT's
 * time and queue: whether it has settled), {@code GET /hiccup}
 * (the hiccup log since the last reset) and {@code GET /settings}.
 */
final class AdminServer {
    private static final String JSON = "application/json";

    private final HttpServer server;
    private final ExecutorService executor = Executors.newSingleThreadExecutor(Thread.ofPlatform().name("admin").daemon().factory());

    /** {@code name} heads the hiccup log, so a log read later still says whose it is. */
    AdminServer(TargetSettings settings, RequestStats stats, HiccupLog hiccups, String name, int servingPort) throws IOException {
        server = HttpServer.create(new InetSocketAddress(settings.bind(), settings.adminPort()), 50);
        server.setExecutor(executor);
        server.createContext("/stats", exchange -> {
            String path = exchange.getRequestURI().getPath();
            String method = exchange.getRequestMethod();
            if (path.equals("/stats") && method.equals("GET")) {
                reply(exchange, 200, JSON, stats.snapshot().toJson());
            } else if (path.equals("/stats/reset") && method.equals("POST")) {
                stats.reset();
                hiccups.reset();
                reply(exchange, 200, JSON, stats.snapshot().toJson());
            } else {
                reply(exchange, 404, JSON, "{\"error\":\"GET /stats or POST /stats/reset\"}");
            }
        });
        server.createContext("/hiccup", exchange -> {
            if (exchange.getRequestURI().getPath().equals("/hiccup") && exchange.getRequestMethod().equals("GET")) {
                reply(exchange, 200, "text/plain", hiccups.text(name));
            } else {
                reply(exchange, 404, JSON, "{\"error\":\"GET /hiccup\"}");
            }
        });
        server.createContext("/jit", exchange -> {
            if (exchange.getRequestURI().getPath().equals("/jit") && exchange.getRequestMethod().equals("GET")) {
                reply(exchange, 200, JSON, JitActivity.now().toJson());
            } else {
                reply(exchange, 404, JSON, "{\"error\":\"GET /jit\"}");
            }
        });
        int adminPort = server.getAddress().getPort();
        String settingsJson = settings.withPorts(servingPort, adminPort).toJson();
        server.createContext("/settings", exchange -> reply(exchange, 200, JSON, settingsJson));
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

    private static void reply(HttpExchange exchange, int status, String contentType, String text) throws IOException {
        byte[] body = text.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", contentType);
        exchange.sendResponseHeaders(status, body.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(body);
        }
    }
}
