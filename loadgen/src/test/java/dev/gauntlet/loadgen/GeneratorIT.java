package dev.gauntlet.loadgen;

import dev.gauntlet.api.ErrorClass;
import dev.gauntlet.api.Json;
import dev.gauntlet.api.LoadModel;
import dev.gauntlet.api.LoadSpec;
import dev.gauntlet.api.RunDirectory.HistogramLog;
import dev.gauntlet.api.RunDirectory;
import dev.gauntlet.api.RunSummary;
import dev.gauntlet.loadgen.failure.GeneratorException;
import dev.gauntlet.loadgen.measure.LatencyRecorderTest;
import dev.gauntlet.loadgen.run.Generator;
import dev.gauntlet.loadgen.split.MultiProcess;
import dev.gauntlet.loadgen.transport.SourceAddresses;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

@Tag("alone") // asserts the achieved rate
@Timeout(60)
class GeneratorIT {
    private final PrintStream progress = new PrintStream(new ByteArrayOutputStream());

    @Test
    void openLoopAgainstAHealthyServer(@TempDir Path dir) throws Exception {
        try (TestServer server = TestServer.hello()) {
            LoadSpec spec = LoadSpec.of(server.uri("/hello"), new LoadModel.OpenLoop(500, LoadModel.InterArrival.EXPONENTIAL))
                    .withPhases(500, 2_000);
            RunSummary summary = Generator.run(spec, dir, progress);

            assertThat(summary.errorCount()).isZero();
            assertThat(summary.completed()).isEqualTo(summary.sent());
            assertThat(summary.achievedRatePerSec()).isCloseTo(500, within(50.0));
            assertThat(summary.responseTime().count()).isEqualTo(summary.completed());
            assertThat(summary.responseTime().p50Ms()).isGreaterThanOrEqualTo(summary.serviceTime().p50Ms());
            assertThat(Json.json().readValue(new RunDirectory(dir).summary().toFile(), RunSummary.class)).isEqualTo(summary);
            assertThat(LatencyRecorderTest.sumOfIntervals(new RunDirectory(dir).log(HistogramLog.RESPONSE), -1).getTotalCount())
                    .isEqualTo(summary.completed());
            // Everything warm-up and measured phase sent reached the server, nothing more.
            assertThat(server.requests()).isGreaterThanOrEqualTo(summary.sent());
        }
    }

    @Test
    void closedLoopKeepsItsConnections(@TempDir Path dir) throws Exception {
        try (TestServer server = TestServer.hello()) {
            LoadSpec spec = LoadSpec.of(server.uri("/hello"), new LoadModel.ClosedLoop(4)).withPhases(200, 1_000);
            RunSummary summary = Generator.run(spec, dir, progress);

            assertThat(summary.errorCount()).isZero();
            assertThat(summary.completed()).isEqualTo(summary.sent()).isPositive();
            assertThat(summary.connectionsOpened()).isEqualTo(4);
            assertThat(server.connections()).isEqualTo(4 + 1); // plus the reachability check
        }
    }

    @Test
    void threadsShareTheLoadAndTheirHistogramsMergeExactly(@TempDir Path dir) throws Exception {
        try (TestServer server = TestServer.hello()) {
            // Constant 400/s over 2 threads of 200/s each, offset by 2.5 ms: exactly 800 starts in 2 s.
            LoadSpec open = LoadSpec.of(server.uri("/hello"), new LoadModel.OpenLoop(400, LoadModel.InterArrival.CONSTANT))
                    .toBuilder().warmupMs(500).durationMs(2_000).threads(2).build();
            RunSummary summary = Generator.run(open, dir, progress);

            assertThat(summary.scheduled()).isEqualTo(800);
            assertThat(summary.sent()).isEqualTo(800);
            assertThat(summary.completed()).isEqualTo(800);
            assertThat(summary.responseTime().count()).isEqualTo(800);
            assertThat(summary.loopLateness().count()).isEqualTo(800);
            assertThat(LatencyRecorderTest.sumOfIntervals(new RunDirectory(dir).log(HistogramLog.RESPONSE), -1).getTotalCount()).isEqualTo(800);

            LoadSpec closed = LoadSpec.of(server.uri("/hello"), new LoadModel.ClosedLoop(5)).toBuilder()
                    .warmupMs(200).durationMs(1_000).threads(2).build();
            RunSummary closedSummary = Generator.run(closed, null, progress);
            assertThat(closedSummary.connectionsOpened()).isEqualTo(5);
            assertThat(closedSummary.completed()).isEqualTo(closedSummary.sent()).isPositive();
            assertThat(closedSummary.responseTime().count()).isEqualTo(closedSummary.completed());
        }
    }

