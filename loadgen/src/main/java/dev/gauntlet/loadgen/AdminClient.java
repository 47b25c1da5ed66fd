package dev.gauntlet.loadgen;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gauntlet.api.Json;
import dev.gauntlet.api.RunSummary;

import java.io.IOException;
import java.io.InputStream;
import java.net.HttpURLConnection;
import java.net.URI;
import java.util.function.Supplier;

/**
 * Reads a Gauntlet target's {@code GET /stats} from its admin port, which answers even when the
 * serving port is saturated. Null when the target does not answer: its figures are then unknown.
 */
final class AdminClient implements Supplier<RunSummary.ServerStats> {
    private static final int TIMEOUT_MS = 2_000;

    private final URI statsUri;

    AdminClient(URI adminUrl) {
        this.statsUri = adminUrl.resolve("/stats");
    }

    @Override
    public RunSummary.ServerStats get() {
        try {
            HttpURLConnection connection = (HttpURLConnection) statsUri.toURL().openConnection();
            connection.setConnectTimeout(TIMEOUT_MS);
            connection.setReadTimeout(TIMEOUT_MS);
            try (InputStream in = connection.getInputStream()) {
                JsonNode stats = Json.json().readTree(in);
                return new RunSummary.ServerStats(stats.path("started").asLong(), stats.path("completed").asLong(),
                        stats.path("inFlight").asLong(), stats.path("maxInFlight").asLong(), stats.path("errors").asLong());
            } finally {
                connection.disconnect();
            }
        } catch (IOException e) {
            return null;
        }
    }
}
