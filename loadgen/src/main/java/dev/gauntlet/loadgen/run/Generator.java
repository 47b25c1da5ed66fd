package dev.gauntlet.loadgen.run;

import dev.gauntlet.api.AdminToken;
import dev.gauntlet.api.Capacity;
import dev.gauntlet.api.LoadModel;
import dev.gauntlet.api.LoadSpec;
import dev.gauntlet.api.RunDirectory;
import dev.gauntlet.api.RunSummary;
import dev.gauntlet.hiccup.CapacityLog;
import dev.gauntlet.hiccup.HiccupMeter;
import dev.gauntlet.loadgen.failure.GeneratorException;
import dev.gauntlet.loadgen.measure.AdminClient;
import dev.gauntlet.loadgen.measure.CapacityCourse;
import dev.gauntlet.loadgen.measure.CostMeter;
import dev.gauntlet.loadgen.measure.IntervalLogs;
import dev.gauntlet.loadgen.measure.LatencyRecorder;
import dev.gauntlet.loadgen.measure.RequestCounters;
import dev.gauntlet.loadgen.measure.SteadyJudge;
import dev.gauntlet.loadgen.measure.TargetWatch;
import dev.gauntlet.loadgen.measure.TrafficLog;
import dev.gauntlet.loadgen.split.HostLimits;
import dev.gauntlet.loadgen.split.LoadShares;
import dev.gauntlet.loadgen.split.Preflight;
import dev.gauntlet.loadgen.split.ResultMerge;
import dev.gauntlet.loadgen.transport.ClientEngines;
import dev.gauntlet.loadgen.transport.SourceAddresses;
import dev.gauntlet.loadgen.transport.TargetAddress;
import dev.gauntlet.loadgen.verdict.Verdicts;

import java.io.IOException;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * Runs one bounded load against one URL in this process and returns what it measured; the library entry point of the
 * load generator ({@code GeneratorMain} is the same as a process, and splits a load over several with
 * {@code MultiProcess}).
 *
 * <pre>{@code
 * LoadSpec spec = LoadSpec.of(URI.create("http://127.0.0.1:8080/hello?wait=100"),
 *                             new LoadModel.OpenLoop(1_000, LoadModel.InterArrival.EXPONENTIAL))
 *         .withPhases(2_000, 10_000);
 * RunSummary summary = Generator.run(spec, Path.of("results/run-1"));
 * System.out.println(summary.responseTime().p99Ms());
 * }</pre>
 *
 * <p>Writes {@code summary.json}, {@code response.hlog}, {@code service.hlog}, {@code lag.hlog},
 * {@code hiccup.hlog}, {@code errors.csv} and {@code traffic.csv} into the output directory (none when it is null),
 * and {@code target-hiccup.hlog} when the spec names the target's admin URL; the logs hold one
 * histogram per second of the measured phase, {@code errors.csv} the errors of each of those
 * seconds by class, {@code traffic.csv} the requests in flight, connections and bytes of every second of the run,
 * warm-up included. Progress goes to stderr, one line a second at most. Interrupting the
 * calling thread ends the run early, as its hard cap does, and still writes the files.
 *
 * @throws GeneratorException when the target is unreachable or the spec cannot run here
 */
public final class Generator {
    private Generator() {
    }

    public static RunSummary run(LoadSpec spec, Path outputDir) {
        return run(spec, outputDir, System.err);
    }

    /**
     * {@link #run}, once the generator JVM's own JIT has settled ({@code JitWarmup}), whose windows {@code warmup} holds
     * (null: it did not run); {@code summary.json}'s {@code generatorWarmup} records them.
     */
    public static RunSummary runWarmed(LoadSpec spec, Path outputDir, RunSummary.GeneratorWarmup warmup) {
        return run(spec, outputDir, System.err, HostLimits.read(), null, warmup);
    }

    /**
     * A share of a split load, which waited for the common start {@code startAt}: its schedule
     * counts from that instant, not from when this process got going, so that the shares keep
     * their places in the whole schedule (what this process was late by shows as schedule lag).
     * A null {@code startAt} is {@link #run}'s own start.
     */
    public static RunSummary runFrom(LoadSpec spec, Path outputDir, Instant startAt) {
        return run(spec, outputDir, System.err, HostLimits.read(), startAt, null);
    }

    public static RunSummary run(LoadSpec spec, Path outputDir, PrintStream progress) {
        return run(spec, outputDir, progress, HostLimits.read());
    }

    public static RunSummary run(LoadSpec spec, Path outputDir, PrintStream progress, HostLimits limits) {
        return run(spec, outputDir, progress, limits, null, null);
    }

    /**
     * What {@link #run} checks before it starts, alone: the machine's limits allow the load and
     * the target accepts a connection. A shard runs it before it reports ready.
     *
     * @throws GeneratorException when the spec cannot run here or the target is unreachable
     */
    public static void check(LoadSpec spec) {
        preflight(spec, TargetAddress.resolve(spec), HostLimits.read());
    }

