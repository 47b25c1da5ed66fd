package dev.gauntlet.runner.execution;

import dev.gauntlet.api.Json;
import dev.gauntlet.api.LoadModel;
import dev.gauntlet.api.LoadSpec;
import dev.gauntlet.api.RunSummary;
import dev.gauntlet.api.TargetCatalogue;
import dev.gauntlet.api.Verdict;
import dev.gauntlet.loadgen.run.Generator;
import dev.gauntlet.loadgen.split.JavaCommand;
import dev.gauntlet.runner.Signals;
import dev.gauntlet.runner.base.GauntletHome;
import dev.gauntlet.runner.isolation.Isolation;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.Writer;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Each cell of the verdict's decision table (docs/verdicts.md) constructed for real,
 * against the dummy target or a small server in this JVM whose answer is known, with the generator
 * in this JVM or, when it is the one stopped, a process of its own: a target stopped for 1 s, a
 * generator starved of CPU, a connection cap below the concurrency the rate needs, a long wait
 * behind a fixed pool too small for it, a server that accepts connections slower than they arrive,
 * a server whose service time balloons while the generator's cap is reached, and a generator
 * stopped for 1 s.
 */
@Tag("alone") // pins CPUs and asserts latencies
@Timeout(120)
class VerdictIT {
    private static final long WARMUP_MS = 1_000;

    @TempDir
    Path dir;

    @Test
    void aTargetStoppedForOneSecondIsOverloaded() throws Exception {
        try (TargetProcess target = dummy();
             ScheduledExecutorService signals = Executors.newSingleThreadScheduledExecutor()) {
            // The stall is the behaviour under test: SIGSTOP half a second into the measured phase, SIGCONT 1 s later.
            signals.schedule(() -> signal("STOP", target), WARMUP_MS + 500, TimeUnit.MILLISECONDS);
            signals.schedule(() -> signal("CONT", target), WARMUP_MS + 1_500, TimeUnit.MILLISECONDS);

            RunSummary summary = Generator.run(openLoop(target, "/hello", 1_000).durationMs(3_000).build(), dir);

            assertThat(summary.responseTime().maxMs()).isGreaterThan(900);
            assertThat(summary.verdict()).as("%s", summary.evidence()).isEqualTo(Verdict.TARGET_OVERLOADED);
            assertThat(summary.targetHiccups().maxMs()).as("the target saw its own stop").isGreaterThan(900);
        }
    }

    @Test
    void aGeneratorStarvedOfCpuIsLimited() throws Exception {
        int cpus = Runtime.getRuntime().availableProcessors();
        assumeTrue(cpus >= 2, "needs a CPU for the target and one for the generator");
        String generatorCpu = Integer.toString(cpus - 1);
        AtomicBoolean spinning = new AtomicBoolean(true);
        List<Thread> neighbours = new ArrayList<>();
        try (TargetProcess target = dummy()) {
            pinCurrentThread(generatorCpu);
            // Four busy threads pinned beside the engine thread: it gets a fifth of its CPU at most.
            for (int i = 0; i < 4; i++) {
                neighbours.add(Thread.ofPlatform().daemon().start(() -> {
                    pinCurrentThread(generatorCpu);
                    while (spinning.get()) {
                        Thread.onSpinWait();
                    }
                }));
            }

            RunSummary summary = Generator.run(openLoop(target, "/hello", 40_000).durationMs(2_000).build(), dir);

            assertThat(summary.verdict()).as("%s", summary.evidence()).isEqualTo(Verdict.GENERATOR_LIMITED);
            assertThat(summary.generatorCost().engineWaitingPercent()).isGreaterThan(20);
        } finally {
            spinning.set(false);
            for (Thread neighbour : neighbours) {
                neighbour.join();
            }
            pinCurrentThread("0-" + (cpus - 1));
        }
    }

    @Test
    void aConnectionCapBelowWhatTheRateNeedsIsTheGenerators() throws Exception {
        try (TargetProcess target = dummy()) {
            // 100/s × 100 ms: 10 requests in service at once, over 5 connections at most (50/s): twice what the cap
            // carries, and a backlog that drains within seconds of the measured phase's end.
            LoadSpec spec = openLoop(target, "/hello?wait=100", 100).durationMs(2_000).maxConnections(5).build();

            RunSummary summary = Generator.run(spec, dir);

            assertThat(summary.connectionsPeak()).isEqualTo(5);
            assertThat(summary.verdict()).as("%s", summary.evidence()).isEqualTo(Verdict.GENERATOR_LIMITED);
            assertThat(summary.evidence()).anyMatch(e -> e.contains("one of its 5 connections, fewer than the rate keeps in service"));
        }
    }

