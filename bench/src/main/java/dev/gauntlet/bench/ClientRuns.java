package dev.gauntlet.bench;

import dev.gauntlet.api.LoadSpec;
import dev.gauntlet.api.RunSummary;
import dev.gauntlet.loadgen.run.Generator;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * The two clients of a gate case run at once over the same window: Gauntlet's generator inside this JVM (kept across
 * runs, so its JIT is as warm as a generator's after its own warm-up, and no run pays a JVM's start), beside the peer
 * as a process of its own ({@link PeerProcess}), which keeps running across the case's pairs. Both run on the CPU this
 * JVM was given, so a step of the machine's speed falls on both alike; each loads an nginx of its own, whose count of
 * requests is that client's alone.
 */
final class ClientRuns {
    /** Gauntlet's warm-up before its measured phase, and the phase: together past the window's end. */
    private static final long GAUNTLET_WARMUP_MS = 400;
    private static final long GAUNTLET_DURATION_MS = 900;
    /** The JIT's warm-up: runs of this length, until one leaves it quiet, this many at most. */
    private static final long WARM_RUN_MS = 1_000;
    private static final int WARM_RUNS = 8;
    private static final double JIT_QUIET = 0.05;
    private static final CpuClock OWN_CPU = CpuClock.ofProcess(ProcessHandle.current().pid());
    private static final CpuClock OWN_JIT = CpuClock.ofJitCompilers(ProcessHandle.current().pid());
    private static final PrintStream QUIET = new PrintStream(OutputStream.nullOutputStream());

    private final URI url;
    private final NginxCounter nginx;
    private final URI peerUrl;
    private final NginxCounter peerNginx;
    private final Path wrk2;
    private final Path wrk;
    private final Path scratch;

    ClientRuns(URI url, NginxCounter nginx, URI peerUrl, NginxCounter peerNginx, Path wrk2, Path wrk, Path scratch) {
        this.url = url;
        this.nginx = nginx;
        this.peerUrl = peerUrl;
        this.peerNginx = peerNginx;
        this.wrk2 = wrk2;
        this.wrk = wrk;
        this.scratch = scratch;
    }

    /**
     * Gauntlet's generator runs the case's load, unmeasured, until a run leaves its JIT quiet (compiling less than
     * {@link #JIT_QUIET} of the run's CPU), {@link #WARM_RUNS} runs at most: code the JIT has not compiled yet costs
     * more per request than the warm generator's.
     *
     * @return the runs it took, or 0 if the JIT was not yet quiet
     */
    int warm(GateCase gateCase) {
        for (int run = 1; run <= WARM_RUNS; run++) {
            long cpuBeforeNs = OWN_CPU.cpuNs();
            long jitBeforeNs = OWN_JIT.cpuNs();
            runGenerator(gateCase, WARM_RUN_MS);
            if (OWN_JIT.cpuNs() - jitBeforeNs < JIT_QUIET * (OWN_CPU.cpuNs() - cpuBeforeNs)) {
                return run;
            }
        }
        return 0;
    }

    /** The case's peer, started against its own nginx and running at the case's load. */
    PeerProcess startPeer(GateCase gateCase) {
        return PeerProcess.start(gateCase, wrk2, wrk, peerUrl, peerNginx, scratch.resolve("peer.err"));
    }

    /** Gauntlet's generator runs the case's load beside the running peer, both measured over the same window. */
    PairCost together(GateCase gateCase, PeerProcess peer) {
        long fromNs = System.nanoTime() + WindowCost.FROM_NS;
        CompletableFuture<WindowCost> peerWindow = WindowCost.measure(peer.pid(), peerNginx, fromNs);
        CompletableFuture<WindowCost> window = WindowCost.measure(ProcessHandle.current().pid(), nginx, fromNs);
        runGenerator(gateCase, GAUNTLET_DURATION_MS);
        WindowCost peerCost = await(peerWindow);
        peer.checkAlive();
        return new PairCost(await(window), peerCost);
    }

    private void runGenerator(GateCase gateCase, long durationMs) {
        LoadSpec spec = LoadSpec.of(url, gateCase.model()).toBuilder()
                .warmupMs(GAUNTLET_WARMUP_MS).durationMs(durationMs).wakeGranularityUs(gateCase.wakeGranularityUs()).build();
        Path dir = scratch.resolve("gauntlet");
        RunSummary summary = Generator.run(spec, dir, QUIET);
        deleteTree(dir);
        if (summary.errorCount() > 0) {
            throw new GateException("Gauntlet's run of " + gateCase.name() + " had " + summary.errorCount() + " errors "
                    + summary.errors() + ": its cost per request would not be comparable");
        }
    }

    /** The window's cost, or the one-line reason it could not be measured. */
    private static WindowCost await(CompletableFuture<WindowCost> window) {
        try {
            return window.join();
        } catch (CompletionException e) {
            throw e.getCause() instanceof GateException g ? g : new GateException("a window could not be measured: "
                    + e.getCause().getMessage());
        }
    }

    private static void deleteTree(Path dir) {
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
