package dev.gauntlet.loadgen;

import com.sun.management.OperatingSystemMXBean;
import dev.gauntlet.api.ErrorClass;
import dev.gauntlet.api.Json;
import dev.gauntlet.api.LoadModel;
import dev.gauntlet.api.LoadSpec;
import dev.gauntlet.api.Numbers;
import dev.gauntlet.api.RunSummary;
import org.HdrHistogram.Histogram;

import java.io.IOException;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.lang.management.ThreadMXBean;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

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
 * <p>Writes {@code summary.json}, {@code response.hlog}, {@code service.hlog} and {@code lag.hlog}
 * into the output directory (none when it is null); the logs hold one histogram per second of
 * the measured phase. Progress goes to stderr, one line a second at most. Interrupting the
 * calling thread ends the run early, as its hard cap does, and still writes the files.
 *
 * @throws GeneratorException when the target is unreachable or the spec cannot run here
 */
public final class Generator {
    static final String SUMMARY = "summary.json";
    private static final long TICK_MS = 1_000;

    private Generator() {
    }

    public static RunSummary run(LoadSpec spec, Path outputDir) {
        return run(spec, outputDir, System.err);
    }

    static RunSummary run(LoadSpec spec, Path outputDir, PrintStream progress) {
        return run(spec, outputDir, progress, Preflight.Limits.read());
    }

