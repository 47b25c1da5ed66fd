package dev.gauntlet.bench;

import dev.gauntlet.api.LoadSpec;
import dev.gauntlet.api.RunSummary;
import dev.gauntlet.loadgen.Generator;

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
 * runs, so its JIT is as warm as a generator's after its own warm-up, and no run pays a JVM's start), and the peer as
 * a process of its own, ended once the window is over. Both run on the CPU this JVM was given, so a step of the
 * machine's speed falls on both alike; each loads an nginx of its own, whose count of requests is that client's alone.
 */
final class ClientRuns {
    /** Gauntlet's warm-up before its measured phase, and the phase: together past the window's end. */
    private static final long GAUNTLET_WARMUP_MS = 400;
    private static final long GAUNTLET_DURATION_MS = 900;
    /** The JIT's warm-up: runs of this length, until one leaves it quiet, this many at most. */
    private static final long WARM_RUN_MS = 1_000;
    private static final int WARM_RUNS = 8;
    private static final CpuClock OWN_CPU = CpuClock.ofProcess(ProcessHandle.current().pid());
    private static final CpuClock OWN_JIT = CpuClock.ofJitCompilers(ProcessHandle.current().pid());
    private static final PrintStream QUIET = new PrintStream(OutputStream.nullOutputStream());
    /** A peer's start, before it runs at the case's load, at most; and the stretch its load is probed over. */
    private static final long PEER_START_NS = TimeUnit.SECONDS.toNanos(3);
    private static final long LOAD_PROBE_NS = TimeUnit.MILLISECONDS.toNanos(100);

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
     * {@link PairCost#JIT_QUIET} of the run's CPU), {@link #WARM_RUNS} runs at most: a window the JIT compiles in costs
     * more per request than the warm generator does. A case still compiling after them has such pairs left out.
     *
     * @return the runs it took, or 0 if the JIT was not yet quiet
     */
    int warm(GateCase gateCase) {
        for (int run = 1; run <= WARM_RUNS; run++) {
            long cpuBeforeNs = OWN_CPU.cpuNs();
            long jitBeforeNs = OWN_JIT.cpuNs();
            runGenerator(gateCase, WARM_RUN_MS);
            if (OWN_JIT.cpuNs() - jitBeforeNs < PairCost.JIT_QUIET * (OWN_CPU.cpuNs() - cpuBeforeNs)) {
                return run;
            }
        }
        return 0;
    }

    /**
     * Both clients run the case's load at once, each against its own nginx, over the same window: the peer first, and
     * Gauntlet's generator once the peer runs at the case's load.
     */
    PairCost together(GateCase gateCase) {
        Process peer = startPeer(gateCase);
        try {
            awaitLoad(gateCase, peer);
            long fromNs = System.nanoTime() + WindowCost.FROM_NS;
            CompletableFuture<WindowCost> peerWindow = WindowCost.measure(peer.pid(), peerNginx, fromNs);
            CompletableFuture<WindowCost> window = WindowCost.measure(ProcessHandle.current().pid(), nginx, fromNs);
            runGenerator(gateCase, GAUNTLET_DURATION_MS);
            return new PairCost(await(window), peerWindow(gateCase, peer, peerWindow));
        } finally {
            end(peer);
        }
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

    private Process startPeer(GateCase gateCase) {
        try {
            return new ProcessBuilder(gateCase.peerCommand(wrk2, wrk, peerUrl))
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectError(peerErrors().toFile()).start();
        } catch (IOException e) {
            throw new GateException("cannot start " + gateCase.peer() + ": " + e.getMessage());
        }
    }

    /**
     * Waits until the peer's nginx counted the case's load over the last {@link #LOAD_PROBE_NS}: wrk2 either ramps up
     * over half a second or sends nothing for most of a second and then its rate at once.
     */
    private void awaitLoad(GateCase gateCase, Process peer) {
        long deadlineNs = System.nanoTime() + PEER_START_NS;
        long before = peerNginx.requests();
        for (long probeNs = System.nanoTime() + LOAD_PROBE_NS; probeNs < deadlineNs; probeNs += LOAD_PROBE_NS) {
            WindowCost.parkUntil(probeNs);
            long now = peerNginx.requests();
            if (gateCase.atItsLoad(now - before, LOAD_PROBE_NS / 1e9)) {
                return;
            }
            if (!peer.isAlive()) {
                break;
            }
            before = now;
        }
        throw new GateException(gateCase.peer() + " did not reach the case's load within "
                + TimeUnit.NANOSECONDS.toSeconds(PEER_START_NS) + " s" + (peer.isAlive() ? "" : ": it ended: " + firstLine(peerErrors())));
    }

    private WindowCost peerWindow(GateCase gateCase, Process peer, CompletableFuture<WindowCost> window) {
        WindowCost cost = await(window);
        if (!peer.isAlive()) {
            throw new GateException(gateCase.peer() + " ended before its window did (exit " + peer.exitValue() + "): "
                    + firstLine(peerErrors()));
        }
        return cost;
    }

    private Path peerErrors() {
        return scratch.resolve("peer.err");
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

    private static void end(Process process) {
        process.destroy();
        try {
            if (!process.waitFor(5, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }

    private static String firstLine(Path file) {
        try {
            return Files.readString(file, StandardCharsets.UTF_8).lines().findFirst().orElse("(nothing on stderr)");
        } catch (IOException e) {
            return "(its stderr unreadable)";
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
