package dev.gauntlet.loadgen.measure;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gauntlet.api.AdminProtocol;
import dev.gauntlet.api.AdminToken;
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
 * does not answer gives null: its figures are then unknown, and the run goes on. The reset shows
 * the admin token ({@link AdminToken#forClient()}: the environment's, which the runner sets, else
 * the user's); only the reset, so reads never send it.
 */
public final class AdminClient implements Supplier<RunSummary.ServerStats> {
    private static final int TIMEOUT_MS = 2_000;

    private final URI adminUrl;
    private final String token;

    /** @param token what a reset shows; null: none (the target refuses the reset) */
    public AdminClient(URI adminUrl, String token) {
        this.adminUrl = adminUrl;
        this.token = token;
    }

    /** A target answered {@code 403} to a reset: no token, or not its own. */
    static final class ResetRefused extends Exception {
        ResetRefused(String message) {
            super(message);
        }
    }

    /** {@code GET /stats}; null when the target does not answer. */
    @Override
    public RunSummary.ServerStats get() {
        return stats(call("GET", AdminProtocol.STATS));
    }

    /**
     * {@code POST /stats/reset}: the target's counts (its maximum in flight above all) start again now.
     *
     * @throws ResetRefused when the target refuses this client's token (or its lack of one)
     */
    RunSummary.ServerStats resetStats() throws ResetRefused {
        try {
            HttpURLConnection connection = open("POST", AdminProtocol.STATS_RESET);
            if (token != null) {
                connection.setRequestProperty(AdminProtocol.TOKEN_HEADER, AdminToken.bearer(token));
            }
            if (connection.getResponseCode() == HttpURLConnection.HTTP_FORBIDDEN) {
                connection.disconnect();
                throw new ResetRefused("the target at " + adminUrl + " refused to reset its counts (403): "
                        + (token == null ? "no admin token here" : "not its admin token") + "; set " + AdminToken.VARIABLE
                        + ", or start it with ./gauntlet target, whose token ./gauntlet load finds in " + AdminToken.userFile());
            }
            return stats(read(connection));
        } catch (IOException e) {
            return null;
        }
    }

    /** {@code GET /capacity}: the target's capacity log since its last reset, as CSV; null when it has none. */
    String capacityLog() {
        return call("GET", AdminProtocol.CAPACITY);
    }

    /** {@code GET /hiccup}: the target's hiccup interval log since its last reset; null when it has none. */
    String hiccupLog() {
        return call("GET", AdminProtocol.HICCUP);
    }

    /** The target's JIT activity ({@code GET /jit}); null when it does not answer or has no such endpoint. */
    JitActivity.Snapshot jit() {
        String json = call("GET", AdminProtocol.JIT);
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
            return read(open(method, path));
        } catch (IOException e) {
            return null;
        }
    }

    private HttpURLConnection open(String method, String path) throws IOException {
        HttpURLConnection connection = (HttpURLConnection) adminUrl.resolve(path).toURL().openConnection();
        connection.setRequestMethod(method);
        connection.setConnectTimeout(TIMEOUT_MS);
        connection.setReadTimeout(TIMEOUT_MS);
        return connection;
    }

    private static String read(HttpURLConnection connection) throws IOException {
        try (InputStream in = connection.getInputStream()) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } finally {
            connection.disconnect();
        }
    }
}