    static RunSummary run(LoadSpec spec, Path outputDir, PrintStream progress, Preflight.Limits limits) {
        InetSocketAddress address = resolve(spec);
        InetAddress[] sources = SourceAddresses.resolve(spec.sourceAddresses());
        // With several processes each one's share must fit; the message still counts them all.
        Preflight.Plan plan = Preflight.check(spec.processes() == 1 ? spec
                : MultiProcess.share(spec, 0).toBuilder().processes(spec.processes()).build(), limits);
        checkReachable(address, spec.connectTimeoutMs());
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
        Cost cost = new Cost();
        LatencyRecorder recorder = new LatencyRecorder();
        RequestCounters counters = new RequestCounters();
        Instant startedAt = Instant.now();
        long runStartNs = System.nanoTime();
        LeanEngine engine = new LeanEngine(spec, address, sources, plan.maxConnections(), runStartNs, recorder, counters,
                spec.adminUrl() == null ? null : new AdminClient(spec.adminUrl()));
        progress.printf(Locale.ROOT, "gauntlet load: %s -> %s, warm-up %s, measured %s%n", spec.model().describe(),
                spec.url(), seconds(spec.warmupMs()), seconds(spec.durationMs()));

        IntervalLogs logs = outputDir == null ? null
                : new IntervalLogs(outputDir, startedAt.toEpochMilli() + spec.warmupMs(), spec.model().describe() + " " + spec.url());
        ScheduledExecutorService ticker = Executors.newSingleThreadScheduledExecutor(Thread.ofPlatform()
                .name("gauntlet-interval").daemon(true).factory());
        Progress tick = new Progress(engine, recorder, counters, logs, cost, progress);
        ticker.scheduleAtFixedRate(tick, spec.warmupMs() % TICK_MS, TICK_MS, TimeUnit.MILLISECONDS);
        try {
            engine.run();
        } finally {
            // An interrupt ends the run; it is restored once the files are written.
            boolean interrupted = Thread.interrupted();
            ticker.shutdownNow();
            awaitQuietly(ticker);
            recorder.sampleInterval(logs);
            cost.sample();
            if (logs != null) {
                logs.close();
            }
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
        RunSummary summary = summarise(spec, startedAt, engine, recorder, counters, cost.finish());
        if (outputDir != null) {
            write(summary, outputDir.resolve(SUMMARY));
        }
        return summary;
    }

    private static RunSummary summarise(LoadSpec spec, Instant startedAt, LeanEngine engine, LatencyRecorder recorder,
                                        RequestCounters counters, RunSummary.GeneratorCost cost) {
        double measuredSec = engine.measuredNs() / 1e9;
        Map<ErrorClass, Long> errors = counters.errors();
        Histogram lag = recorder.lagTotal();
        List<String> reasons = new ArrayList<>();
        double lagP99Ms = lag.getTotalCount() == 0 ? 0 : lag.getValueAtPercentile(99) / 1e6;
        // Max concurrency has no schedule to keep: its lag is how long the N connections took to open.
        if (lagP99Ms > spec.maxScheduleLagP99Ms() && !(spec.model() instanceof LoadModel.MaxConcurrency)) {
            double loopLateP99Ms = engine.loopLatenessP99Ms();
            boolean loopKeptTime = spec.model() instanceof LoadModel.OpenLoop && loopLateP99Ms <= spec.maxScheduleLagP99Ms();
            reasons.add(loopKeptTime
                    ? String.format(Locale.ROOT, "schedule lag p99 %.2f ms exceeds %.2f ms: requests waited for a "
                            + "connection while the generator's loop kept time (its own lateness p99 %.2f ms), so the "
                            + "server accepted connections too slowly or the connection limit (%d open at most) is too low",
                    lagP99Ms, spec.maxScheduleLagP99Ms(), loopLateP99Ms, engine.connectionsPeak())
                    : String.format(Locale.ROOT, "schedule lag p99 %.2f ms exceeds %.2f ms", lagP99Ms, spec.maxScheduleLagP99Ms()));
        }
        if (spec.model() instanceof LoadModel.OpenLoop open) {
            // Requests refused or timed out at connect were offered; the rest of the shortfall is ours.
            long offered = counters.sentCount() + errors.get(ErrorClass.REFUSED) + errors.get(ErrorClass.CONNECT_TIMEOUT);
            double offeredRatePerSec = offered / measuredSec;
            if (offeredRatePerSec < 0.95 * open.ratePerSec() && offered < 0.95 * engine.measuredIssued()) {
                reasons.add(String.format(Locale.ROOT, "sent %d of %d scheduled requests (%.0f/s of %s/s)",
                        offered, engine.measuredIssued(), offeredRatePerSec, Numbers.compact(open.ratePerSec())));
            }
        }
        return new RunSummary(spec, startedAt, measuredSec, counters.sentCount(), counters.completedCount(), errors,
                counters.completedCount() / measuredSec,
                LatencyRecorder.percentiles(recorder.responseTotal()),
                LatencyRecorder.percentiles(recorder.serviceTotal()),
                LatencyRecorder.percentiles(lag),
                counters.connectionsOpenedCount(), cost, !reasons.isEmpty(), List.copyOf(reasons),
                engine.connectionsPeak(), engine.hardCapReached(), engine.concurrency(), 1);
    }

    static void write(RunSummary summary, Path file) {
        try {
            Json.json().writeValue(file.toFile(), summary);
        } catch (IOException e) {
            throw new GeneratorException("cannot write " + file + ": " + e.getMessage());
        }
    }

    private static InetSocketAddress resolve(LoadSpec spec) {
        int port = spec.url().getPort() < 0 ? 80 : spec.url().getPort();
        InetSocketAddress address = new InetSocketAddress(spec.url().getHost(), port);
        if (address.isUnresolved()) {
            throw new GeneratorException("unknown host " + spec.url().getHost());
        }
        return address;
    }

    /** One blocking connect first, so a wrong port is one clear line rather than a run of refusals. */
    private static void checkReachable(InetSocketAddress address, long connectTimeoutMs) {
        try (Socket socket = new Socket()) {
            socket.connect(address, (int) Math.min(connectTimeoutMs, Integer.MAX_VALUE));
        } catch (ConnectException e) {
            throw new GeneratorException("nothing listens on " + hostPort(address));
        } catch (SocketTimeoutException e) {
            throw new GeneratorException("no answer from " + hostPort(address) + " within " + connectTimeoutMs + " ms");
        } catch (IOException e) {
            throw new GeneratorException("cannot connect to " + hostPort(address) + ": " + e.getMessage());
        }
    }

    private static String hostPort(InetSocketAddress address) {
        return address.getHostString() + ":" + address.getPort();
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

    /** Once a second: the interval into the logs, the cost sample, one progress line. */
    private record Progress(LeanEngine engine, LatencyRecorder recorder, RequestCounters counters, IntervalLogs logs,
                            Cost cost, PrintStream out) implements Runnable {
        @Override
        public void run() {
            long nowNs = System.nanoTime();
            cost.sample();
            long sinceMeasureStartNs = nowNs - engine.measureStartNs();
            if (sinceMeasureStartNs < -TimeUnit.MILLISECONDS.toNanos(100)) {
                out.printf(Locale.ROOT, "  warm-up %ds to go%n", Math.round(-sinceMeasureStartNs / 1e9));
                return;
            }
            // The tick at the start of the measured phase closes the warm-up interval, empty unless it came late.
            boolean measuring = sinceMeasureStartNs >= TimeUnit.MILLISECONDS.toNanos(100);
            recorder.sampleInterval(logs, !measuring);
            if (measuring) {
                out.printf(Locale.ROOT, "  %3ds  sent %d  completed %d  errors %d  p99 so far %.2f ms%n",
                        Math.round(sinceMeasureStartNs / 1e9), counters.sentCount(), counters.completedCount(),
                        counters.errorCount(), recorder.responseTotal().getValueAtPercentile(99) / 1e6);
            }
        }
    }

    /** The generator's own CPU time, peak heap and peak threads over the run. */
    private static final class Cost {
        private final OperatingSystemMXBean os = ManagementFactory.getPlatformMXBean(OperatingSystemMXBean.class);
        private final MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
        private final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        private final long cpuStartNs;
        private volatile long heapUsedMaxBytes;

        Cost() {
            threads.resetPeakThreadCount();
            cpuStartNs = os.getProcessCpuTime();
        }

        void sample() {
            heapUsedMaxBytes = Math.max(heapUsedMaxBytes, memory.getHeapMemoryUsage().getUsed());
        }

        RunSummary.GeneratorCost finish() {
            return new RunSummary.GeneratorCost(TimeUnit.NANOSECONDS.toMillis(os.getProcessCpuTime() - cpuStartNs),
                    heapUsedMaxBytes, threads.getPeakThreadCount());
        }
    }
}