    @Test
    void aServerThatAcceptsSlowerThanRequestsArriveIsOverloaded() throws Exception {
        try (SlowAcceptServer server = new SlowAcceptServer()) {
            // 200 requests/s, each on a connection of its own, against 50 accepts/s.
            LoadSpec spec = LoadSpec.of(server.uri(), new LoadModel.OpenLoop(200, LoadModel.InterArrival.CONSTANT))
                    .toBuilder().warmupMs(WARMUP_MS).durationMs(2_000).responseTimeoutMs(20_000).build();

            RunSummary summary = Generator.run(spec, dir);

            assertThat(summary.verdict()).as("%s", summary.evidence()).isEqualTo(Verdict.TARGET_OVERLOADED);
        }
    }

    @Test
    void aLongWaitBehindAFixedPoolTooSmallForItIsTheGenerators() throws Exception {
        try (TargetProcess target = dummy()) {
            // 40/s × 1 s: 40 requests in service at once, over a fixed pool of 10; the target answers each in its 1 s.
            LoadSpec spec = LoadSpec.of(target.endpoint().uri("/hello?wait=1000"),
                            LoadModel.OpenLoop.fixedPool(40, LoadModel.InterArrival.EXPONENTIAL, 10))
                    .toBuilder().warmupMs(WARMUP_MS).durationMs(3_000).adminUrl(target.endpoint().adminUri("/")).build();

            RunSummary summary = Generator.run(spec, dir);

            assertThat(summary.serviceTime().p99Ms()).as("the target kept to its wait").isLessThan(1_100);
            assertThat(summary.responseTime().p99Ms()).as("requests waited for the pool").isGreaterThan(1_500);
            assertThat(summary.verdict()).as("%s", summary.evidence()).isEqualTo(Verdict.GENERATOR_LIMITED);
            assertThat(summary.evidence()).anyMatch(e -> e.contains("one of its 10 connections, fewer than the rate keeps in service"));
        }
    }

    @Test
    void aServerCollapsingWhileThePoolHitsItsCapIsTheTargets() throws Exception {
        try (CollapsingServer server = new CollapsingServer()) {
            // 1,000/s with no wait declared against a server that answers 400/s, over 20 connections at most:
            // the cap is reached, and the service time balloons with the server's own queue.
            LoadSpec spec = LoadSpec.of(server.uri(), new LoadModel.OpenLoop(1_000, LoadModel.InterArrival.EXPONENTIAL))
                    .toBuilder().warmupMs(WARMUP_MS).durationMs(2_000).maxConnections(20).responseTimeoutMs(20_000).build();

            RunSummary summary = Generator.run(spec, dir);

            assertThat(summary.connectionsPeak()).isEqualTo(20);
            assertThat(summary.verdict()).as("%s", summary.evidence()).isEqualTo(Verdict.TARGET_OVERLOADED);
            assertThat(summary.evidence()).anyMatch(e -> e.startsWith("its median service time was"))
                    .noneMatch(e -> e.contains("fewer than the rate keeps in service"));
        }
    }

    @Test
    void aGeneratorStoppedForOneSecondIsThePlatformsByItsOwnHiccupLog() throws Exception {
        try (TargetProcess target = dummy()) {
            LoadSpec spec = openLoop(target, "/hello", 1_000).durationMs(3_000).build();
            Path runDir = dir.resolve("stopped-generator");
            Files.createDirectories(runDir);
            Path specFile = runDir.resolve("spec.json");
            Json.json().writeValue(specFile.toFile(), spec);
            GauntletHome home = GauntletHome.fromSystemProperty();
            // Without the JIT warm-up (3 s): the stop is timed from the first measured second, whatever went before.
            JavaCommand command = new JavaCommand(List.of("-Xmx256m", "-Dgauntlet.jitWarmup=false"), home.classpathOf(GeneratorLauncher.MODULE),
                    GeneratorLauncher.MAIN_CLASS, List.of("--spec", specFile.toString(), "--output", runDir.toString()));
            Process generator = new ProcessBuilder(command.toArgv()).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            try (BufferedReader stderr = generator.errorReader(StandardCharsets.UTF_8)) {
                // The first measured second's progress line: however long the JIT and the warm-up took, the measured
                // phase has 2 s to go from here.
                for (String line = stderr.readLine(); line != null && !line.matches("\\s+1s\\s+sent.*"); line = stderr.readLine()) {
                    assertThat(line).doesNotContain("Exception");
                }
                try (ScheduledExecutorService signals = Executors.newSingleThreadScheduledExecutor()) {
                    // The stall is the behaviour under test: SIGSTOP now, SIGCONT 1 s later, inside the measured phase.
                    signals.schedule(() -> signalPid("STOP", generator.pid()), 0, TimeUnit.MILLISECONDS);
                    signals.schedule(() -> signalPid("CONT", generator.pid()), 1_000, TimeUnit.MILLISECONDS);
                    stderr.transferTo(Writer.nullWriter());
                }
                assertThat(generator.waitFor(60, TimeUnit.SECONDS)).isTrue();
            } finally {
                generator.destroyForcibly();
            }
            RunSummary summary = Json.json().readValue(runDir.resolve("summary.json").toFile(), RunSummary.class);

            assertThat(summary.generatorHiccups().maxMs()).as("the generator's hiccup meter saw its own stop").isGreaterThan(900);
            assertThat(summary.loopLateness().maxMs()).isGreaterThan(900);
            assertThat(summary.verdict()).as("%s", summary.evidence()).isEqualTo(Verdict.PLATFORM_NOISY);
        }
    }

