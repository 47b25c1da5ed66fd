package dev.gauntlet.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonIgnoreProperties;

import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * What one generator run measured: written as {@code summary.json} into the run directory by the
 * generator alone, and read back by the runner for its tables. The runner's own figures of the run, its
 * JVMs' costs, go beside it ({@link RunJvmCosts}, {@code jvm.json}); a {@code summary.json} written before
 * that holds them as {@code jvm}, which reads and is left out.
 *
 * @param measuredSec        length of the measured phase, from its first intended start to its end
 * @param scheduled          requests whose intended start fell in the measured phase (the schedule's count)
 * @param sent               requests written to a connection in the measured phase
 * @param completed          requests answered with the expected status and body
 * @param errors             failed requests by class; {@code sent - completed} at most, plus
 *                           requests that never got a connection
 * @param achievedRatePerSec requests completed within the measured phase, per second of it (those answered
 *                           after its end count in {@code completed}, not here, and in {@code unansweredAtEnd})
 * @param sustainedRatePerSec open loop: requests completed per second over the second half of the measured
 *                           phase, within it; below the offered rate the target did not keep up. Null for
 *                           the other models and for phases too short to tell
 * @param responseTime       from the intended start to the last byte: free of coordinated omission
 * @param serviceTime        from the actual send to the last byte
 * @param scheduleLag        actual send minus intended start
 * @param loopLateness       open loop: how late the generator's own loop came to each intended start,
 *                           before any wait for a connection; empty for the other models
 * @param generatorHiccups   the platform's stalls seen from the generator during the measured phase
 * @param targetHiccups      the same seen from the target (its admin {@code /hiccup}); empty when unknown
 * @param targetCpuPercent   the target process's CPU time over the measured phase, in percent of the CPUs it
 *                           may use; null when unknown (no admin URL, or the max-concurrency model)
 * @param verdict            whose figures these are
 * @param evidence           why that verdict, one sentence each with its numbers
 * @param connectionsPeak    connections open at once, at most
 * @param connectionsLimit   connections the generator could open at most (the open loop's limit, else the model's)
 * @param hardCapReached     the run was cut by its hard cap (or a signal): what was in flight counts as timed out
 * @param concurrency        the max-concurrency model's figures; null for the other models
 * @param processes          generator processes whose results were merged into this one
 * @param unansweredAtEnd    measured requests still unanswered when the measured phase ended (answered,
 *                           failed or cut off after it)
 * @param connectTime        from a connect's start to its establishment, for the connections the generator
 *                           opened (warm-up included): a target that stops accepting shows here
 * @param generatorWarmup    how the generator's own JIT was warmed before the run; null when it was not
 * @param steadiness         how long the warm-up lasted and why, and the measured phase's windows: whether its
 *                           figures are steady-state figures; null for max concurrency and a load split over processes
 * @param connectionsOpenedMeasured connections opened during the measured phase: an open loop's pool grows then only
 *                           while its target falls behind (those the warm-up opened for a cold target stay open, idle)
 * @param droppedQueueFull   open loop: measured requests never sent because they fell due while the generator's
 *                           bounded queue of requests waiting for a connection was full: its rate outran what it
 *                           could send, and the run is generator-limited (0 in summaries written before it was counted)
 * @param wakeGranularityMs  open loop on the built-in engine: the coarsest granularity its timer woke at in the
 *                           measured phase, each wake sending every request then due; lateness up to it is the
 *                           loop's by design ({@link LoadSpec#wakeGranularityUs}); 0: a wake per intended start
 * @param goodputPerSec      what the target answered correctly per second of the measured phase, whatever each
 *                           answer's intended start: under overload, the warm-up's backlog it answered meanwhile
 *                           counts here while the measured requests wait behind it (null in summaries written before)
 * @param capacity           the machine's capacity on each role's CPUs, window by window of the measured phase: what
 *                           explains a drift the target did not cause ({@link Capacity#UNKNOWN} in summaries written
 *                           before, and for a load split over processes)
 * @param errorKinds         the measured failures by class and status, each with its first message, count, first and
 *                           last second; null in summaries written before they were recorded
 * @param bytes              the bytes on the wire from the measured phase's start; null where the engine does not see
 *                           them (a client library's) and in summaries written before
 * @param timings            connect, TLS handshake, waiting and receiving; null where the engine does not measure them
 *                           (a client library's) and in summaries written before
 * @param cpuPerRequest      each side's CPU time per completed request over the measured phase; null in summaries
 *                           written before it was counted
 * @param quic               an HTTP/3 run's QUIC figures; null for the other protocols
 */
@JsonIgnoreProperties("jvm")
public record RunSummary(
        LoadSpec spec,
        Instant startedAt,
        double measuredSec,
        long scheduled,
        long sent,
        long completed,
        Map<ErrorClass, Long> errors,
        double achievedRatePerSec,
        Double sustainedRatePerSec,
        Percentiles responseTime,
        Percentiles serviceTime,
        Percentiles scheduleLag,
        long connectionsOpened,
        GeneratorCost generatorCost,
        Percentiles loopLateness,
        Percentiles generatorHiccups,
        Percentiles targetHiccups,
        Double targetCpuPercent,
        Verdict verdict,
        List<String> evidence,
        int connectionsPeak,
        int connectionsLimit,
        boolean hardCapReached,
        Concurrency concurrency,
        int processes,
        long unansweredAtEnd,
        Percentiles connectTime,
        GeneratorWarmup generatorWarmup,
        Steadiness steadiness,
        long connectionsOpenedMeasured,
        long droppedQueueFull,
        double wakeGranularityMs,
        @JsonInclude(JsonInclude.Include.NON_NULL) Double goodputPerSec,
        @JsonInclude(value = JsonInclude.Include.CUSTOM, valueFilter = Capacity.UnknownFilter.class) Capacity capacity,
        @JsonInclude(JsonInclude.Include.NON_NULL) List<ErrorKind> errorKinds,
        @JsonInclude(JsonInclude.Include.NON_NULL) BytesTransferred bytes,
        @JsonInclude(JsonInclude.Include.NON_NULL) RequestTimings timings,
        @JsonInclude(JsonInclude.Include.NON_NULL) CpuPerRequest cpuPerRequest,
        @JsonInclude(JsonInclude.Include.NON_NULL) Quic quic) {

    public RunSummary {
        connectTime = connectTime == null ? Percentiles.EMPTY : connectTime;
        capacity = capacity == null ? Capacity.UNKNOWN : capacity;
    }

    public long errorCount() {
        return errors.values().stream().mapToLong(Long::longValue).sum();
    }

    /** The same figures under another verdict. */
    public RunSummary withVerdict(Verdict newVerdict, List<String> newEvidence) {
        return toBuilder().verdict(newVerdict).evidence(List.copyOf(newEvidence)).build();
    }

    /** The same figures with the generator's own warm-up recorded. */
    public RunSummary withGeneratorWarmup(GeneratorWarmup warmup) {
        return toBuilder().generatorWarmup(warmup).build();
    }

    /** A builder with every figure at its neutral default (no requests, {@link Percentiles#EMPTY}, verdict ok, one process). */
    public static Builder builder() {
        return new Builder();
    }

    /** A builder that starts from these figures. */
    public Builder toBuilder() {
        return new Builder(this);
    }

    /**
     * Builds a summary by name rather than by position: the generator's, a split generator's
     * merge of its processes', a test's.
     *
     * <pre>{@code
     * RunSummary summary = RunSummary.builder().spec(spec).startedAt(startedAt).measuredSec(10)
     *         .sent(5_000).completed(5_000).errors(errors).build();
     * RunSummary judged = summary.toBuilder().verdict(Verdict.TARGET_OVERLOADED).evidence(sentences).build();
     * }</pre>
     */
    public static final class Builder {
        private LoadSpec spec;
        private Instant startedAt;
        private double measuredSec;
        private long scheduled;
        private long sent;
        private long completed;
        private Map<ErrorClass, Long> errors = Map.of();
        private double achievedRatePerSec;
        private Double sustainedRatePerSec;
        private Percentiles responseTime = Percentiles.EMPTY;
        private Percentiles serviceTime = Percentiles.EMPTY;
        private Percentiles scheduleLag = Percentiles.EMPTY;
        private long connectionsOpened;
        private GeneratorCost generatorCost;
        private Percentiles loopLateness = Percentiles.EMPTY;
        private Percentiles generatorHiccups = Percentiles.EMPTY;
        private Percentiles targetHiccups = Percentiles.EMPTY;
        private Double targetCpuPercent;
        private Verdict verdict = Verdict.OK;
        private List<String> evidence = List.of();
        private int connectionsPeak;
        private int connectionsLimit;
        private boolean hardCapReached;
        private Concurrency concurrency;
        private int processes = 1;
        private long unansweredAtEnd;
        private Percentiles connectTime = Percentiles.EMPTY;
        private GeneratorWarmup generatorWarmup;
        private Steadiness steadiness;
        private long connectionsOpenedMeasured;
        private long droppedQueueFull;
        private double wakeGranularityMs;
        private Double goodputPerSec;
        private Capacity capacity = Capacity.UNKNOWN;
        private List<ErrorKind> errorKinds;
        private BytesTransferred bytes;
        private RequestTimings timings;
        private CpuPerRequest cpuPerRequest;
        private Quic quic;

        private Builder() {
        }

        private Builder(RunSummary summary) {
            spec = summary.spec;
            startedAt = summary.startedAt;
            measuredSec = summary.measuredSec;
            scheduled = summary.scheduled;
            sent = summary.sent;
            completed = summary.completed;
            errors = summary.errors;
            achievedRatePerSec = summary.achievedRatePerSec;
            sustainedRatePerSec = summary.sustainedRatePerSec;
            responseTime = summary.responseTime;
            serviceTime = summary.serviceTime;
            scheduleLag = summary.scheduleLag;
            connectionsOpened = summary.connectionsOpened;
            generatorCost = summary.generatorCost;
            loopLateness = summary.loopLateness;
            generatorHiccups = summary.generatorHiccups;
            targetHiccups = summary.targetHiccups;
            targetCpuPercent = summary.targetCpuPercent;
            verdict = summary.verdict;
            evidence = summary.evidence;
            connectionsPeak = summary.connectionsPeak;
            connectionsLimit = summary.connectionsLimit;
            hardCapReached = summary.hardCapReached;
            concurrency = summary.concurrency;
            processes = summary.processes;
            unansweredAtEnd = summary.unansweredAtEnd;
            connectTime = summary.connectTime;
            generatorWarmup = summary.generatorWarmup;
            steadiness = summary.steadiness;
            connectionsOpenedMeasured = summary.connectionsOpenedMeasured;
            droppedQueueFull = summary.droppedQueueFull;
            wakeGranularityMs = summary.wakeGranularityMs;
            goodputPerSec = summary.goodputPerSec;
            capacity = summary.capacity;
            errorKinds = summary.errorKinds;
            bytes = summary.bytes;
            timings = summary.timings;
            cpuPerRequest = summary.cpuPerRequest;
            quic = summary.quic;
        }

        public Builder spec(LoadSpec spec) {
            this.spec = spec;
            return this;
        }

        public Builder startedAt(Instant startedAt) {
            this.startedAt = startedAt;
            return this;
        }

        public Builder measuredSec(double measuredSec) {
            this.measuredSec = measuredSec;
            return this;
        }

        public Builder scheduled(long scheduled) {
            this.scheduled = scheduled;
            return this;
        }

        public Builder sent(long sent) {
            this.sent = sent;
            return this;
        }

        public Builder completed(long completed) {
            this.completed = completed;
            return this;
        }

        public Builder errors(Map<ErrorClass, Long> errors) {
            this.errors = errors;
            return this;
        }

        public Builder achievedRatePerSec(double achievedRatePerSec) {
            this.achievedRatePerSec = achievedRatePerSec;
            return this;
        }

        public Builder sustainedRatePerSec(Double sustainedRatePerSec) {
            this.sustainedRatePerSec = sustainedRatePerSec;
            return this;
        }

        public Builder responseTime(Percentiles responseTime) {
            this.responseTime = responseTime;
            return this;
        }

        public Builder serviceTime(Percentiles serviceTime) {
            this.serviceTime = serviceTime;
            return this;
        }

        public Builder scheduleLag(Percentiles scheduleLag) {
            this.scheduleLag = scheduleLag;
            return this;
        }

        public Builder connectionsOpened(long connectionsOpened) {
            this.connectionsOpened = connectionsOpened;
            return this;
        }

        public Builder generatorCost(GeneratorCost generatorCost) {
            this.generatorCost = generatorCost;
            return this;
        }

        public Builder loopLateness(Percentiles loopLateness) {
            this.loopLateness = loopLateness;
            return this;
        }

        public Builder generatorHiccups(Percentiles generatorHiccups) {
            this.generatorHiccups = generatorHiccups;
            return this;
        }

        public Builder targetHiccups(Percentiles targetHiccups) {
            this.targetHiccups = targetHiccups;
            return this;
        }

        public Builder targetCpuPercent(Double targetCpuPercent) {
            this.targetCpuPercent = targetCpuPercent;
            return this;
        }

        public Builder verdict(Verdict verdict) {
            this.verdict = verdict;
            return this;
        }

        public Builder evidence(List<String> evidence) {
            this.evidence = evidence;
            return this;
        }

        public Builder connectionsPeak(int connectionsPeak) {
            this.connectionsPeak = connectionsPeak;
            return this;
        }

        public Builder connectionsLimit(int connectionsLimit) {
            this.connectionsLimit = connectionsLimit;
            return this;
        }

        public Builder hardCapReached(boolean hardCapReached) {
            this.hardCapReached = hardCapReached;
            return this;
        }

        public Builder concurrency(Concurrency concurrency) {
            this.concurrency = concurrency;
            return this;
        }

        public Builder processes(int processes) {
            this.processes = processes;
            return this;
        }

        public Builder unansweredAtEnd(long unansweredAtEnd) {
            this.unansweredAtEnd = unansweredAtEnd;
            return this;
        }

        public Builder connectTime(Percentiles connectTime) {
            this.connectTime = connectTime;
            return this;
        }

        public Builder generatorWarmup(GeneratorWarmup generatorWarmup) {
            this.generatorWarmup = generatorWarmup;
            return this;
        }

        public Builder steadiness(Steadiness steadiness) {
            this.steadiness = steadiness;
            return this;
        }

        public Builder connectionsOpenedMeasured(long connectionsOpenedMeasured) {
            this.connectionsOpenedMeasured = connectionsOpenedMeasured;
            return this;
        }

        public Builder droppedQueueFull(long droppedQueueFull) {
            this.droppedQueueFull = droppedQueueFull;
            return this;
        }

        public Builder wakeGranularityMs(double wakeGranularityMs) {
            this.wakeGranularityMs = wakeGranularityMs;
            return this;
        }

        public Builder goodputPerSec(Double goodputPerSec) {
            this.goodputPerSec = goodputPerSec;
            return this;
        }

        public Builder capacity(Capacity capacity) {
            this.capacity = capacity;
            return this;
        }

        public Builder errorKinds(List<ErrorKind> errorKinds) {
            this.errorKinds = errorKinds;
            return this;
        }

        public Builder bytes(BytesTransferred bytes) {
            this.bytes = bytes;
            return this;
        }

        public Builder quic(Quic quic) {
            this.quic = quic;
            return this;
        }

        public Builder cpuPerRequest(CpuPerRequest cpuPerRequest) {
            this.cpuPerRequest = cpuPerRequest;
            return this;
        }

        public Builder timings(RequestTimings timings) {
            this.timings = timings;
            return this;
        }

        public RunSummary build() {
            return new RunSummary(spec, startedAt, measuredSec, scheduled, sent, completed, errors, achievedRatePerSec,
                    sustainedRatePerSec, responseTime, serviceTime, scheduleLag, connectionsOpened, generatorCost,
                    loopLateness, generatorHiccups, targetHiccups, targetCpuPercent, verdict, evidence, connectionsPeak,
                    connectionsLimit, hardCapReached, concurrency, processes, unansweredAtEnd, connectTime,
                    generatorWarmup, steadiness, connectionsOpenedMeasured, droppedQueueFull,
                    wakeGranularityMs, goodputPerSec, capacity, errorKinds, bytes, timings, cpuPerRequest, quic);
        }
    }

    /** The measured phase's start: after the warm-up, however long it lasted. */
    public Instant measureStartedAt() {
        return startedAt.plusMillis(steadiness == null ? spec.warmupMs() : steadiness.warmupMs());
    }

    /**
     * The run's warm-up and measured phase, one-second window by window: how long the warm-up lasted
     * and whether it settled, and what the verdict weighs for drift in the measured phase.
     *
     * @param rule      the steady-state rule the warm-up followed; null for a fixed warm-up
     * @param ruleText  the rule in words, or that the warm-up was fixed
     * @param warmupMs  how long the warm-up lasted
     * @param settled   whether the warm-up's last windows agreed by the rule; null for a fixed warm-up (not judged)
     * @param fellBehind an open loop's warm-up ended before its maximum, unsettled, because the target completed under
     *                  {@code 0.9} of the offered rate for twice the rule's windows: waiting longer would only have
     *                  lengthened the backlog the measured phase starts behind
     * @param warmup    the warm-up's windows, those judged (after any ramp)
     * @param measured  the measured phase's whole windows
     */
    public record Steadiness(SteadyRule rule, String ruleText, long warmupMs, Boolean settled, boolean fellBehind,
                             List<Window> warmup, List<Window> measured) {
        public Steadiness {
            warmup = List.copyOf(warmup);
            measured = List.copyOf(measured);
        }

        /** The tolerance the windows, halves and repetitions are held to: the rule's, or the default. */
        public double tolerancePercent() {
            return rule == null ? SteadyRule.DEFAULT_TOLERANCE_PERCENT : rule.tolerancePercent();
        }

        /**
         * One second of the run.
         *
         * @param completedPerSec   requests answered in it, per second
         * @param p50Ms             the median response time of those answered in it (from their intended start); NaN: none
         * @param p99Ms             their p99; NaN: none
         * @param latenessP99Ms     the open loop's warm-up: the generator's lateness to the intended starts in it, p99;
         *                          NaN otherwise (the measured phase's is the run's {@code loopLateness})
         * @param hiccupP99Ms       the generator's wake-up p99 in it: what the platform explains
         * @param hiccupMaxMs       the generator's longest wake-up delay in it: time a window may have lost to the platform
         * @param targetCompileMs   the target's JIT compile time in it (elapsed per compilation); -1 when unknown (no
         *                          admin, or it does not say)
         * @param targetJitQueued   methods the target's JIT was compiling or had queued at its end; -1 when unknown
         * @param generatorCompileMs the generator JVM's JIT compile time in it
         * @param generatorJitQueued methods the generator's JIT was compiling or had queued at its end; -1 when unknown
         */
        public record Window(double completedPerSec, double p50Ms, double p99Ms, double latenessP99Ms, double hiccupP99Ms,
                             double hiccupMaxMs, long targetCompileMs, int targetJitQueued, long generatorCompileMs,
                             int generatorJitQueued) {
        }
    }

    /**
     * The generator JVM's own warm-up, before the run and apart from it: it drives its engine against
     * a loopback sink in its own process until a window passes with its JIT compiler (nearly) idle, so
     * the run measures compiled code rather than the generator's own JIT.
     *
     * @param windows     each window's JIT compile time and the loop's lateness p99, in order
     * @param settled     whether the last window compiled under the threshold; false when the maximum came first
     * @param durationMs  how long the warm-up took
     * @param ratePerSec  the open loop's rate it was driven at
     * @param rule        the rule, in words, with its thresholds
     */
    public record GeneratorWarmup(List<Window> windows, boolean settled, long durationMs, double ratePerSec, String rule) {
        public GeneratorWarmup {
            windows = List.copyOf(windows);
        }

        /**
         * One window of the warm-up: JIT compile time in it (ms), the loop's lateness p99 (ms), and the requests the
         * sink answered in its measured half and those that failed (none, unless the sink and the engine disagree);
         * those two null in a summary written before they were recorded.
         */
        public record Window(long compileMs, double loopLatenessP99Ms,
                             @JsonInclude(JsonInclude.Include.NON_NULL) Long completed,
                             @JsonInclude(JsonInclude.Include.NON_NULL) Long errors) {
        }
    }

    /**
     * What the generator process itself consumed during the run (summed over its processes).
     *
     * @param engineCpuPercent     the engine thread's time on a CPU over the measured phase's wall time, in
     *                             percent (the busiest process's), less what it spent polling for responses that had
     *                             not come (HTTP/2 with several streams a connection polls briefly before it sleeps)
     * @param engineWaitingPercent the engine thread's time runnable but waiting for a CPU, in percent (Linux
     *                             only, else 0): with the running time near 100, the engine had no time to spare
     * @param processCpuPercent    the process's CPU time from the start of the measured phase to the end of the
     *                             run, as a share of the CPUs it may run on, in percent (the busiest process's):
     *                             where a client library's own threads do the work, this, not the engine
     *                             thread, says whether the generator had time to spare
     */
    public record GeneratorCost(long cpuMs, long heapUsedMaxBytes, int threadsPeak, double engineCpuPercent,
                                double engineWaitingPercent, double processCpuPercent) {
    }

    /**
     * What QUIC did under an HTTP/3 load, from quiche's own counts (summed over engines and processes): connections
     * opened, those that ended before the run did (a handshake that failed, a connection the peer closed or that went
     * silent until its idle timeout), and over the connections open at the end the packets the generator sent, those it
     * declared lost and those it sent again (loss recovery).
     */
    public record Quic(int connectionsOpened, int connectionsEndedEarly, long packetsSent, long packetsLost,
                       long packetsRetransmitted) {
        /** The sum of {@code this} and {@code other}. */
        public Quic plus(Quic other) {
            return new Quic(connectionsOpened + other.connectionsOpened, connectionsEndedEarly + other.connectionsEndedEarly,
                    packetsSent + other.packetsSent, packetsLost + other.packetsLost,
                    packetsRetransmitted + other.packetsRetransmitted);
        }
    }

    /**
     * What a request cost each side in CPU, µs: the process's CPU time from the start of the measured phase to the end of
     * the run, divided by the requests it completed in that time (the target's from its own {@code /stats}, the
     * generator's the measured requests completed). Null where unknown: a target that does not say its CPU time, a run
     * that completed none.
     */
    public record CpuPerRequest(@JsonInclude(JsonInclude.Include.NON_NULL) Double targetUs,
                                @JsonInclude(JsonInclude.Include.NON_NULL) Double generatorUs) {
        /** {@code cpuNs} over {@code requests}, in µs; null when either is unknown or there were none. */
        public static Double of(long cpuNs, long requests) {
            return cpuNs <= 0 || requests <= 0 ? null : cpuNs / 1_000.0 / requests;
        }
    }

    /**
     * What a max-concurrency run held at the end of its measured phase.
     *
     * @param connected     connections established at the end of the measured phase
     * @param held          requests sent and still unanswered then: held by the server
     * @param connectRetries connects that timed out during the hold and were tried again: a connect slowed by a busy
     *                       generator or a busy target is not the count the server takes on (0 in summaries written
     *                       before it was counted)
     * @param serverAtStart the target's {@code /stats} when the measured phase began; null without an admin URL
     * @param serverAtEnd   the target's {@code /stats} at its end, connections still held
     */
    public record Concurrency(long connected, long held, @JsonInclude(JsonInclude.Include.NON_DEFAULT) long connectRetries,
                              ServerStats serverAtStart, ServerStats serverAtEnd) {
        /** Requests the server started processing during the measured phase; -1 when unknown. */
        public long serverStarted() {
            return serverAtStart == null || serverAtEnd == null ? -1 : serverAtEnd.started() - serverAtStart.started();
        }
    }

    /**
     * A Gauntlet target's {@code GET /stats} on its admin port.
     *
     * @param cpuMs    the target process's CPU time since it started (0 from a target that does not say)
     * @param cpus     the CPUs it may run on (0 when it does not say)
     * @param uptimeMs the target process's age when it answered
     */
    public record ServerStats(long started, long completed, long inFlight, long maxInFlight, long errors, long cpuMs,
                              int cpus, long uptimeMs) {

        /** The share of its CPUs the target used between {@code earlier} and this, in percent; null when unknown. */
        public Double cpuPercentSince(ServerStats earlier) {
            long wallMs = uptimeMs - earlier.uptimeMs();
            return cpus == 0 || wallMs <= 0 ? null : 100.0 * (cpuMs - earlier.cpuMs()) / ((double) cpus * wallMs);
        }
    }
}
