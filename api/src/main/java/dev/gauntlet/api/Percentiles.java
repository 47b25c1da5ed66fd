package dev.gauntlet.api;

/**
 * The figures taken from one latency histogram, in milliseconds.
 *
 * @param count the number of recorded values
 */
public record Percentiles(
        long count,
        double meanMs,
        double p50Ms,
        double p90Ms,
        double p99Ms,
        double p999Ms,
        double p9999Ms,
        double maxMs) {

    public static final Percentiles EMPTY = new Percentiles(0, 0, 0, 0, 0, 0, 0, 0);
}
