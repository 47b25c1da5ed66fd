package dev.gauntlet.runner.results;

import dev.gauntlet.api.RunSummary;
import dev.gauntlet.api.Verdict;

/** Result rows for table tests: the figures a table reads, the rest neutral. */
public final class StudyRows {
    private StudyRows() {
    }

    public static ResultRow row(String target, String scenario, int repetition, double ratePerSec, double p50Ms, double p99Ms, long errors) {
        return row(target, scenario, 1, repetition, ratePerSec, p50Ms, p99Ms, errors);
    }

    /** A row of fork {@code fork}: a target JVM of its own. */
    public static ResultRow row(String target, String scenario, int fork, int repetition, double ratePerSec, double p50Ms,
                                double p99Ms, long errors) {
        return new ResultRow(target, scenario, fork, repetition, "closed 1c", 0, (long) (ratePerSec * 10), errors, ratePerSec,
                p50Ms * 1.5, p50Ms, p99Ms, p99Ms * 2, p99Ms * 3, null, 0.2, 0.2, Verdict.OK, "", null, null, null, null, 0, null, null, 0, null, null, null);
    }

    /** {@code row} with another verdict and note, as a run judged so writes it; verdict null: a run that failed. */
    public static ResultRow judged(ResultRow row, Verdict verdict, String note) {
        return new ResultRow(row.target(), row.scenario(), row.fork(), row.repetition(), row.load(), row.waitMs(), row.requests(),
                row.errors(), row.achievedRatePerSec(), row.meanMs(), row.p50Ms(), row.p99Ms(), row.p999Ms(), row.maxMs(),
                row.serverMaxInFlight(), row.generatorHiccupP99Ms(), row.targetHiccupP99Ms(), verdict, note, row.targetJvm(),
                row.generatorJvm(), row.client(), row.errorsByClass(), row.unansweredAtEnd(), row.warmup(), row.gcInTail(),
                row.droppedQueueFull(), row.goodputPerSec(), row.freeOfCoordinatedOmission(), row.cpuPerRequest());
    }

    /** {@code row} run by {@code client}'s engine, as a client study names it: its scenario spelled out per client. */
    public static ResultRow forClient(ResultRow row, String client) {
        return new ResultRow(row.target(), row.scenario() + "." + client, row.fork(), row.repetition(), row.load(), row.waitMs(),
                row.requests(), row.errors(), row.achievedRatePerSec(), row.meanMs(), row.p50Ms(), row.p99Ms(), row.p999Ms(),
                row.maxMs(), row.serverMaxInFlight(), row.generatorHiccupP99Ms(), row.targetHiccupP99Ms(), row.verdict(),
                row.note(), row.targetJvm(), row.generatorJvm(), client, row.errorsByClass(), row.unansweredAtEnd(), row.warmup(),
                row.gcInTail(), row.droppedQueueFull(), row.goodputPerSec(), row.freeOfCoordinatedOmission(), row.cpuPerRequest());
    }

    /** {@code row} as a closed loop's, whose times are not free of coordinated omission. */
    public static ResultRow timedFromActualSend(ResultRow row) {
        return new ResultRow(row.target(), row.scenario(), row.fork(), row.repetition(), row.load(), row.waitMs(), row.requests(),
                row.errors(), row.achievedRatePerSec(), row.meanMs(), row.p50Ms(), row.p99Ms(), row.p999Ms(), row.maxMs(),
                row.serverMaxInFlight(), row.generatorHiccupP99Ms(), row.targetHiccupP99Ms(), row.verdict(), row.note(),
                row.targetJvm(), row.generatorJvm(), row.client(), row.errorsByClass(), row.unansweredAtEnd(), row.warmup(),
                row.gcInTail(), row.droppedQueueFull(), row.goodputPerSec(), false, row.cpuPerRequest());
    }

    /** {@code row} with {@code count} requests its generator dropped, its queue full. */
    public static ResultRow dropped(ResultRow row, long count) {
        return new ResultRow(row.target(), row.scenario(), row.fork(), row.repetition(), row.load(), row.waitMs(), row.requests(),
                row.errors(), row.achievedRatePerSec(), row.meanMs(), row.p50Ms(), row.p99Ms(), row.p999Ms(), row.maxMs(),
                row.serverMaxInFlight(), row.generatorHiccupP99Ms(), row.targetHiccupP99Ms(), row.verdict(), row.note(),
                row.targetJvm(), row.generatorJvm(), row.client(), row.errorsByClass(), row.unansweredAtEnd(), row.warmup(),
                row.gcInTail(), count, row.goodputPerSec(), row.freeOfCoordinatedOmission(), row.cpuPerRequest());
    }

    /** {@code row} with what a request cost each side in CPU, µs (null: unknown). */
    public static ResultRow costing(ResultRow row, Double targetUs, Double generatorUs) {
        return new ResultRow(row.target(), row.scenario(), row.fork(), row.repetition(), row.load(), row.waitMs(), row.requests(),
                row.errors(), row.achievedRatePerSec(), row.meanMs(), row.p50Ms(), row.p99Ms(), row.p999Ms(), row.maxMs(),
                row.serverMaxInFlight(), row.generatorHiccupP99Ms(), row.targetHiccupP99Ms(), row.verdict(), row.note(),
                row.targetJvm(), row.generatorJvm(), row.client(), row.errorsByClass(), row.unansweredAtEnd(), row.warmup(),
                row.gcInTail(), row.droppedQueueFull(), row.goodputPerSec(), row.freeOfCoordinatedOmission(),
                new RunSummary.CpuPerRequest(targetUs, generatorUs));
    }
}
