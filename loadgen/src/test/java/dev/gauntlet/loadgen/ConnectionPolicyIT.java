package dev.gauntlet.loadgen;

import dev.gauntlet.api.LoadModel.ConnectionPolicy;
import dev.gauntlet.api.LoadModel.InterArrival;
import dev.gauntlet.api.LoadModel;
import dev.gauntlet.api.LoadSpec;
import dev.gauntlet.api.RunSummary;
import dev.gauntlet.loadgen.run.Generator;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.util.concurrent.CountDownLatch;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What each connection policy opens when requests wait: the adaptive pool queues them through a
 * stall of the server instead of opening a connection for each (a stall of the loop: {@link LoopStallIT});
 * the fixed pool never opens more than its size; the unbounded policy opens one per waiting
 * request. Every request keeps its intended start, so the waits show in response time.
 */
@Tag("alone") // asserts latencies against a stall
@Timeout(60)
class ConnectionPolicyIT {
    /** 2,000 requests/s answered in about 1 ms: two in service at once; a 50 ms stall holds 100 requests. */
    static final double RATE_PER_SEC = 2_000;
    static final long STALL_MS = 50;
    static final long REQUESTS_DUE_IN_STALL = (long) (RATE_PER_SEC * STALL_MS / 1_000);

    private final PrintStream progress = new PrintStream(new ByteArrayOutputStream());

    @Test
    void aStalledServerDoesNotMakeTheAdaptivePoolOpenAConnectionPerWaitingRequest() throws Exception {
        RunSummary summary = runThroughServerStall(ConnectionPolicy.ADAPTIVE);

        assertThat(summary.errorCount()).isZero();
        assertThat(summary.sent()).isEqualTo(2_000);
        // The stall shows, and queued requests were timed from their intended starts.
        assertThat(summary.responseTime().maxMs()).isGreaterThanOrEqualTo(0.9 * STALL_MS);
        assertThat(summary.scheduleLag().maxMs()).isGreaterThanOrEqualTo(0.5 * STALL_MS);
        // The pool's floor plus a trickle, far from one connection per request due in the stall.
        assertThat(summary.connectionsOpened()).as("%s", summary).isLessThan(REQUESTS_DUE_IN_STALL / 2);
    }

    @Test
    void aStalledServerMakesTheUnboundedPolicyOpenAConnectionPerWaitingRequest() throws Exception {
        RunSummary summary = runThroughServerStall(ConnectionPolicy.UNBOUNDED);

        assertThat(summary.errorCount()).isZero();
        assertThat(summary.sent()).isEqualTo(2_000);
        assertThat(summary.connectionsOpened()).as("%s", summary).isGreaterThanOrEqualTo(REQUESTS_DUE_IN_STALL / 2);
    }

    @Test
    void aFixedPoolNeverOpensMoreThanItsSizeAndQueuedRequestsKeepTheirIntendedStarts() throws Exception {
        try (TestServer server = TestServer.hello()) {
            // 200/s over 4 connections; the server stalls 200 ms half-way: 40 requests queue for the pool.
            server.stallAllAt(100, 200);
            LoadSpec spec = LoadSpec.of(server.uri("/hello"), LoadModel.OpenLoop.fixedPool(200, InterArrival.CONSTANT, 4))
                    .toBuilder().warmupMs(0).durationMs(1_000).build();

            RunSummary summary = Generator.run(spec, null, progress);

            assertThat(summary.errorCount()).isZero();
            assertThat(summary.sent()).isEqualTo(200);
            assertThat(summary.connectionsOpened()).isEqualTo(4);
            assertThat(summary.connectionsPeak()).isEqualTo(4);
            assertThat(server.connections()).isEqualTo(4 + 1); // plus the reachability check
            // The queued requests waited up to the whole stall, and their response times say so.
            assertThat(summary.scheduleLag().maxMs()).isGreaterThanOrEqualTo(0.75 * 200);
            assertThat(summary.responseTime().maxMs()).isGreaterThanOrEqualTo(0.9 * 200);
            assertThat(summary.responseTime().p90Ms()).isGreaterThanOrEqualTo(0.1 * 200);
            assertThat(summary.serviceTime().p90Ms()).isLessThan(0.1 * 200);
        }
    }

    @Test
    void theUnboundedPolicyOpensOneConnectionPerWaitingRequest() throws Exception {
        try (TestServer server = TestServer.hello()) {
            // Nothing is answered until the 100th request: each finds every connection busy.
            server.stall();
            CountDownLatch all = server.signalAtRequest(100);
            Thread.ofVirtual().start(() -> {
                try {
                    all.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                server.resume();
            });
            LoadSpec spec = LoadSpec.of(server.uri("/hello"),
                            new LoadModel.OpenLoop(200, InterArrival.CONSTANT, ConnectionPolicy.UNBOUNDED, 0))
                    .toBuilder().warmupMs(0).durationMs(500).build();

            RunSummary summary = Generator.run(spec, null, progress);

            assertThat(summary.errorCount()).isZero();
            assertThat(summary.sent()).isEqualTo(100);
            assertThat(summary.connectionsOpened()).isEqualTo(100);
        }
    }

    private RunSummary runThroughServerStall(ConnectionPolicy policy) throws IOException {
        try (TestServer server = TestServer.hello()) {
            server.answerAfter(1);
            // 500 ms of warm-up and 1 s measured; the stall comes half-way through the measured phase.
            server.stallAllAt((long) (RATE_PER_SEC * 1.0), STALL_MS);
            LoadSpec spec = LoadSpec.of(server.uri("/hello"), new LoadModel.OpenLoop(RATE_PER_SEC, InterArrival.CONSTANT, policy, 0))
                    .toBuilder().warmupMs(500).durationMs(1_000).build();
            return Generator.run(spec, null, progress);
        }
    }
}
