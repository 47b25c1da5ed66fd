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
        List<String> saturationReasons) {

    public long errorCount() {
        return errors.values().stream().mapToLong(Long::longValue).sum();
    }

    /** What the generator process itself consumed during the run. */
    public record GeneratorCost(long cpuMs, long heapUsedMaxBytes, int threadsPeak) {
    }
}
