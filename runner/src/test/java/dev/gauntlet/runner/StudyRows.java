package dev.gauntlet.runner;

/** Result rows for table tests: the figures a table reads, the rest neutral. */
final class StudyRows {
    private StudyRows() {
    }

    static ResultRow row(String target, String scenario, int repetition, double ratePerSec, double p50Ms, double p99Ms, long errors) {
        return new ResultRow(target, scenario, repetition, "closed 1c", 0, (long) (ratePerSec * 10), errors, ratePerSec,
                p50Ms * 1.5, p50Ms, p99Ms, p99Ms * 2, p99Ms * 3, null, 0.2, 0.2, "ok", "", null, null, null, null, 0, null, null);
    }
}
