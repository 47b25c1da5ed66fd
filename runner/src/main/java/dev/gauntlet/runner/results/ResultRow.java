package dev.gauntlet.runner.results;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import com.fasterxml.jackson.databind.annotation.JsonSerialize;
import com.fasterxml.jackson.databind.ser.std.StdSerializer;
import com.fasterxml.jackson.databind.util.StdConverter;
import dev.gauntlet.api.ErrorClass;
import dev.gauntlet.api.JvmMetrics;
import dev.gauntlet.api.RunJvmCosts;
import dev.gauntlet.api.RunSummary;
import dev.gauntlet.api.Verdict;
import dev.gauntlet.runner.metrics.GcInTail;
import dev.gauntlet.runner.metrics.PauseAligner;
import dev.gauntlet.runner.suite.RunPlan;
import dev.gauntlet.runner.suite.Suite;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * One line of {@code results.json} and of the printed table: one target × scenario × fork × repetition.
 *
 * @param fork               which start of the target's JVM measured it, from 1 ({@link RunPlan}); a row written
 *                           before forks, without one, is fork 1
 * @param load               what was offered: the load model as it ran (rates and counts after scaling)
 * @param requests           requests completed correctly in the measured phase (those answered after its end included)
 * @param achievedRatePerSec the rate/s column: an open loop's sustained rate (what it completed per second over the
 *                           second half of the measured phase, within it), else what completed within the phase per
 *                           second of it; never what was sent. Of the measured requests only: an overloaded open loop
 *                           whose measured requests waited behind the warm-up's backlog shows 0 here
 * @param meanMs             the mean response time, the 2016 study's "time average"
 * @param serverMaxInFlight  the most requests the target had in progress at once in the measured phase
 * @param generatorHiccupP99Ms the platform's noise floor seen from the generator (its hiccup meter's p99)
 * @param targetHiccupP99Ms  the same seen from the target; NaN when unknown
 * @param verdict            whose figures these are ({@code ok}, {@code target-overloaded},
 *                           {@code generator-limited}, {@code client-limited}: a client library engine was the
 *                           bottleneck, the client study's figure, {@code platform-noisy}); null for a run
 *                           that failed, written {@value #NO_VERDICT}
 * @param note               the verdict's evidence, or why the run failed (target died, run failed)
 * @param targetJvm          what the target's JVM cost over the measured phase (GC, heap, threads, CPU, memory)
 *                           from its JFR recording, pause timeline left out; null when unknown
 * @param generatorJvm       the same for the generator's JVM
 * @param client             the client library engine that sent the requests ({@code clients.yaml}); null: the built-in one
 * @param errorsByClass      the errors by {@link ErrorClass}, those that occurred only; empty for a run without errors
 * @param unansweredAtEnd    measured requests still in flight when the measured phase ended
 * @param warmup             how long the run's warm-up lasted and whether it settled; null without a record (a run
 *                           that failed, max concurrency, a load split over processes)
 * @param gcInTail           which of the measured phase's slowest seconds held a GC pause of either side; null when the
 *                           recordings or the interval logs could not be lined up
 * @param droppedQueueFull   open loop: measured requests the generator never sent, its queue of requests waiting for a
 *                           connection being full (the run is then generator- or target-limited, its evidence says which);
 *                           written only when some were
 * @param goodputPerSec      the goodput/s column: what the target answered correctly per second of the measured phase,
 *                           whatever each answer's intended start (the warm-up's backlog included), so a target busy
 *                           with a backlog shows what it completed beside rate/s; null when unknown (a run that
 *                           failed, a file written before it was a column)
 * @param freeOfCoordinatedOmission whether the times are free of coordinated omission, as the load model says
 *                           ({@link dev.gauntlet.api.LoadModel#freeOfCoordinatedOmission}): an open loop's are; a closed
 *                           loop's next request waits for the previous answer (as wrk's), so its times run from the
 *                           actual send and the tables mark them; null in a file written before it was said
 * @param cpuPerRequest      each side's CPU µs per completed request over the measured phase (the protocols table's
 *                           figures); null for a run that failed and in a file written before it was counted
 */
