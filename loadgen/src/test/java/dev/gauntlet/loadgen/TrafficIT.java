package dev.gauntlet.loadgen;

import dev.gauntlet.api.ErrorClass;
import dev.gauntlet.api.ErrorKind;
import dev.gauntlet.api.LoadModel;
import dev.gauntlet.api.LoadSpec;
import dev.gauntlet.api.RunDirectory;
import dev.gauntlet.api.RunSummary;
import dev.gauntlet.loadgen.TestServer.Behaviour;
import dev.gauntlet.loadgen.measure.TrafficLog;
import dev.gauntlet.loadgen.run.Generator;
import dev.gauntlet.loadgen.split.MultiProcess;
import dev.gauntlet.loadgen.transport.Http1Io;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * What k6 and Gatling users look for, from real loads against a local server: {@code traffic.csv} (requests in flight,
 * connections open and bytes each second of the run, warm-up included), the bytes in the summary, the built-in
 * engine's connect / waiting / receiving split, and the error table by class and status; merged over processes.
 */
@Timeout(60)
class TrafficIT {
    private final PrintStream progress = new PrintStream(new ByteArrayOutputStream());

    @Test
    void trafficBytesAndWireTimesOfAnOpenLoop(@TempDir Path dir) throws Exception {
        try (TestServer server = TestServer.hello()) {
            server.answerAfter(40);
            // 200/s answered after 40 ms: about 8 requests in flight at any moment, on 8 or more kept connections.
            LoadSpec spec = LoadSpec.of(server.uri("/hello"), new LoadModel.OpenLoop(200, LoadModel.InterArrival.CONSTANT))
                    .withPhases(1_000, 2_000);
            RunSummary summary = Generator.run(spec, dir, progress);

            List<TrafficLog.Interval> traffic = TrafficLog.read(new RunDirectory(dir).traffic());
            assertThat(traffic.getFirst().runSec()).as("from the run's start").isZero();
            // The set-up's ticks, then a second of warm-up and two measured, and the run's end: ticks count from the set-up's end.
            assertThat(traffic).hasSizeBetween(4, 6);
            for (int k = 1; k < traffic.size(); k++) {
                TrafficLog.Interval before = traffic.get(k - 1);
                assertThat(traffic.get(k).runSec()).isCloseTo(before.runSec() + before.lengthSec(), within(0.002));
            }
            // Whole seconds of load: neither the set-up's first interval nor the drain's last.
            assertThat(traffic.subList(1, traffic.size() - 1)).allSatisfy(i -> {
                assertThat(i.inFlight()).as("in flight at %.3f s", i.runSec()).isBetween(2L, 20L);
                assertThat(i.connectionsOpen()).isBetween(i.inFlight(), 64L);
                assertThat(i.bytesSent()).isPositive();
                assertThat(i.bytesReceived()).isPositive();
            });
            assertThat(traffic.getLast().inFlight()).as("nothing in flight once the run ended").isZero();

            long requestBytes = Http1Io.requestBytes(spec).length();
            long loggedSent = traffic.stream().mapToLong(TrafficLog.Interval::bytesSent).sum();
            assertThat(loggedSent % requestBytes).as("whole requests, warm-up included").isZero();
            assertThat(summary.bytes()).isNotNull();
            assertThat(loggedSent).isGreaterThan(summary.bytes().sent());
            // The measured requests, and any of the warm-up's still waiting for a connection at the phase's start.
            assertThat(summary.bytes().sent()).isBetween(summary.sent() * requestBytes, (summary.sent() + 5) * requestBytes);
            assertThat(summary.bytes().received()).isGreaterThanOrEqualTo(summary.completed() * TestServer.HELLO.length);
            assertThat(summary.bytes().sentPerSec()).isCloseTo(summary.bytes().sent() / summary.measuredSec(), within(1e-6));

            assertThat(summary.timings()).isNotNull();
            assertThat(summary.timings().connect().count()).isEqualTo(summary.connectionsOpened());
            assertThat(summary.timings().tlsHandshake().count()).as("in clear").isZero();
            assertThat(summary.timings().waiting().count()).as("every measured answer").isEqualTo(summary.completed());
            assertThat(summary.timings().waiting().p50Ms()).as("the server's 40 ms").isGreaterThanOrEqualTo(39.0);
            assertThat(summary.timings().receiving().p50Ms()).as("one small read").isLessThan(5.0);
            assertThat(summary.errorKinds()).as("recorded, and none").isEmpty();
        }
    }

