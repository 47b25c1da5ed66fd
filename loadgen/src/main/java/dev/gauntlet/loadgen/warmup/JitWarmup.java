package dev.gauntlet.loadgen.warmup;

import dev.gauntlet.api.LoadModel;
import dev.gauntlet.api.LoadSpec;
import dev.gauntlet.api.RunSummary;
import dev.gauntlet.api.TlsTrust;
import dev.gauntlet.loadgen.failure.GeneratorException;
import dev.gauntlet.loadgen.run.Generator;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;

/**
 * Warms the generator JVM's own JIT before a run, apart from the target: drives the same engine,
 * load model and protocol (TLS and HTTP/2 included: cold, their records and frames held the first
 * measured second of an h2 run up to a quarter below its rate) against a {@link LoopbackSink} in this
 * process, in windows of {@link #WINDOW_MS},
 * until {@link #SETTLED_WINDOWS} windows in a row compiled for at most {@link #SETTLED_COMPILE_MS}
 * each (the compiler nearly idle: the hot code is compiled), or {@link #MAX_MS} passed. The loop's
 * lateness in each window is recorded, not judged: the compiler threads share the generator's CPUs,
 * so while they work the hiccup meter is late too, and lateness weighed against it looked settled
 * with half a second of compiling still to come.
 *
 * <pre>{@code
 * RunSummary.GeneratorWarmup warmup = JitWarmup.run(spec, System.err);   // null: nothing to warm
 * }</pre>
 *
 * <p>Why not the target: a fresh generator JVM compiles its loop during the run's own warm-up, on
 * the generator's CPU, and at 50k requests/s a one-second warm-up measured the generator's JIT
 * (loop late by 17 ms at p99) rather than the target. Warming against the target would lengthen
 * the target's warm-up by however long the generator needs, differently for each target; the
 * sink leaves the target's warm-up as the suite declares it. The open loop's rate is kept between
 * {@link #MIN_RATE_PER_SEC} and {@link #MAX_RATE_PER_SEC}: the JIT compiles by invocation counts,
 * which a low rate takes long to reach, and the sink shares the generator's CPUs.
 */
public final class JitWarmup {
    public static final long WINDOW_MS = 500;
    /**
     * Bounded so that {@code load} starts its own warm-up within a few seconds: the hottest code compiles in the first
     * seconds, and the run's own warm-up, against the target, compiles the rest before its measured phase
     * (docs/benchmarks.md: the first measured second's compile time with 10 s and with 3 s of this warm-up).
     */
    public static final long MAX_MS = 3_000;
    /** How long the warm-up may take, at most: its bound and the window under way when it passed. */
    public static final long MAX_TOTAL_MS = MAX_MS + WINDOW_MS;
    static final long SETTLED_COMPILE_MS = 20;
    static final int SETTLED_WINDOWS = 2;
    static final double MIN_RATE_PER_SEC = 5_000;
    static final double MAX_RATE_PER_SEC = 20_000;
    static final double MAX_HANDSHAKES_PER_SEC = 200;
    static final int MAX_CLOSED_CONNECTIONS = 100;
    private static final String RULE = String.format(Locale.ROOT, "windows of %d ms against a loopback sink in the "
            + "generator's own process until %d in a row compiled for at most %d ms each, %d s at most", WINDOW_MS,
            SETTLED_WINDOWS, SETTLED_COMPILE_MS, MAX_MS / 1000);

    private JitWarmup() {
    }

    /**
     * Warms the engine {@code spec} runs, before it runs, for {@link #MAX_MS} at most (an interrupt ends it early);
     * null for a load it does not apply to (the
     * max-concurrency model holds requests rather than times them; a client library's engine, and the HTTP/3 engine
     * (Netty's QUIC, which the loopback sink does not speak), are warmed by the scenario's own warm-up; a load split
     * over processes is run by its children, each
     * started for a common instant) or a JVM without a JIT compiler to watch.
     */
    public static RunSummary.GeneratorWarmup run(LoadSpec spec, PrintStream progress) {
        return run(spec, progress, MAX_MS);
    }

