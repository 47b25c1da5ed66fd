package dev.gauntlet.loadgen.verdict;

import dev.gauntlet.api.Capacity;
import dev.gauntlet.api.ErrorClass;
import dev.gauntlet.api.LoadModel;
import dev.gauntlet.api.LoadSpec;
import dev.gauntlet.api.Percentiles;
import dev.gauntlet.api.RunSummary;

import java.net.URI;
import java.time.Instant;
import java.util.EnumMap;
import java.util.Map;

/**
 * A constructed run for the verdict tests, judged by {@link Verdicts}: by default a clean open loop
 * of 1,000 requests/s for 10 s at a 1 ms median service; each test changes what its rule looks at.
 */
final class ConstructedRun {
    static final LoadSpec OPEN = LoadSpec.of(URI.create("http://127.0.0.1:1/hello"),
            new LoadModel.OpenLoop(1_000, LoadModel.InterArrival.EXPONENTIAL));
    static final LoadSpec CLOSED = LoadSpec.of(URI.create("http://127.0.0.1:1/hello"), new LoadModel.ClosedLoop(50));
    static final LoadSpec HELD = LoadSpec.of(URI.create("http://127.0.0.1:1/hello?wait=9000"), new LoadModel.MaxConcurrency(19_000));

    LoadSpec spec = OPEN;
    long scheduled = 10_000;
    long sent = 10_000;
    Map<ErrorClass, Long> errors = new EnumMap<>(ErrorClass.class);
    double lagP99Ms = 0.2;
    double loopLateP99Ms = 0.2;
    double serviceP50Ms = 1;
    /** NaN: twice the median. */
    double serviceP99Ms = Double.NaN;
    double connectP99Ms = 0.2;
    double responseP99Ms = 2;
    double hiccupP99Ms = 0.3;
    double hiccupMaxMs = 2;
    double engineCpuPercent = 20;
    double engineWaitingPercent = 1;
    double processCpuPercent = 25;
    Double targetCpuPercent = 30.0;
    int connectionsPeak = 10;
    int connectionsLimit = 19_000;
    boolean hardCapReached;
    Double sustainedRatePerSec = 1_000.0;
    RunSummary.Steadiness steadiness;
    long connectionsOpenedMeasured;
    long droppedQueueFull;
    double wakeGranularityMs;
    Capacity capacity = Capacity.UNKNOWN;
    /** A held run's figures; null for the other models. */
    RunSummary.Concurrency concurrency;

    RunSummary judge() {
        for (ErrorClass c : ErrorClass.values()) {
            errors.putIfAbsent(c, 0L);
        }
        long failed = errors.values().stream().mapToLong(Long::longValue).sum();
        return Verdicts.judge(RunSummary.builder().spec(spec).startedAt(Instant.EPOCH).measuredSec(10).scheduled(scheduled)
                .sent(sent).completed(sent - failed).errors(errors).achievedRatePerSec((sent - failed) / 10.0)
                .sustainedRatePerSec(sustainedRatePerSec).responseTime(latency(serviceP50Ms, responseP99Ms))
                .serviceTime(latency(serviceP50Ms, Double.isNaN(serviceP99Ms) ? 2 * serviceP50Ms : serviceP99Ms))
                .scheduleLag(latency(lagP99Ms / 4, lagP99Ms)).connectionsOpened(connectionsPeak)
                .generatorCost(new RunSummary.GeneratorCost(1_000, 1 << 20, 8, engineCpuPercent, engineWaitingPercent,
                        processCpuPercent))
                .loopLateness(spec.model().scheduledRatePerSec() > 0
                        ? latency(loopLateP99Ms / 4, loopLateP99Ms) : Percentiles.EMPTY)
                .generatorHiccups(new Percentiles(10_000, 0.1, 0.1, 0.1, hiccupP99Ms, hiccupMaxMs, hiccupMaxMs, hiccupMaxMs))
                .targetCpuPercent(targetCpuPercent).connectionsPeak(connectionsPeak).connectionsLimit(connectionsLimit)
                .hardCapReached(hardCapReached).connectTime(latency(connectP99Ms / 4, connectP99Ms)).steadiness(steadiness)
                .connectionsOpenedMeasured(connectionsOpenedMeasured).droppedQueueFull(droppedQueueFull)
                .wakeGranularityMs(wakeGranularityMs).concurrency(concurrency).capacity(capacity).build());
    }

    private static Percentiles latency(double p50Ms) {
        return latency(p50Ms, 2 * p50Ms);
    }

    private static Percentiles latency(double p50Ms, double p99Ms) {
        return new Percentiles(10_000, p50Ms, p50Ms, p50Ms, p99Ms, p99Ms, p99Ms, p99Ms);
    }
}
