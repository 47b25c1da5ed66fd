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
 * One run of each client of a gate case, its window measured: Gauntlet's generator inside this JVM (kept across runs,
 * so its JIT is as warm as a generator's after its own warm-up, and no run pays a JVM's start), and the peer as a
 * process of its own, ended once its window is over. Both run on the CPUs this JVM was given.
 */
final class ClientRuns {
    /** Gauntlet's warm-up before its measured phase, and the phase: together past the window's end. */
    private static final long GAUNTLET_WARMUP_MS = 400;
    private static final long GAUNTLET_DURATION_MS = 900;
    private static final PrintStream QUIET = new PrintStream(OutputStream.nullOutputStream());

    private final URI url;
    private final NginxCounter nginx;
    private final Path wrk2;
    private final Path wrk;
    private final Path scratch;

    ClientRuns(URI url, NginxCounter nginx, Path wrk2, Path wrk, Path scratch) {
        this.url = url;
        this.nginx = nginx;
        this.wrk2 = wrk2;
        this.wrk = wrk;
        this.scratch = scratch;
    }

    /** Gauntlet's generator runs the case's load; {@code measured} false for a run that only warms its JIT. */
    WindowCost gauntlet(GateCase gateCase, boolean measured, long durationMs) {
        LoadSpec spec = LoadSpec.of(url, gateCase.model()).toBuilder()
                .warmupMs(GAUNTLET_WARMUP_MS).durationMs(durationMs).wakeGranularityUs(gateCase.wakeGranularityUs()).build();
        Path dir = scratch.resolve("gauntlet");
        long startNs = System.nanoTime();
        CompletableFuture<WindowCost> window = measured ? WindowCost.measure(CpuClock.ofProcess(ProcessHandle.current().pid()), nginx, startNs) : null;
        RunSummary summary = Generator.run(spec, dir, QUIET);
        deleteTree(dir);
        if (summary.errorCount() > 0) {
            throw new GateException("Gauntlet's run of " + gateCase.name() + " had " + summary.errorCount() + " errors "
                    + summary.errors() + ": its cost per request would not be comparable");
        }
        return window == null ? null : await(window);
    }

    WindowCost gauntlet(GateCase gateCase) {
        return gauntlet(gateCase, true, GAUNTLET_DURATION_MS);
    }

    /** The peer runs the case's load until its window is measured. */
    WindowCost peer(GateCase gateCase) {
        Path errors = scratch.resolve("peer.err");
        Process peer;
        try {
            peer = new ProcessBuilder(gateCase.peerCommand(wrk2, wrk, url))
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectError(errors.toFile()).start();
        } catch (IOException e) {
            throw new GateException("cannot start " + gateCase.peer() + ": " + e.getMessage());
        }
        try {
            WindowCost window = await(WindowCost.measure(CpuClock.ofProcess(peer.pid()), nginx, System.nanoTime()));
            if (!peer.isAlive()) {
                throw new GateException(gateCase.peer() + " ended before its window did (exit " + peer.exitValue() + "): "
                        + firstLine(errors));
            }
            return window;
        } finally {
            end(peer);
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
