package dev.gauntlet.loadgen;

import dev.gauntlet.api.AdminToken;
import dev.gauntlet.api.ErrorClass;
import dev.gauntlet.api.Json;
import dev.gauntlet.api.LoadModel;
import dev.gauntlet.api.LoadSpec;
import dev.gauntlet.api.Percentiles;
import dev.gauntlet.api.RunDirectory;
import dev.gauntlet.api.RunSummary;
import dev.gauntlet.hiccup.HiccupMeter;
import dev.gauntlet.loadgen.measure.AdminClient;
import dev.gauntlet.loadgen.measure.CostMeter;
import dev.gauntlet.loadgen.measure.ErrorLog;
import dev.gauntlet.loadgen.measure.IntervalLogs;
import dev.gauntlet.loadgen.measure.JitWarmup;
import dev.gauntlet.loadgen.measure.LatencyRecorder;
import dev.gauntlet.loadgen.measure.RequestCounters;
import dev.gauntlet.loadgen.measure.SteadyJudge;
import dev.gauntlet.loadgen.measure.SustainedRate;
import dev.gauntlet.loadgen.measure.TargetWatch;
import dev.gauntlet.loadgen.split.HostLimits;
import dev.gauntlet.loadgen.split.LoadShares;
import dev.gauntlet.loadgen.split.MultiProcess;
import dev.gauntlet.loadgen.split.Preflight;
import dev.gauntlet.loadgen.split.ResultMerge;
import dev.gauntlet.loadgen.transport.ClientEngines;
import dev.gauntlet.loadgen.transport.SourceAddresses;
import dev.gauntlet.loadgen.verdict.Verdicts;
import org.HdrHistogram.Histogram;

import java.io.IOException;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * Runs one bounded load against one URL and returns what it measured; the library entry point
 * of the load generator ({@link GeneratorMain} is the same as a process).
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
 * {@code hiccup.hlog} and {@code errors.csv} into the output directory (none when it is null),
 * and {@code target-hiccup.hlog} when the spec names the target's admin URL; the logs hold one
 * histogram per second of the measured phase, {@code errors.csv} the errors of each of those
 * seconds by class. Progress goes to stderr, one line a second at most. Interrupting the
 * calling thread ends the run early, as its hard cap does, and still writes the files.
 *
 * @throws GeneratorException when the target is unreachable or the spec cannot run here
 */
public final class Generator {
    /** How long {@link #runWarmed} may spend warming the generator's JIT before the run, at most. */
    public static final long JIT_WARMUP_MAX_MS = JitWarmup.MAX_MS + JitWarmup.WINDOW_MS;
    private static final long TICK_MS = 1_000;
    /** How long a tick of the warm-up waits for the target's JIT activity before it judges the window without it. */
    private static final long JIT_POLL_WAIT_MS = 200;

    private Generator() {
    }

    public static RunSummary run(LoadSpec spec, Path outputDir) {
        return run(spec, outputDir, System.err);
    }

