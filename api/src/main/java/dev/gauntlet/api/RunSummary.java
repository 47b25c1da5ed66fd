package dev.gauntlet.api;

import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * What one generator run measured: written as {@code summary.json} into the run directory and
 * read back by the runner for its tables.
 *
 * @param measuredSec        length of the measured phase, from its first intended start to its end
 * @param sent               requests written to a connection in the measured phase
 * @param completed          requests answered with the expected status and body
 * @param errors             failed requests by class; {@code sent - completed} at most, plus
 *                           requests that never got a connection
 * @param achievedRatePerSec completed requests per second of the measured phase
 * @param responseTime       from the intended start to the last byte: free of coordinated omission
 * @param serviceTime        from the actual send to the last byte
 * @param scheduleLag        actual send minus intended start
 * @param generatorSaturated true when the generator could not keep its schedule: never a server figure
 * @param saturationReasons  why it is flagged, one sentence each
 * @param connectionsPeak    connections open at once, at most
 * @param hardCapReached     the run was cut by its hard cap (or a signal): what was in flight counts as timed out
 * @param concurrency        the max-concurrency model's figures; null for the other models
 * @param processes          generator processes whose results were merged into this one
 */
public record RunSummary(
        LoadSpec spec,
        Instant startedAt,
        double measuredSec,
        long sent,
        long completed,
        Map<ErrorClass, Long> errors,
        double achievedRatePerSec,
        Percentiles responseTime,
        Percentiles serviceTime,
        Percentiles scheduleLag,
        long connectionsOpened,
        GeneratorCost generatorCost,
        boolean generatorSaturated,
        List<String> saturationReasons,
        int connectionsPeak,
        boolean hardCapReached,
        Concurrency concurrency,
        int processes) {

    public long errorCount() {
        return errors.values().stream().mapToLong(Long::longValue).sum();
    }

    /** What the generator process itself consumed during the run (summed over its processes). */
    public record GeneratorCost(long cpuMs, long heapUsedMaxBytes, int threadsPeak) {
    }

    /**
     * What a max-concurrency run held at the end of its measured phase.
     *
     * @param connected     connections established at the end of the measured phase
     * @param held          requests sent and still unanswered then: held by the server
     * @param serverAtStart the target's {@code /stats} when the measured phase began; null without an admin URL
     * @param serverAtEnd   the target's {@code /stats} at its end, connections still held
     */
    public record Concurrency(long connected, long held, ServerStats serverAtStart, ServerStats serverAtEnd) {
        /** Requests the server started processing during the measured phase; -1 when unknown. */
        public long serverStarted() {
            return serverAtStart == null || serverAtEnd == null ? -1 : serverAtEnd.started() - serverAtStart.started();
        }
    }

    /** A Gauntlet target's {@code GET /stats} on its admin port. */
    public record ServerStats(long started, long completed, long inFlight, long maxInFlight, long errors) {
    }
}
