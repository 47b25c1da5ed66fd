package dev.gauntlet.runner;

import dev.gauntlet.api.LoadModel;
import dev.gauntlet.api.LoadSpec;
import dev.gauntlet.api.RunSummary;
import dev.gauntlet.api.TargetCatalogue;
import dev.gauntlet.api.Verdict;
import dev.gauntlet.loadgen.Generator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Each verdict constructed for real, against the dummy target on its own CPU with the generator in
 * this JVM: a target stopped for 1 s, a generator starved of CPU, a connection cap below the
 * concurrency the rate needs, and a server that accepts connections slower than they arrive.
 */
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
            // 500/s × 100 ms: 50 requests in service at once, over 5 connections at most.
            LoadSpec spec = openLoop(target, "/hello?wait=100", 500).durationMs(2_000).maxConnections(5).build();

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

    private TargetProcess dummy() throws IOException {
        TargetLauncher launcher = new TargetLauncher(GauntletHome.fromSystemProperty(), TargetCatalogue.builtIn(),
                Isolation.defaults().target(),
                List.of("-Xmx256m"));
        Files.createDirectories(dir);
        return launcher.start("dummy", List.of(), dir.resolve("target.log"));
    }

    private static LoadSpec.Builder openLoop(TargetProcess target, String pathAndQuery, double ratePerSec) {
        return LoadSpec.of(target.uri(pathAndQuery), new LoadModel.OpenLoop(ratePerSec, LoadModel.InterArrival.EXPONENTIAL))
                .toBuilder().warmupMs(WARMUP_MS).adminUrl(target.adminUri("/"));
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

    /** Answers one request per connection and closes it, accepting one connection each 20 ms. */
    private static final class SlowAcceptServer implements AutoCloseable {
        private static final byte[] HELLO = ("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 5\r\n"
                + "Connection: close\r\n\r\nhello").getBytes(StandardCharsets.US_ASCII);
        private final ServerSocket server = new ServerSocket(0, 2_000, InetAddress.getLoopbackAddress());

        SlowAcceptServer() throws IOException {
            Thread.ofPlatform().daemon().start(this::acceptSlowly);
        }

        java.net.URI uri() {
            return java.net.URI.create("http://127.0.0.1:" + server.getLocalPort() + "/hello");
        }

        private void acceptSlowly() {
            while (!server.isClosed()) {
                try {
                    Socket socket = server.accept();
                    Thread.ofVirtual().start(() -> answerOnce(socket));
                    // The slow accept is the behaviour under test.
                    Thread.sleep(20);
                } catch (IOException | InterruptedException e) {
                    return;
                }
            }
        }

        private static void answerOnce(Socket socket) {
            try (socket; InputStream in = socket.getInputStream(); OutputStream out = socket.getOutputStream()) {
                int matched = 0;
                while (matched < 4) {
                    int b = in.read();
                    if (b < 0) {
                        return;
                    }
                    matched = b == (matched % 2 == 0 ? '\r' : '\n') ? matched + 1 : (b == '\r' ? 1 : 0);
                }
                out.write(HELLO);
            } catch (IOException e) {
                // The generator gave up on it.
            }
        }

        @Override
        public void close() throws IOException {
            server.close();
        }
    }
}