    /** As {@link #run(LoadSpec, PrintStream)}, for at most {@code maxMs} (a test's shorter bound). */
    static RunSummary.GeneratorWarmup run(LoadSpec spec, PrintStream progress, long maxMs) {
        CompilationMXBean jit = ManagementFactory.getCompilationMXBean();
        LoadModel model = sinkModel(spec);
        if (model == null || spec.client() != null || spec.http3() || spec.processes() > 1 || jit == null
                || !jit.isCompilationTimeMonitoringSupported()) {
            return null;
        }
        PrintStream silent = new PrintStream(OutputStream.nullOutputStream());
        List<RunSummary.GeneratorWarmup.Window> windows = new ArrayList<>();
        long startNs = System.nanoTime();
        boolean settled = false;
        // The windows write their files as a run does (interval logs, errors, summary), so that code is warm too.
        Path scratch = scratchDirectory();
        try (LoopbackSink sink = LoopbackSink.start(spec.protocol()); Bound bound = new Bound(maxMs)) {
            LoadSpec window = sinkSpec(spec, model, sink, scratch);
            int quiet = 0;
            while (!settled && !bound.reached() && !Thread.currentThread().isInterrupted()) {
                long compiledBeforeMs = jit.getTotalCompilationTime();
                RunSummary summary;
                try {
                    summary = Generator.run(window, scratch, silent);
                } catch (GeneratorException e) {
                    if (bound.reached()) {
                        break; // the bound's interrupt came before the window's first request: nothing to record
                    }
                    throw e;
                }
                long compileMs = jit.getTotalCompilationTime() - compiledBeforeMs;
                windows.add(new RunSummary.GeneratorWarmup.Window(compileMs, summary.loopLateness().p99Ms(),
                        summary.completed(), summary.errorCount()));
                quiet = compileMs <= SETTLED_COMPILE_MS ? quiet + 1 : 0;
                // A window the bound cut did not run whole (its requests in flight failed): it settles nothing.
                settled = quiet >= SETTLED_WINDOWS && !bound.reached();
            }
        }
        finally {
            deleteQuietly(scratch);
        }
        if (windows.isEmpty()) {
            return null;
        }
        long durationMs = (System.nanoTime() - startNs) / 1_000_000;
        double ratePerSec = model.scheduledRatePerSec();
        progress.printf(Locale.ROOT, "gauntlet load: the generator's JIT %s after %.1f s against its own loopback sink "
                        + "over %s (%d windows; the last compiled for %d ms)%n", settled ? "settled" : "was still compiling",
                durationMs / 1e3, spec.protocol().label(), windows.size(), windows.getLast().compileMs());
        long errors = wholeWindows(windows, settled).stream().mapToLong(RunSummary.GeneratorWarmup.Window::errors).sum();
        if (errors > 0) {
            // The sink answers whatever the engine sends: a failure is the generator's own, worth a report.
            progress.printf(Locale.ROOT, "gauntlet load: %d of the warm-up's requests to the loopback sink failed, so it "
                    + "warmed an error path; the run goes on, its errors are counted as ever%n", errors);
        }
        return new RunSummary.GeneratorWarmup(windows, settled, durationMs, ratePerSec, RULE);
    }

    /**
     * The windows that ran whole: all of them once settled, else all but the last, which the bound (or an interrupt)
     * may have cut, failing its requests in flight as a run's hard cap does: not the engine's failures.
     */
    static List<RunSummary.GeneratorWarmup.Window> wholeWindows(List<RunSummary.GeneratorWarmup.Window> windows,
                                                                boolean settled) {
        return settled || windows.isEmpty() ? windows : windows.subList(0, windows.size() - 1);
    }

    /**
     * Ends the warm-up at its bound, the window then running too: an interrupt ends a run early, its files written. A
     * window may outlast its half seconds by far (a cold engine falls behind an open loop's rate, and sends every
     * request it was due), so the bound is kept by the clock, not between windows. Closing it clears the interrupt it
     * sent, so that the run after the warm-up starts uninterrupted.
     */
    private static final class Bound implements AutoCloseable {
        private final Thread caller = Thread.currentThread();
        private final AtomicBoolean fired = new AtomicBoolean();
        private final Thread timer;