public record ResultRow(
        String target,
        String scenario,
        int fork,
        int repetition,
        String load,
        long waitMs,
        long requests,
        long errors,
        double achievedRatePerSec,
        double meanMs,
        double p50Ms,
        double p99Ms,
        double p999Ms,
        double maxMs,
        Long serverMaxInFlight,
        double generatorHiccupP99Ms,
        double targetHiccupP99Ms,
        @JsonSerialize(nullsUsing = NoVerdictWriter.class) @JsonDeserialize(converter = VerdictReader.class) Verdict verdict,
        String note,
        JvmMetrics targetJvm,
        JvmMetrics generatorJvm,
        String client,
        Map<ErrorClass, Long> errorsByClass,
        long unansweredAtEnd,
        Warmup warmup,
        GcInTail gcInTail,
        @JsonInclude(JsonInclude.Include.NON_DEFAULT) long droppedQueueFull,
        @JsonInclude(JsonInclude.Include.NON_NULL) Double goodputPerSec,
        @JsonInclude(JsonInclude.Include.NON_NULL) Boolean freeOfCoordinatedOmission,
        @JsonInclude(JsonInclude.Include.NON_NULL) RunSummary.CpuPerRequest cpuPerRequest) {
    /** How {@code results.json} and the tables spell the verdict of a run that failed or was skipped. */
    public static final String NO_VERDICT = "-";

    /**
     * A run's warm-up as it went.
     *
     * @param seconds          how long it lasted
     * @param settled          whether its last windows agreed by its steady rule; null for a fixed warm-up
     * @param tolerancePercent the tolerance its rule held the windows to (the default for a fixed warm-up): also the
     *                         repetitions' of its target × scenario
     */
    public record Warmup(double seconds, Boolean settled, double tolerancePercent) {
        static Warmup of(RunSummary.Steadiness steadiness) {
            return steadiness == null ? null
                    : new Warmup(steadiness.warmupMs() / 1000.0, steadiness.settled(), steadiness.tolerancePercent());
        }

        /** As the table shows it: {@code 7}, {@code 30*} when it reached its maximum unsettled. */
        String column() {
            return String.format(Locale.ROOT, "%.0f%s", seconds, Boolean.FALSE.equals(settled) ? "*" : "");
        }
    }


    public ResultRow {
        fork = Math.max(1, fork);
        errorsByClass = errorsByClass == null ? Map.of() : Map.copyOf(errorsByClass);
    }


    /**
     * A measured run: its verdict and evidence, unless {@code failure} says why its figures do not count.
     *
     * @param summary the generator's figures ({@code summary.json})
     * @param jvm     both JVMs' costs the runner read from their recordings ({@code jvm.json})
     */
    public static ResultRow of(String target, RunPlan.Run run, RunSummary summary, RunJvmCosts jvm, Long serverMaxInFlight,
                               String failure) {
        GcInTail tail = jvm == null ? null : PauseAligner.tail(jvm.alignment());
        Suite.Scenario scenario = run.scenario();
        return new ResultRow(target, scenario.name(), run.fork(), run.repetition(), summary.spec().model().describe(),
                scenario.waitMs(), summary.completed(), summary.errorCount(),
                summary.sustainedRatePerSec() != null ? summary.sustainedRatePerSec() : summary.achievedRatePerSec(),
                summary.responseTime().meanMs(), summary.responseTime().p50Ms(), summary.responseTime().p99Ms(), summary.responseTime().p999Ms(),
                summary.responseTime().maxMs(), serverMaxInFlight, summary.generatorHiccups().p99Ms(),
                summary.targetHiccups().count() == 0 ? Double.NaN : summary.targetHiccups().p99Ms(),
                failure == null ? summary.verdict() : null,
                failure == null ? evidence(summary, tail, jvm) : failure,
                jvm == null ? null : withoutTimeline(jvm.target()),
                jvm == null ? null : withoutTimeline(jvm.generator()), scenario.client(),
                occurred(summary.errors()), summary.unansweredAtEnd(), Warmup.of(summary.steadiness()), tail,
                summary.droppedQueueFull(), summary.goodputPerSec(), summary.spec().model().freeOfCoordinatedOmission(),
                summary.cpuPerRequest());
    }

    /** A run that produced no summary: the row keeps its place in the table with the reason. */
    public static ResultRow failed(String target, RunPlan.Run run, String note) {
        Suite.Scenario scenario = run.scenario();
        return new ResultRow(target, scenario.name(), run.fork(), run.repetition(), scenario.load().describe(), scenario.waitMs(),
                0, 0, 0, Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN, null, Double.NaN, Double.NaN, null, note,
                null, null, scenario.client(), Map.of(), 0, null, null, 0, null, scenario.load().freeOfCoordinatedOmission(), null);
    }

    /** The verdict's evidence, and what GC held of the tail when the pauses could be lined up. */
    private static String evidence(RunSummary summary, GcInTail tail, RunJvmCosts jvm) {
        List<String> sentences = new ArrayList<>(summary.evidence());
        if (tail != null) {
            sentences.add(tail.describe(gcPausesOf(jvm.target()), gcPausesOf(jvm.generator())));
        }
        return String.join("; ", sentences);
    }

    /** Whether this row has figures that count: a measured run, not one that failed or was skipped. */
    public boolean measured() {
        return verdict != null;
    }

    /**
     * What a table adds to the scenario to name the run: nothing for fork 1's first repetition, {@code " #2"}, or
     * {@code " f3 #2"} for fork 3's second.
     */
    public String runSuffix() {
        return (fork > 1 ? " f" + fork : "") + (repetition > 1 ? " #" + repetition : "");
    }

    /** Whether its times are known to run from the actual send rather than the intended start: the tables mark them. */
    public boolean timedFromActualSend() {
        return Boolean.FALSE.equals(freeOfCoordinatedOmission);
    }

    /** The verdict as the tables show it: its label, or {@value #NO_VERDICT}. */
    public String verdictLabel() {
        return verdict == null ? NO_VERDICT : verdict.label();
    }

    /** The same row with {@code remark} before its note, such as that the target was restarted before it. */
    public ResultRow remarked(String remark) {
        return new ResultRow(target, scenario, fork, repetition, load, waitMs, requests, errors, achievedRatePerSec, meanMs,
                p50Ms, p99Ms, p999Ms, maxMs, serverMaxInFlight, generatorHiccupP99Ms, targetHiccupP99Ms, verdict,
                note.isEmpty() ? remark : remark + "; " + note, targetJvm, generatorJvm, client, errorsByClass, unansweredAtEnd,
                warmup, gcInTail, droppedQueueFull, goodputPerSec, freeOfCoordinatedOmission, cpuPerRequest);
    }

    RunPlan.Key key() {
        return new RunPlan.Key(target, scenario, fork, repetition);
    }

    private static Map<ErrorClass, Long> occurred(Map<ErrorClass, Long> errors) {
        Map<ErrorClass, Long> occurred = new EnumMap<>(ErrorClass.class);
        errors.forEach((errorClass, count) -> {
            if (count > 0) {
                occurred.put(errorClass, count);
            }
        });
        return occurred;
    }

    private static JvmMetrics.GcPauses gcPausesOf(JvmMetrics metrics) {
        return metrics == null ? null : metrics.gcPauses();
    }

    private static JvmMetrics withoutTimeline(JvmMetrics metrics) {
        return metrics == null ? null : metrics.withoutTimeline();
    }

    /** Writes a row without a verdict as {@value #NO_VERDICT}, as {@code results.json} always has. */
    static final class NoVerdictWriter extends StdSerializer<Object> {
        NoVerdictWriter() {
            super(Object.class);
        }

        @Override
        public void serialize(Object value, JsonGenerator generator, SerializerProvider provider) throws IOException {
            generator.writeString(NO_VERDICT);
        }
    }

    /** Reads a verdict's label, and {@value #NO_VERDICT} as no verdict. */
    static final class VerdictReader extends StdConverter<String, Verdict> {
        @Override
        public Verdict convert(String label) {
            if (label.equals(NO_VERDICT)) {
                return null;
            }
            return Arrays.stream(Verdict.values()).filter(verdict -> verdict.label().equals(label)).findFirst()
                    .orElseThrow(() -> new IllegalArgumentException("no verdict '" + label + "'"));
        }
    }
}