    @Test
    void theErrorTableHasEachClassAndStatusWithItsFirstMessage(@TempDir Path dir) throws Exception {
        try (TestServer server = new TestServer(Behaviour.RESET_ON_REUSE)) {
            server.failEvery(5, Behaviour.WRONG_STATUS);
            LoadSpec spec = LoadSpec.of(server.uri("/hello"), new LoadModel.OpenLoop(200, LoadModel.InterArrival.CONSTANT))
                    .withPhases(500, 2_000);
            RunSummary summary = Generator.run(spec, dir, progress);

            ErrorKind badStatus = kind(summary, ErrorClass.BAD_STATUS);
            assertThat(badStatus.status()).isEqualTo(500);
            assertThat(badStatus.message()).isEqualTo("status 500");
            assertThat(badStatus.count()).isEqualTo(summary.errors().get(ErrorClass.BAD_STATUS)).isPositive();
            ErrorKind reset = kind(summary, ErrorClass.RESET);
            assertThat(reset.status()).isNull();
            assertThat(reset.message()).contains("reset or closed");
            assertThat(reset.count()).isEqualTo(summary.errors().get(ErrorClass.RESET)).isPositive();
            for (ErrorKind kind : summary.errorKinds()) {
                assertThat(kind.firstSec()).as("%s within the measured phase", kind).isBetween(0.0, kind.lastSec());
                assertThat(kind.lastSec()).as("errors came all along").isBetween(1.0, 2.5);
            }
            assertThat(summary.errorKinds().stream().mapToLong(ErrorKind::count).sum()).isEqualTo(summary.errorCount());
        }
    }

    @Test
    void processesMergeTheirTrafficLineByLineAndTheirErrorTables(@TempDir Path dir) throws Exception {
        try (TestServer server = new TestServer(Behaviour.RESET_ON_REUSE)) {
            server.failEvery(5, Behaviour.WRONG_STATUS);
            LoadSpec spec = LoadSpec.of(server.uri("/hello"), new LoadModel.OpenLoop(200, LoadModel.InterArrival.CONSTANT))
                    .toBuilder().warmupMs(200).durationMs(1_500).processes(2).build();
            RunSummary summary = MultiProcess.run(spec, dir, progress, GeneratorMain.class);

            List<TrafficLog.Interval> first = TrafficLog.read(new RunDirectory(dir.resolve("p1")).traffic());
            List<TrafficLog.Interval> second = TrafficLog.read(new RunDirectory(dir.resolve("p2")).traffic());
            List<TrafficLog.Interval> merged = TrafficLog.read(new RunDirectory(dir).traffic());
            assertThat(merged).hasSize(Math.max(first.size(), second.size())).isNotEmpty();
            for (int k = 0; k < merged.size(); k++) {
                assertThat(merged.get(k).bytesSent()).as("line %d", k).isEqualTo(
                        (k < first.size() ? first.get(k).bytesSent() : 0) + (k < second.size() ? second.get(k).bytesSent() : 0));
                assertThat(merged.get(k).connectionsOpen()).as("line %d", k).isEqualTo(
                        (k < first.size() ? first.get(k).connectionsOpen() : 0)
                                + (k < second.size() ? second.get(k).connectionsOpen() : 0));
            }
            assertThat(summary.bytes().sent()).isPositive();
            assertThat(kind(summary, ErrorClass.BAD_STATUS).count()).isEqualTo(summary.errors().get(ErrorClass.BAD_STATUS));
            assertThat(kind(summary, ErrorClass.RESET).count()).isEqualTo(summary.errors().get(ErrorClass.RESET));
            assertThat(summary.timings().waiting().count()).isPositive();
        }
    }

    private static ErrorKind kind(RunSummary summary, ErrorClass errorClass) {
        return summary.errorKinds().stream().filter(k -> k.errorClass() == errorClass).findFirst().orElseThrow(
                () -> new AssertionError("no " + errorClass + " in " + summary.errorKinds()));
    }
}