        Bound(long maxMs) {
            timer = Thread.ofPlatform().daemon().name("gauntlet-jit-warmup-bound").start(() -> {
                try {
                    Thread.sleep(maxMs);
                } catch (InterruptedException e) {
                    return;
                }
                if (fired.compareAndSet(false, true)) {
                    caller.interrupt();
                }
            });
        }

        boolean reached() {
            return fired.get();
        }

        @Override
        public void close() {
            if (fired.compareAndSet(false, true)) {
                timer.interrupt();
                return;
            }
            // It fired: once its interrupt has landed, it is cleared.
            while (timer.isAlive()) {
                Thread.onSpinWait();
            }
            Thread.interrupted();
        }
    }

    /**
     * One window's load against the sink: the run's model within bounds, in the run's protocol, streams and connection
     * use, over TLS trusting the sink's certificate as the run trusts its target's (or trusting any, as the run may).
     */
    private static LoadSpec sinkSpec(LoadSpec spec, LoadModel model, LoopbackSink sink, Path scratch) {
        String path = spec.url().getRawPath() == null || spec.url().getRawPath().isEmpty() ? "/" : spec.url().getRawPath();
        LoadSpec.Builder window = LoadSpec.of(sink.uri(path), model).toBuilder()
                // Half warm-up, half measured: both of the engine's paths are compiled, so that the run's own
                // passage from its warm-up to its measured phase does not send the loop back to the interpreter.
                .warmupMs(WINDOW_MS / 2).durationMs(WINDOW_MS / 2).threads(spec.threads()).seed(spec.seed())
                .http2(spec.http2(), spec.streams()).newConnectionPerRequest(spec.newConnectionPerRequest());
        if (spec.tls()) {
            window.trust(spec.trust().insecure() ? spec.trust() : new TlsTrust(sinkCertificate(scratch), false));
        }
        return window.build();
    }

    private static String sinkCertificate(Path scratch) {
        Path file = scratch.resolve("loopback-sink.pem");
        try {
            LoopbackSink.writeCertificate(file);
        } catch (IOException e) {
            throw new GeneratorException("cannot write the loopback sink's certificate for the generator's JIT warm-up: "
                    + e.getMessage());
        }
        return file.toString();
    }

    private static Path scratchDirectory() {
        try {
            return Files.createTempDirectory("gauntlet-jit-warmup");
        } catch (IOException e) {
            throw new GeneratorException("cannot create a scratch directory for the generator's JIT warm-up: " + e.getMessage());
        }
    }

    private static void deleteQuietly(Path directory) {
        try (Stream<Path> files = Files.walk(directory)) {
            files.sorted(Comparator.reverseOrder()).forEach(file -> file.toFile().delete());
        } catch (IOException | UncheckedIOException e) {
            // A temporary directory left behind: the system's to clean.
        }
    }

    /**
     * The load to drive the sink with: the same model, its rate or connections within bounds. A TLS handshake per
     * request costs both sides a millisecond or more of CPU, and the sink's side shares the generator's CPUs: its rate
     * is held to {@link #MAX_HANDSHAKES_PER_SEC}, which a handshake's many calls compile at as well.
     */
    private static LoadModel sinkModel(LoadSpec spec) {
        LoadModel model = spec.model();
        if (model.holdsRequests()) {
            return null;
        }
        if (model.schedulesByRate()) {
            double ratePerSec = model.scheduledRatePerSec();
            double max = spec.tls() && spec.newConnectionPerRequest() ? MAX_HANDSHAKES_PER_SEC : MAX_RATE_PER_SEC;
            return model.scaledBy(Math.clamp(ratePerSec, Math.min(MIN_RATE_PER_SEC, max), max) / ratePerSec);
        }
        return model.withConnections((int) Math.min(model.connectionsOpened(0), MAX_CLOSED_CONNECTIONS));
    }
}