    private static Void signalPid(String signal, long pid) throws Exception {
        Signals.send(signal, pid);
        return null;
    }

    private TargetProcess dummy() throws IOException {
        TargetLauncher launcher = new TargetLauncher(GauntletHome.fromSystemProperty(), TargetCatalogue.builtIn(),
                Isolation.defaults().target(),
                List.of("-Xmx256m"));
        Files.createDirectories(dir);
        return launcher.start("dummy", List.of(), dir.resolve("target.log"));
    }

    private static LoadSpec.Builder openLoop(TargetProcess target, String pathAndQuery, double ratePerSec) {
        return LoadSpec.of(target.endpoint().uri(pathAndQuery), new LoadModel.OpenLoop(ratePerSec, LoadModel.InterArrival.EXPONENTIAL))
                .toBuilder().warmupMs(WARMUP_MS).adminUrl(target.endpoint().adminUri("/"));
    }

    private static Void signal(String signal, TargetProcess target) throws Exception {
        Signals.send(signal, target.pid());
        return null;
    }

    /** Pins the calling (platform) thread, by its kernel id, to {@code cpus}. */
    private static void pinCurrentThread(String cpus) {
        try {
            String self = Files.readSymbolicLink(Path.of("/proc/thread-self")).toString();
            run("taskset", "-p", "-c", cpus, self.substring(self.lastIndexOf('/') + 1));
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void run(String... command) {
        try {
            Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
            String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(process.waitFor()).as("%s: %s", List.of(command), output).isZero();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /**
     * A server in this JVM on 127.0.0.1, port 0, whose answer is known: each accepted connection is
     * served on a virtual thread of its own; {@link #afterAccept} may slow the accepting down.
     */
    private abstract static class InTestServer implements AutoCloseable {
        private final ServerSocket server;

        InTestServer(int backlog) throws IOException {
            server = new ServerSocket(0, backlog, InetAddress.getLoopbackAddress());
        }

        /** Starts accepting, once the subclass is whole. */
        final void start() {
            Thread.ofPlatform().daemon().start(this::acceptAll);
        }

        URI uri() {
            return URI.create("http://127.0.0.1:" + server.getLocalPort() + "/hello");
        }

        abstract void serve(Socket socket) throws IOException, InterruptedException;

        void afterAccept() throws InterruptedException {
        }

        private void acceptAll() {
            while (!server.isClosed()) {
                try {
                    Socket socket = server.accept();
                    Thread.ofVirtual().start(() -> {
                        try (socket) {
                            serve(socket);
                        } catch (IOException | InterruptedException e) {
                            // The generator closed the connection, or gave up on it.
                        }
                    });
                    afterAccept();
                } catch (IOException | InterruptedException e) {
                    return;
                }
            }
        }

        @Override
        public void close() throws IOException {
            server.close();
        }
    }

    /**
     * A keep-alive server whose requests all pass through two workers that each take 5 ms: it answers
     * 400 requests/s, and a request beyond that waits in its queue.
     */
    private static final class CollapsingServer extends InTestServer {
        private static final byte[] HELLO = ("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 5\r\n\r\nhello")
                .getBytes(StandardCharsets.US_ASCII);
        private final Semaphore workers = new Semaphore(2, true);

        CollapsingServer() throws IOException {
            super(1_000);
            start();
        }

        @Override
        void serve(Socket socket) throws IOException, InterruptedException {
            InputStream in = socket.getInputStream();
            OutputStream out = socket.getOutputStream();
            while (readHead(in)) {
                workers.acquire();
                try {
                    // The work is the behaviour under test: 5 ms a request, two at a time.
                    Thread.sleep(5);
                } finally {
                    workers.release();
                }
                out.write(HELLO);
                out.flush();
            }
        }
    }

    /** Reads one request head; false at the end of the stream. */
    private static boolean readHead(InputStream in) throws IOException {
        int matched = 0;
        while (matched < 4) {
            int b = in.read();
            if (b < 0) {
                return false;
            }
            matched = b == (matched % 2 == 0 ? '\r' : '\n') ? matched + 1 : (b == '\r' ? 1 : 0);
        }
        return true;
    }

    /** Answers one request per connection and closes it, accepting one connection each 20 ms. */
    private static final class SlowAcceptServer extends InTestServer {
        private static final byte[] HELLO = ("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 5\r\n"
                + "Connection: close\r\n\r\nhello").getBytes(StandardCharsets.US_ASCII);

        SlowAcceptServer() throws IOException {
            super(2_000);
            start();
        }

        @Override
        void afterAccept() throws InterruptedException {
            // The slow accept is the behaviour under test.
            Thread.sleep(20);
        }

        @Override
        void serve(Socket socket) throws IOException {
            if (readHead(socket.getInputStream())) {
                socket.getOutputStream().write(HELLO);
            }
        }
    }
}
