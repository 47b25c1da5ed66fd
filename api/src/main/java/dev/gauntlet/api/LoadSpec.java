package dev.gauntlet.api;

import java.net.URI;
import java.util.Objects;

/**
 * Everything a generator needs to run one bounded load against one URL; immutable, serialised to
 * JSON when the runner hands it to a generator process.
 *
 * <pre>{@code
 * LoadSpec spec = LoadSpec.of(URI.create("http://127.0.0.1:8080/hello?wait=100"),
 *                             new LoadModel.OpenLoop(1_000, LoadModel.InterArrival.EXPONENTIAL))
 *         .withPhases(5_000, 20_000);
 * }</pre>
 *
 * @param warmupMs          warm-up phase, run and not recorded (0 for none)
 * @param durationMs        measured phase; it also ends at {@code maxRequests} when that is > 0
 * @param maxRequests       requests in the measured phase at most; 0 means bounded by duration only
 * @param hardCapMs         wall-clock cap of the whole run, warm-up and drain included
 * @param maxConnections    open loop: connections opened at most; a request with none idle waits
 * @param expectedStatus    a response with another status counts as a bad-status error
 * @param expectedBody      a response with another body counts as a bad-body error; null: not checked
 * @param seed              seeds the schedule's randomness, so a run's intended starts repeat
 * @param maxScheduleLagP99Ms the generator flags itself saturated past this schedule-lag p99
 */
public record LoadSpec(
        URI url,
        LoadModel model,
        long warmupMs,
        long durationMs,
        long maxRequests,
        long connectTimeoutMs,
        long responseTimeoutMs,
        long hardCapMs,
        int maxConnections,
        int expectedStatus,
        String expectedBody,
        long seed,
        double maxScheduleLagP99Ms) {

    public static final long DEFAULT_WARMUP_MS = 2_000;
    public static final long DEFAULT_DURATION_MS = 10_000;
    public static final long DEFAULT_CONNECT_TIMEOUT_MS = 2_000;
    public static final long DEFAULT_RESPONSE_TIMEOUT_MS = 30_000;
    public static final int DEFAULT_MAX_CONNECTIONS = 10_000;
    public static final double DEFAULT_MAX_SCHEDULE_LAG_P99_MS = 1.0;

    public LoadSpec {
        Objects.requireNonNull(url, "url");
        Objects.requireNonNull(model, "model");
        if (!"http".equals(url.getScheme()) || url.getHost() == null) {
            throw new IllegalArgumentException("url must be http://host[:port]/path, got " + url);
        }
        if (warmupMs < 0 || durationMs <= 0 || maxRequests < 0) {
            throw new IllegalArgumentException("warm-up must be >= 0 and duration > 0");
        }
        if (hardCapMs <= 0) {
            hardCapMs = defaultHardCapMs(warmupMs, durationMs, responseTimeoutMs);
        }
    }

    /** A spec with every default: the warm-up, duration and timeouts above, validation of 200 + body. */
    public static LoadSpec of(URI url, LoadModel model) {
        return new LoadSpec(url, model, DEFAULT_WARMUP_MS, DEFAULT_DURATION_MS, 0,
                DEFAULT_CONNECT_TIMEOUT_MS, DEFAULT_RESPONSE_TIMEOUT_MS, 0, DEFAULT_MAX_CONNECTIONS,
                200, "hello", 42, DEFAULT_MAX_SCHEDULE_LAG_P99_MS);
    }

    public LoadSpec withPhases(long warmupMs, long durationMs) {
        return new LoadSpec(url, model, warmupMs, durationMs, maxRequests, connectTimeoutMs,
                responseTimeoutMs, 0, maxConnections, expectedStatus, expectedBody, seed,
                maxScheduleLagP99Ms);
    }

    public LoadSpec withTimeouts(long connectTimeoutMs, long responseTimeoutMs) {
        return new LoadSpec(url, model, warmupMs, durationMs, maxRequests, connectTimeoutMs,
                responseTimeoutMs, 0, maxConnections, expectedStatus, expectedBody, seed,
                maxScheduleLagP99Ms);
    }

    public LoadSpec withExpectedBody(String expectedBody) {
        return new LoadSpec(url, model, warmupMs, durationMs, maxRequests, connectTimeoutMs,
                responseTimeoutMs, hardCapMs, maxConnections, expectedStatus, expectedBody, seed,
                maxScheduleLagP99Ms);
    }

    /** Warm-up plus measurement plus time for the last responses to arrive, plus a margin. */
    private static long defaultHardCapMs(long warmupMs, long durationMs, long responseTimeoutMs) {
        return warmupMs + durationMs + Math.max(responseTimeoutMs, 1_000) + 5_000;
    }
}
