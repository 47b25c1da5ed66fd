package dev.gauntlet.targets;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.gauntlet.api.AdminProtocol;
import dev.gauntlet.api.AdminToken;
import dev.gauntlet.hiccup.JitActivity;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The admin endpoint ({@link AdminProtocol}) on its own port and thread, so it answers while the
 * serving port is saturated: {@code GET /stats}, {@code POST /stats/reset} (the stats, the hiccup
 * log and the capacity log), {@code GET /jit} (the JIT's time and queue: whether it has settled), {@code GET /hiccup}
 * and {@code GET /capacity} (the hiccup and capacity logs since the last reset) and {@code GET /settings}. It listens on
 * {@link TargetSettings#adminBind()}, loopback unless told otherwise.
 *
 * <p>Reads are open; the reset, the one request that changes what a run measures, needs the admin
 * token the target was started with ({@code Authorization: Bearer TOKEN}, token from the
 * environment variable {@value AdminToken#VARIABLE}), else {@code 403}: another user on the host must
 * not be able to wipe a run's counts in its middle. A target started without a token refuses
 * every reset rather than accept anyone's.
 */
final class AdminServer {
    private static final String JSON = "application/json";

    private final HttpServer server;
    private final ExecutorService executor = Executors.newSingleThreadExecutor(Thread.ofPlatform().name("admin").daemon().factory());

    /**
     * @param name  heads the hiccup log, so a log read later still says whose it is
     * @param token what a reset must show; null: no reset is accepted
     */
    AdminServer(TargetSettings settings, RequestStats stats, PlatformLogs platform, String name, int servingPort, String token)
            throws IOException {
        byte[] authorization = token == null ? null : AdminToken.bearer(token).getBytes(StandardCharsets.UTF_8);
        server = HttpServer.create(new InetSocketAddress(settings.adminBind(), settings.adminPort()), 50);
        server.setExecutor(executor);
        server.createContext(AdminProtocol.STATS, exchange -> {
            String path = exchange.getRequestURI().getPath();
            String method = exchange.getRequestMethod();
            if (path.equals(AdminProtocol.STATS) && method.equals("GET")) {
                reply(exchange, 200, JSON, stats.snapshot().toJson());
            } else if (path.equals(AdminProtocol.STATS_RESET) && method.equals("POST") && !shows(exchange, authorization)) {
                reply(exchange, 403, JSON, authorization == null
                        ? "{\"error\":\"this target was started without " + AdminToken.VARIABLE + ": it accepts no reset\"}"
                        : "{\"error\":\"POST " + AdminProtocol.STATS_RESET + " needs the target's admin token: "
                        + AdminProtocol.TOKEN_HEADER + ": " + AdminToken.bearer("TOKEN") + "\"}");
            } else if (path.equals(AdminProtocol.STATS_RESET) && method.equals("POST")) {
                stats.reset();
                platform.reset();
                reply(exchange, 200, JSON, stats.snapshot().toJson());
            } else {
                reply(exchange, 404, JSON, "{\"error\":\"GET " + AdminProtocol.STATS + " or POST " + AdminProtocol.STATS_RESET + "\"}");
            }
        });
        server.createContext(AdminProtocol.HICCUP, exchange -> {
            if (exchange.getRequestURI().getPath().equals(AdminProtocol.HICCUP) && exchange.getRequestMethod().equals("GET")) {
                reply(exchange, 200, "text/plain", platform.hiccups().text(name));
            } else {
                reply(exchange, 404, JSON, "{\"error\":\"GET " + AdminProtocol.HICCUP + "\"}");
            }
        });
        server.createContext(AdminProtocol.JIT, exchange -> {
            if (exchange.getRequestURI().getPath().equals(AdminProtocol.JIT) && exchange.getRequestMethod().equals("GET")) {
                reply(exchange, 200, JSON, JitActivity.now().toJson());
            } else {
                reply(exchange, 404, JSON, "{\"error\":\"GET " + AdminProtocol.JIT + "\"}");
            }
        });
        server.createContext(AdminProtocol.CAPACITY, exchange -> {
            if (exchange.getRequestURI().getPath().equals(AdminProtocol.CAPACITY) && exchange.getRequestMethod().equals("GET")) {
                reply(exchange, 200, "text/csv", platform.capacity().text());
            } else {
                reply(exchange, 404, JSON, "{\"error\":\"GET " + AdminProtocol.CAPACITY + "\"}");
            }
        });
        server.createContext(AdminProtocol.RECORDING, exchange -> serveRecording(exchange, authorization));
        int adminPort = server.getAddress().getPort();
        String settingsJson = settings.withPorts(servingPort, adminPort).toJson();
        server.createContext(AdminProtocol.SETTINGS, exchange -> reply(exchange, 200, JSON, settingsJson));
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

    /**
     * {@code GET /recording?begin=MS&end=MS}: a window of the target's recording, for a runner that cannot attach
     * {@code jcmd} to it. Behind the token: a copy of up to the recording's cap is work for the target's JVM.
     */
    private static void serveRecording(HttpExchange exchange, byte[] authorization) throws IOException {
        String query = exchange.getRequestURI().getQuery();
        Matcher window = query == null ? null
                : Pattern.compile("begin=(\\d{1,15})&end=(\\d{1,15})").matcher(query);
        if (!exchange.getRequestURI().getPath().equals(AdminProtocol.RECORDING) || !exchange.getRequestMethod().equals("GET")
                || window == null || !window.matches()) {
            reply(exchange, 404, JSON, "{\"error\":\"GET " + AdminProtocol.RECORDING + "?begin=EPOCH_MS&end=EPOCH_MS\"}");
        } else if (!shows(exchange, authorization)) {
            reply(exchange, 403, JSON, "{\"error\":\"" + AdminProtocol.RECORDING + " needs the target's admin token\"}");
        } else {
            Optional<Long> recording = RecordingWindow.recordingId();
            if (recording.isEmpty()) {
                reply(exchange, 404, JSON, "{\"error\":\"this target records no JFR recording named "
                        + RecordingWindow.RECORDING + "\"}");
                return;
            }
            exchange.getResponseHeaders().set("Content-Type", "application/octet-stream");
            exchange.sendResponseHeaders(200, 0);
            try (OutputStream out = exchange.getResponseBody()) {
                RecordingWindow.copy(recording.get(), Instant.ofEpochMilli(Long.parseLong(window.group(1))),
                        Instant.ofEpochMilli(Long.parseLong(window.group(2))), out);
            }
        }
    }

    /** Compared in constant time, so the time of a refusal does not tell how much of a guess was right. */
    private static boolean shows(HttpExchange exchange, byte[] authorization) {
        String shown = exchange.getRequestHeaders().getFirst(AdminProtocol.TOKEN_HEADER);
        return authorization != null && shown != null
                && MessageDigest.isEqual(shown.getBytes(StandardCharsets.UTF_8), authorization);
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