    @Test
    void measuredPhaseEndsAtTheRequestCount() throws Exception {
        try (TestServer server = TestServer.hello()) {
            LoadSpec spec = LoadSpec.of(server.uri("/hello"), new LoadModel.ClosedLoop(2)).toBuilder()
                    .warmupMs(0).durationMs(20_000).maxRequests(300).build();
            RunSummary summary = Generator.run(spec, null, progress);
            assertThat(summary.sent()).isEqualTo(300);
            assertThat(summary.completed()).isEqualTo(300);
            assertThat(summary.measuredSec()).isLessThan(20);
        }
    }

    @Test
    void splitsOverProcessesAndMergesTheirResults(@TempDir Path dir) throws Exception {
        try (TestServer server = TestServer.hello()) {
            LoadSpec spec = LoadSpec.of(server.uri("/hello"), new LoadModel.ClosedLoop(4)).toBuilder()
                    .warmupMs(200).durationMs(1_000).processes(2).build();
            RunSummary summary = MultiProcess.run(spec, dir, progress, GeneratorMain.class);

            assertThat(summary.processes()).isEqualTo(2);
            assertThat(summary.errorCount()).isZero();
            RunSummary first = Json.json().readValue(dir.resolve("p1/summary.json").toFile(), RunSummary.class);
            RunSummary second = Json.json().readValue(dir.resolve("p2/summary.json").toFile(), RunSummary.class);
            assertThat(first.spec().model()).isEqualTo(new LoadModel.ClosedLoop(2));
            assertThat(summary.completed()).isEqualTo(first.completed() + second.completed()).isPositive();
            assertThat(summary.responseTime().count()).isEqualTo(summary.completed());
            assertThat(LatencyRecorderTest.sumOfIntervals(new RunDirectory(dir).log(HistogramLog.RESPONSE), -1).getTotalCount())
                    .isEqualTo(summary.completed());
        }
    }

    @Test
    void spreadsConnectionsOverTheSourceAddresses() throws Exception {
        try (TestServer server = TestServer.hello()) {
            LoadSpec spec = LoadSpec.of(server.uri("/hello"), new LoadModel.ClosedLoop(6)).toBuilder()
                    .warmupMs(0).durationMs(300).sourceAddresses(SourceAddresses.expand("127.0.0.2-127.0.0.4")).build();
            RunSummary summary = Generator.run(spec, null, progress);

            assertThat(summary.errorCount()).isZero();
            assertThat(server.clientAddresses()).extracting(InetAddress::getHostAddress)
                    .contains("127.0.0.2", "127.0.0.3", "127.0.0.4");
        }
    }

    @Test
    void anUnreachableTargetIsOneClearMessage() throws Exception {
        InetSocketAddress unused = TestServer.unusedAddress();
        LoadSpec spec = LoadSpec.of(URI.create("http://127.0.0.1:" + unused.getPort() + "/hello"), new LoadModel.ClosedLoop(1));
        assertThatThrownBy(() -> Generator.run(spec, null, progress))
                .isInstanceOf(GeneratorException.class)
                .hasMessage("nothing listens on 127.0.0.1:" + unused.getPort());
    }

    @Test
    void aTargetThatDiesMidRunIsCountedAndTheRunFinishes(@TempDir Path dir) throws Exception {
        TestServer server = TestServer.hello();
        LoadSpec spec = LoadSpec.of(server.uri("/hello"), new LoadModel.OpenLoop(200, LoadModel.InterArrival.CONSTANT))
                .withPhases(0, 1_500);
        CountDownLatch hundredth = server.signalAtRequest(100);
        Thread killer = Thread.ofVirtual().start(() -> {
            try {
                hundredth.await(10, TimeUnit.SECONDS);
                server.close();
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        RunSummary summary = Generator.run(spec, dir, progress);
        killer.join();
        assertThat(summary.completed()).isBetween(90L, 110L);
        assertThat(summary.errors().get(ErrorClass.REFUSED)).isPositive();
        assertThat(summary.completed() + summary.errorCount()).isEqualTo(300);
        assertThat(new RunDirectory(dir).summary()).exists();
    }
}