    /**
     * {@link #run}, once the generator JVM's own JIT has settled: its engine is driven against a
     * loopback sink in this process until its compiler is nearly idle ({@code JitWarmup}), so the
     * run measures the target, not the generator compiling its loop. What a generator process the
     * runner starts does; {@code summary.json}'s {@code generatorWarmup} records the windows.
     */
    public static RunSummary runWarmed(LoadSpec spec, Path outputDir) {
        check(spec);
        return run(spec, outputDir, System.err, HostLimits.read(), null, JitWarmup.run(spec, System.err));
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
            write(merged, new RunDirectory(outputDir).summary());
            return merged;
        } catch (IOException e) {
            throw new GeneratorException("the shards' results could not be merged: " + e.getMessage());
        }
    }

    private static RunSummary run(LoadSpec spec, Path outputDir, PrintStream progress, HostLimits limits, Instant startAt,
                                  RunSummary.GeneratorWarmup warmup) {
        InetSocketAddress address = TargetAddress.resolve(spec);
        InetAddress[] sources = SourceAddresses.resolve(spec.sourceAddresses());
        Preflight.Plan plan = preflight(spec, address, limits);
        if (spec.processes() > 1) {
            return MultiProcess.run(spec, outputDir, progress);
        }
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
        CostMeter cost = new CostMeter(engine);
        progress.printf(Locale.ROOT, "gauntlet load: %s -> %s, warm-up %s, measured %s%s%n", spec.model().describe(),
                spec.url(), spec.steady() == null ? seconds(spec.warmupMs())
                        : seconds(spec.warmupMs()) + " to " + seconds(spec.warmupMaxMs()) + " until steady",
                seconds(spec.durationMs()), spec.threads() > 1 ? ", " + spec.threads() + " engine threads" : "");

        ScheduledExecutorService ticker = Executors.newSingleThreadScheduledExecutor(Thread.ofPlatform()
                .name("gauntlet-interval").daemon(true).factory());
        HiccupMeter hiccups = HiccupMeter.start();
        boolean held = spec.model().heldRequests() > 0;
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
        long firstTickMs = spec.warmupMs() % TICK_MS;
        Progress tick = new Progress(engine, recorder, hiccups, judge, target, openLogs, cost, atMeasureStart, progress,
                new Ticks(System.nanoTime(), firstTickMs, runStartNs + TimeUnit.MILLISECONDS.toNanos(spec.warmupMs())));
        ticker.scheduleAtFixedRate(tick, firstTickMs, TICK_MS, TimeUnit.MILLISECONDS);
        try {
            engine.run();
        } finally {
            // An interrupt ends the run; it is restored once the files are written.
            boolean interrupted = Thread.interrupted();
            ticker.shutdownNow();
            awaitQuietly(ticker);
            tick.sampleInterval();
            hiccups.close();
            cost.sample();
            tick.closeLogs();
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
        // Before the target is asked: its admin calls are no part of the engine's window.
        RunSummary.GeneratorCost generatorCost = cost.finish();
        long measureStartEpochMs = epochMs(startedAt, runStartNs, engine.measureStartNs());
        TargetWatch.Figures targetFigures = target == null ? new TargetWatch.Figures(Percentiles.EMPTY, null)
                : target.finish(measureStartEpochMs, outputDir);
        RunSummary.Steadiness steadiness = held ? null
                : judge.result(TimeUnit.NANOSECONDS.toMillis(engine.measureStartNs() - runStartNs));
        RunSummary summary = Verdicts.judge(summarise(spec, startedAt, engine, recorder, tick, targetFigures, generatorCost,
                steadiness)).withGeneratorWarmup(warmup);
        if (outputDir != null) {
            write(summary, new RunDirectory(outputDir).summary());
        }
        return summary;
    }

    /** The wall-clock time, epoch ms, of {@code nanoTimeNs} in a run that started at {@code startedAt} ({@code runStartNs}). */
    private static long epochMs(Instant startedAt, long runStartNs, long nanoTimeNs) {
        return startedAt.toEpochMilli() + TimeUnit.NANOSECONDS.toMillis(nanoTimeNs - runStartNs);
    }

    private static RunSummary summarise(LoadSpec spec, Instant startedAt, EngineThreads engine, LatencyRecorder recorder,
                                        Progress tick, TargetWatch.Figures target, RunSummary.GeneratorCost cost,
                                        RunSummary.Steadiness steadiness) {
        double measuredSec = engine.measuredNs() / 1e9;
        RequestCounters counters = engine.counters();
        return RunSummary.builder().spec(spec).startedAt(startedAt).measuredSec(measuredSec)
                .scheduled(engine.measuredIssued()).sent(counters.sentCount()).completed(counters.completedCount())
                .errors(counters.errors()).achievedRatePerSec(counters.completedInPhaseCount() / measuredSec)
                .sustainedRatePerSec(spec.model().scheduledRatePerSec() > 0 ? tick.sustained().perSec(engine.measuredNs()) : null)
                .responseTime(LatencyRecorder.percentiles(recorder.responseTotal()))
                .serviceTime(LatencyRecorder.percentiles(recorder.serviceTotal()))
                .scheduleLag(LatencyRecorder.percentiles(recorder.lagTotal()))
                .connectionsOpened(counters.connectionsOpenedCount()).generatorCost(cost)
                .loopLateness(LatencyRecorder.percentiles(engine.loopLateness()))
                .generatorHiccups(LatencyRecorder.percentiles(tick.hiccupTotal())).targetHiccups(target.hiccups())
                .targetCpuPercent(target.cpuPercent())
                .connectionsPeak(engine.connectionsPeak()).connectionsLimit(engine.connectionsLimit())
                .hardCapReached(engine.hardCapReached()).concurrency(engine.concurrency())
                .unansweredAtEnd(counters.resolvedAfterEndCount()).connectTime(LatencyRecorder.percentiles(engine.connectTimes()))
                .steadiness(steadiness).connectionsOpenedMeasured(counters.connectionsOpenedMeasuredCount())
                .droppedQueueFull(counters.droppedQueueFullCount()).wakeGranularityMs(engine.wakeGranularityMs(spec)).build();
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

    public static void write(RunSummary summary, Path file) {
        try {
            Json.json().writeValue(file.toFile(), summary);
        } catch (IOException e) {
            throw new GeneratorException("cannot write " + file + ": " + e.getMessage());
        }
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

    /**
     * The interval ticker's schedule: ticks at {@code firstTickMs} after {@code originNs} and every
     * second after that, so that a fixed warm-up ends on a tick; a warm-up until steady ends on the
     * tick after the one that judged it settled, and not before {@code minWarmupEndNs}.
     */
    private record Ticks(long originNs, long firstTickMs, long minWarmupEndNs) {
        /** The first tick after {@code nowNs}, as scheduled. */
        long nextAfter(long nowNs) {
            long firstNs = originNs + TimeUnit.MILLISECONDS.toNanos(firstTickMs);
            long tickNs = TimeUnit.MILLISECONDS.toNanos(TICK_MS);
            return firstNs + (Math.max(0, nowNs - firstNs) / tickNs + 1) * tickNs;
        }
    }

    /**
     * Once a second: in the warm-up, its window to the steady-state judge, which may end the warm-up
     * at the next tick; then the interval into the logs (latencies, hiccups, errors) and the judge,
     * the cost sample, one progress line. The tick at the start of the measured phase opens the logs,
     * closes the warm-up's interval and runs {@code atMeasureStart}.
     */
    private static final class Progress implements Runnable {
        private final EngineThreads engine;
        private final LatencyRecorder recorder;
        private final HiccupMeter hiccups;
        private final Histogram hiccupTotal = LatencyRecorder.newHistogram();
        private final SustainedRate sustained = new SustainedRate();
        private final SteadyJudge judge;
        private final TargetWatch target;
        private final Function<Long, IntervalLogs> openLogs;
        private final CostMeter cost;
        private final Runnable atMeasureStart;
        private final PrintStream out;
        private final Ticks ticks;
        private IntervalLogs logs;
        private boolean measureStarted;
        private long windowStartNs;
        /** The errors log's open interval: its start, whole ms from the measured phase's start, and the counts then. */
        private long errorsFromMs;
        private Map<ErrorClass, Long> errorsBefore = ErrorLog.zeros();

        Progress(EngineThreads engine, LatencyRecorder recorder, HiccupMeter hiccups, SteadyJudge judge, TargetWatch target,
                 Function<Long, IntervalLogs> openLogs, CostMeter cost, Runnable atMeasureStart, PrintStream out, Ticks ticks) {
            this.engine = engine;
            this.recorder = recorder;
            this.hiccups = hiccups;
            this.judge = judge;
            this.target = target;
            this.openLogs = openLogs;
            this.cost = cost;
            this.atMeasureStart = atMeasureStart;
            this.out = out;
            this.ticks = ticks;
            this.windowStartNs = ticks.originNs();
        }

        @Override
        public void run() {
            long nowNs = System.nanoTime();
            long sinceMeasureStartNs = nowNs - engine.measureStartNs();
            cost.sample();
            if (sinceMeasureStartNs < -TimeUnit.MILLISECONDS.toNanos(100)) {
                warmupWindow(nowNs, sinceMeasureStartNs);
                return;
            }
            if (!measureStarted) {
                measureStarted = true;
                if (openLogs != null) {
                    logs = openLogs.apply(engine.measureStartNs());
                }
                // The warm-up's last interval: recorded only if requests came late into it; its hiccups are dropped.
                hiccupInterval();
                recorder.sampleWarmup();
                recorder.sampleInterval(logs, true);
                windowStartNs = nowNs;
                atMeasureStart.run();
                if (sinceMeasureStartNs < TimeUnit.MILLISECONDS.toNanos(100)) {
                    return;
                }
            } else {
                sampleInterval();
            }
            RequestCounters counters = engine.counters();
            sustained.sample(sinceMeasureStartNs, counters.completedCount());
            out.printf(Locale.ROOT, "  %3ds  sent %d  completed %d  errors %d  p99 so far %.2f ms%n",
                    Math.round(sinceMeasureStartNs / 1e9), counters.sentCount(), counters.completedCount(),
                    counters.errorCount(), recorder.responseTotal().getValueAtPercentile(99) / 1e6);
        }

        /** A second of the warm-up to the judge; when it settled, the measured phase starts at the next tick. */
        private void warmupWindow(long nowNs, long sinceMeasureStartNs) {
            if (target != null) {
                target.pollJit(JIT_POLL_WAIT_MS);
            }
            judge.warmupWindow(recorder.sampleWarmup(), hiccupInterval(), windowStartNs, nowNs);
            windowStartNs = nowNs;
            if (!engine.warmupUntilSteady()) {
                out.printf(Locale.ROOT, "  warm-up %ds to go%n", Math.round(-sinceMeasureStartNs / 1e9));
                return;
            }
            long nextTickNs = ticks.nextAfter(nowNs);
            boolean settled = judge.settled();
            if (nextTickNs >= ticks.minWarmupEndNs() && (settled || judge.fallingBehind())) {
                engine.startMeasuringAt(nextTickNs);
                out.printf(Locale.ROOT, "  warm-up %s after %.0f s: measuring from the next second%n", settled ? "settled"
                        : "ended unsettled (the target falls behind the offered rate)", (nextTickNs - ticks.originNs()) / 1e9);
            } else {
                out.printf(Locale.ROOT, "  warm-up until steady, %ds at most to go: %s%n",
                        Math.round(-sinceMeasureStartNs / 1e9), judge.unsettledReason());
            }
        }

        /** The hiccups since the last tick; their p99 is the engines' wake floor for the next second. */
        private Histogram hiccupInterval() {
            Histogram interval = hiccups.intervalHistogram(); // a sample a millisecond: never empty
            engine.wakeFloor().measured(interval.getValueAtPercentile(99));
            return interval;
        }

        /** The interval since the last tick, latencies and hiccups alike, into the totals, the logs and the judge. */
        void sampleInterval() {
            long nowNs = System.nanoTime();
            Histogram hiccupInterval = hiccupInterval();
            if (measureStarted) {
                hiccupTotal.add(hiccupInterval);
            }
            long lateAnswers = recorder.sampleWarmup().response().getTotalCount();
            Histogram response = recorder.sampleInterval(logs);
            if (measureStarted && windowStartNs < engine.measureEndNs()) {
                judge.measuredWindow(response.getTotalCount() + lateAnswers, response, hiccupInterval, windowStartNs,
                        Math.min(nowNs, engine.measureEndNs()));
            }
            windowStartNs = nowNs;
            if (logs != null && measureStarted) {
                logs.writeHiccups(hiccupInterval);
            }
            if (logs != null) {
                writeErrors(System.nanoTime() - engine.measureStartNs());
            }
        }

        /** Closes the logs; a run that ended before its measured phase leaves them empty. */
        void closeLogs() {
            if (logs == null && openLogs != null) {
                logs = openLogs.apply(engine.measureStartNs());
            }
            if (logs != null) {
                logs.close();
            }
        }

        /**
         * The errors counted since the last interval. The counters count measured requests only, so
         * the first interval starts at the measured phase's start from zero, however late its first
         * tick came, and a run that ends before that start has none. Times are whole milliseconds, so
         * each interval starts where the one before ended, to the digit.
         */
        private void writeErrors(long sinceMeasureStartNs) {
            if (!measureStarted && sinceMeasureStartNs < 0) {
                return;
            }
            long toMs = Math.max(errorsFromMs, TimeUnit.NANOSECONDS.toMillis(sinceMeasureStartNs));
            Map<ErrorClass, Long> errors = engine.counters().errors();
            Map<ErrorClass, Long> interval = new EnumMap<>(ErrorClass.class);
            errors.forEach((errorClass, count) -> interval.put(errorClass, count - errorsBefore.get(errorClass)));
            logs.writeErrors(errorsFromMs / 1e3, (toMs - errorsFromMs) / 1e3, interval);
            errorsFromMs = toMs;
            errorsBefore = errors;
        }

        Histogram hiccupTotal() {
            return hiccupTotal;
        }

        SustainedRate sustained() {
            return sustained;
        }
    }
}
