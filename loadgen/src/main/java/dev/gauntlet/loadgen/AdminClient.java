package dev.gauntlet.loadgen;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gauntlet.api.Json;
import dev.gauntlet.api.RunSummary;
import dev.gauntlet.hiccup.JitActivity;

import java.io.IOException;
import java.io.InputStream;
import java.net.HttpURLConnection;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.function.Supplier;

/**
 * Talks to a Gauntlet target's admin port, which answers even when the serving port is
 * saturated: {@code GET /stats}, {@code POST /stats/reset} and {@code GET /hiccup}. A target that
 * does not answer gives null: its figures are then unknown, and the run goes on.
 */
final class AdminClient implements Supplier<RunSummary.ServerStats> {
    private static final int TIMEOUT_MS = 2_000;

    private final URI adminUrl;

    AdminClient(URI adminUrl) {
        this.adminUrl = adminUrl;
    }

    /** {@code GET /stats}; null when the target does not answer. */
    @Override
    public RunSummary.ServerStats get() {
        return stats(call("GET", "/stats"));
    }

    /** {@code POST /stats/reset}: the target's counts (its maximum in flight above all) start again now. */
    RunSummary.ServerStats resetStats() {
        return stats(call("POST", "/stats/reset"));
    }

    /** {@code GET /hiccup}: the target's hiccup interval log since its last reset; null when it has none. */
    String hiccupLog() {
        return call("GET", "/hiccup");
    }

    /** The target's JIT activity ({@code GET /jit}); null when it does not answer or has no such endpoint. */
    JitActivity.Snapshot jit() {
        String json = call("GET", "/jit");
        if (json == null) {
            return null;
        }
        try {
            JsonNode jit = Json.json().readTree(json);
            return new JitActivity.Snapshot(jit.path("compileMs").asLong(-1), jit.path("queued").asInt(-1));
        } catch (IOException e) {
            return null;
        }
    }

    private static RunSummary.ServerStats stats(String json) {
        if (json == null) {
            return null;
        }
        try {
            JsonNode stats = Json.json().readTree(json);
            return new RunSummary.ServerStats(stats.path("started").asLong(), stats.path("completed").asLong(),
                    stats.path("inFlight").asLong(), stats.path("maxInFlight").asLong(), stats.path("errors").asLong(),
                    stats.path("cpuMs").asLong(), stats.path("cpus").asInt(), stats.path("uptimeMs").asLong());
        } catch (IOException e) {
            return null;
        }
    }

    private String call(String method, String path) {
        try {
            HttpURLConnection connection = (HttpURLConnection) adminUrl.resolve(path).toURL().openConnection();
            connection.setRequestMethod(method);
            connection.setConnectTimeout(TIMEOUT_MS);
            connection.setReadTimeout(TIMEOUT_MS);
            try (InputStream in = connection.getInputStream()) {
                return new String(in.readAllBytes(), StandardCharsets.UTF_8);
            } finally {
                connection.disconnect();
            }
        } catch (IOException e) {
            return null;
        }
    }
}
