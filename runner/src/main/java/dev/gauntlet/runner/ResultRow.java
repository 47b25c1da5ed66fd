package dev.gauntlet.runner;

import dev.gauntlet.api.RunSummary;

/**
 * One line of {@code results.json} and of the printed table: one target × scenario × repetition.
 *
 * @param requests   requests completed correctly in the measured phase
 * @param note       empty for a valid run; otherwise why its figures are not a server's figures
 *                   (generator saturated, target died, run failed)
 */
record ResultRow(
        String target,
        String scenario,
        int repetition,
        String load,
        long waitMs,
        long requests,
        long errors,
        double achievedRatePerSec,
        double p50Ms,
        double p99Ms,
        double p999Ms,
        double maxMs,
        Long serverMaxInFlight,
        String note) {

    static ResultRow of(String target, Suite.Scenario scenario, int repetition, RunSummary summary,
                        Long serverMaxInFlight, String note) {
        return new ResultRow(target, scenario.name(), repetition, summary.spec().model().describe(),
                scenario.waitMs(), summary.completed(), summary.errorCount(), summary.achievedRatePerSec(),
                summary.responseTime().p50Ms(), summary.responseTime().p99Ms(), summary.responseTime().p999Ms(),
                summary.responseTime().maxMs(), serverMaxInFlight, note);
    }

    /** A run that produced no summary: the row keeps its place in the table with the reason. */
    static ResultRow failed(String target, Suite.Scenario scenario, int repetition, String note) {
        return new ResultRow(target, scenario.name(), repetition, scenario.load().describe(), scenario.waitMs(),
                0, 0, 0, Double.NaN, Double.NaN, Double.NaN, Double.NaN, null, note);
    }

    boolean valid() {
        return note.isEmpty();
    }
}