    /**
     * Merges the results of a load split over {@code shardDirs} (each a {@link #run}'s output
     * directory) into {@code outputDir} as one run: interval k of each merged log is the sum of
     * every shard's interval k, counts add up, the verdict is judged on the whole.
     */
    public static RunSummary merge(LoadSpec spec, List<Path> shardDirs, Path outputDir) {
        try {
            RunSummary merged = ResultMerge.merge(spec, shardDirs, outputDir);
            new RunDirectory(outputDir).writeSummary(merged);
            return merged;
        } catch (IOException e) {
            throw new GeneratorException("the shards' results could not be merged: " + e.getMessage());
        }
    }

    private static RunSummary run(LoadSpec spec, Path outputDir, PrintStream progress, HostLimits limits, Instant startAt,
                                  RunSummary.GeneratorWarmup warmup) {
        InetSocketAddress address = TargetAddress.resolve(spec);
        InetAddress[] sources = SourceAddresses.resolve(spec.sourceAddresses());
        if (spec.processes() > 1) {
            throw new IllegalArgumentException("a load over " + spec.processes() + " processes is MultiProcess's to run");
        }
        Preflight.Plan plan = preflight(spec, address, limits);
        plan.warnings().forEach(warning -> progress.println("gauntlet load: warning: " + warning));
        if (outputDir != null) {
            try {
                Files.createDirectories(outputDir);
            } catch (IOException e) {
                throw new GeneratorException("cannot create the output directory " + outputDir + ": " + e.getMessage());
            }
        }
        LatencyRecorder recorder = new LatencyRecorder(spec.threads());
        Instant now = Instant.now();
        long nowNs = System.nanoTime();
        Instant startedAt = startAt == null || startAt.isAfter(now) ? now : startAt;
        long runStartNs = nowNs - Duration.between(startedAt, now).toNanos();
        AdminClient admin = spec.adminUrl() == null ? null : new AdminClient(spec.adminUrl(), AdminToken.forClient());
        EngineThreads engine = new EngineThreads(spec, address, sources, plan.maxConnections(), runStartNs, recorder, admin);
        CostMeter cost = new CostMeter(engine::demands);
        progress.printf(Locale.ROOT, "gauntlet load: %s -> %s, warm-up %s, measured %s%s%n", spec.model().describe(),
                spec.url(), spec.steady() == null ? seconds(spec.warmupMs())
                        : seconds(spec.warmupMs()) + " to " + seconds(spec.warmupMaxMs()) + " until steady",
                seconds(spec.durationMs()), spec.threads() > 1 ? ", " + spec.threads() + " engine threads" : "");

        ScheduledExecutorService ticker = Executors.newSingleThreadScheduledExecutor(Thread.ofPlatform()
                .name("gauntlet-interval").daemon(true).factory());
        HiccupMeter hiccups = HiccupMeter.start();
        CapacityLog capacityLog = CapacityLog.start();
        boolean held = spec.model().holdsRequests();
        // Max concurrency reads the target's counts at its burst itself: a reset then would split them.
        TargetWatch target = admin == null ? null : new TargetWatch(admin, !held, progress);
        Runnable atMeasureStart = target == null ? cost::measureStarts : () -> {
            cost.measureStarts();
            target.measureStarts();
        };
        SteadyJudge judge = new SteadyJudge(spec, runStartNs, target == null ? () -> null : target::jit);
        // The logs count from the measured phase's start, which a warm-up until steady decides as it goes.
        Function<Long, IntervalLogs> openLogs = outputDir == null ? null : measureStartNs -> new IntervalLogs(outputDir,
                epochMs(startedAt, runStartNs, measureStartNs), spec.model().describe() + " " + spec.url());
        long firstTickMs = spec.warmupMs() % TickSchedule.TICK_MS;
        TickSchedule ticks = new TickSchedule(System.nanoTime(), firstTickMs,
                runStartNs + TimeUnit.MILLISECONDS.toNanos(spec.warmupMs()));
        HiccupIntervals hiccupIntervals = new HiccupIntervals(hiccups, engine);
        TrafficIntervals traffic = new TrafficIntervals(outputDir == null ? null : TrafficLog.create(
                new RunDirectory(outputDir).traffic(), spec.model().describe() + " " + spec.url()), engine::traffic, runStartNs);
        IntervalTicker tick = new IntervalTicker(new TickSources(engine, recorder, hiccupIntervals, judge, ticks, progress),
                target, traffic, openLogs, cost, atMeasureStart);
        ticker.scheduleAtFixedRate(tick, firstTickMs, TickSchedule.TICK_MS, TimeUnit.MILLISECONDS);
        try {
            engine.run();
        } finally {
            // An interrupt ends the run; it is restored once the files are written.
            boolean interrupted = Thread.interrupted();
            ticker.shutdownNow();
            awaitQuietly(ticker);
            tick.sampleInterval();
            traffic.close(System.nanoTime());
            hiccups.close();
            capacityLog.close();
            cost.sample();
            tick.closeLogs();
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
        // Before the target is asked: its admin calls are no part of the engine's window.
        RunSummary.GeneratorCost generatorCost = cost.finish();
        long measureStartEpochMs = epochMs(startedAt, runStartNs, engine.measureStartNs());
        TargetWatch.Figures targetFigures = target == null ? TargetWatch.Figures.UNKNOWN
                : target.finish(measureStartEpochMs, outputDir);
        RunSummary.Steadiness steadiness = held ? null
                : judge.result(TimeUnit.NANOSECONDS.toMillis(engine.measureStartNs() - runStartNs));
        List<Long> windowStartsEpochMs = held ? List.of() : judge.measuredWindowStartsNs().stream()
                .map(ns -> epochMs(startedAt, runStartNs, ns)).toList();
        Capacity capacity = new CapacityCourse(targetFigures.capacity(), capacityLog.seconds(), windowStartsEpochMs)
                .write(outputDir);
        RunSummary summary = Verdicts.judge(summarise(spec, startedAt, engine, recorder, tick, hiccupIntervals,
                targetFigures, generatorCost, steadiness, capacity).toBuilder().errorKinds(engine.errorKinds(spec))
                .bytes(engine.measuredBytes()).timings(engine.timings())
                .cpuPerRequest(new RunSummary.CpuPerRequest(targetFigures.cpuUsPerRequest(),
                        cost.cpuUsPerRequest(engine.counters().completedCount()))).quic(engine.quic()).build())
                .withGeneratorWarmup(warmup);
        if (outputDir != null) {
            try {
                new RunDirectory(outputDir).writeSummary(summary);
            } catch (IOException e) {
                throw new GeneratorException("cannot write the summary into " + outputDir + ": " + e.getMessage());
            }
        }
        return summary;
    }

    /** The wall-clock time, epoch ms, of {@code nanoTimeNs} in a run that started at {@code startedAt} ({@code runStartNs}). */
    private static long epochMs(Instant startedAt, long runStartNs, long nanoTimeNs) {
        return startedAt.toEpochMilli() + TimeUnit.NANOSECONDS.toMillis(nanoTimeNs - runStartNs);
    }

    private static RunSummary summarise(LoadSpec spec, Instant startedAt, EngineThreads engine, LatencyRecorder recorder,
                                        IntervalTicker tick, HiccupIntervals hiccups, TargetWatch.Figures target,
                                        RunSummary.GeneratorCost cost, RunSummary.Steadiness steadiness,
                                        Capacity capacity) {
        double measuredSec = engine.measuredNs() / 1e9;
        RequestCounters counters = engine.counters();
        return RunSummary.builder().spec(spec).startedAt(startedAt).measuredSec(measuredSec)
                .scheduled(engine.measuredIssued()).sent(counters.sentCount()).completed(counters.completedCount())
                .errors(counters.errors()).achievedRatePerSec(counters.completedInPhaseCount() / measuredSec)
                .sustainedRatePerSec(spec.model().schedulesByRate() ? tick.sustained().perSec(engine.measuredNs()) : null)
                .responseTime(LatencyRecorder.percentiles(recorder.responseTotal()))
                .serviceTime(LatencyRecorder.percentiles(recorder.serviceTotal()))
                .scheduleLag(LatencyRecorder.percentiles(recorder.lagTotal()))
                .connectionsOpened(counters.connectionsOpenedCount()).generatorCost(cost)
                .loopLateness(LatencyRecorder.percentiles(engine.loopLateness()))
                .generatorHiccups(LatencyRecorder.percentiles(hiccups.total())).targetHiccups(target.hiccups())
                .targetCpuPercent(target.cpuPercent())
                .connectionsPeak(engine.connectionsPeak()).connectionsLimit(engine.connectionsLimit())
                .hardCapReached(engine.hardCapReached()).concurrency(engine.concurrency())
                .unansweredAtEnd(counters.resolvedAfterEndCount()).connectTime(LatencyRecorder.percentiles(engine.connectTimes()))
                .steadiness(steadiness).connectionsOpenedMeasured(counters.connectionsOpenedMeasuredCount())
                .droppedQueueFull(counters.droppedQueueFullCount()).wakeGranularityMs(engine.wakeGranularityMs(spec))
                .goodputPerSec(counters.answeredInPhaseCount() / measuredSec).capacity(capacity).build();
    }

    private static Preflight.Plan preflight(LoadSpec spec, InetSocketAddress address, HostLimits limits) {
        Preflight.checkRate(spec);
        // With several processes each one's share must fit; the message still counts them all.
        Preflight.Plan plan = Preflight.check(spec.processes() == 1 ? spec
                : LoadShares.share(spec, 0).toBuilder().processes(spec.processes()).build(), limits);
        if (spec.client() != null) {
            ClientEngines.check(spec);
        }
        TargetAddress.checkReachable(spec, address);
        return plan;
    }

    private static String seconds(long ms) {
        return ms % 1000 == 0 ? ms / 1000 + "s" : ms + "ms";
    }

    private static void awaitQuietly(ScheduledExecutorService executor) {
        try {
            executor.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
