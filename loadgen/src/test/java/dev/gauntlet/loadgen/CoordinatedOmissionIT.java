package dev.gauntlet.loadgen;

import dev.gauntlet.api.LoadModel;
import dev.gauntlet.api.LoadSpec;
import dev.gauntlet.api.RunSummary;
import dev.gauntlet.api.Verdict;
import dev.gauntlet.loadgen.run.Generator;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A server that stalls for a known time in an open loop held to one connection: the requests
 * due during the stall keep their intended starts, so response time shows the stall and service
 * time does not (the wrk2 set-up; with more connections allowed they would be sent on time instead).
 */
@Tag("alone") // asserts percentiles against a stall
@Timeout(60)
class CoordinatedOmissionIT {
    private static final long STALL_MS = 1_000;
    /** 200/s, constant: 100 warm-up requests, then 600 measured; the stall comes a second into the measured phase. */
    private static final long STALLED_REQUEST = 300;

    @Test
    void responseTimeShowsTheStallAndServiceTimeDoesNot() throws Exception {
        try (TestServer server = TestServer.hello()) {
            server.stallOnce(STALLED_REQUEST, STALL_MS);
            LoadSpec spec = LoadSpec.of(server.uri("/hello"), new LoadModel.OpenLoop(200, LoadModel.InterArrival.CONSTANT))
                    .toBuilder().warmupMs(500).durationMs(3_000).maxConnections(1).build();

            RunSummary summary = Generator.run(spec, null, new PrintStream(new ByteArrayOutputStream()));

            // 600 intended starts in 3 s: all kept, none dropped or shifted to a later schedule.
            assertThat(summary.sent()).isEqualTo(600);
            assertThat(summary.completed()).isEqualTo(600);
            // About 200 requests were due during the stall: a third of the run waited for it.
            assertThat(summary.responseTime().p99Ms()).isGreaterThanOrEqualTo(0.8 * STALL_MS);
            assertThat(summary.responseTime().p90Ms()).isGreaterThanOrEqualTo(0.1 * STALL_MS);
            assertThat(summary.scheduleLag().p99Ms()).isGreaterThanOrEqualTo(0.8 * STALL_MS);
            assertThat(summary.serviceTime().p99Ms()).isLessThan(0.1 * STALL_MS);
            assertThat(summary.serviceTime().maxMs()).isGreaterThanOrEqualTo(STALL_MS);
            // The loop kept time; the requests waited for the one connection the server held: the server's figure.
            assertThat(summary.verdict()).isEqualTo(Verdict.TARGET_OVERLOADED);
            assertThat(summary.evidence()).anyMatch(reason -> reason.startsWith("requests waited for a connection"));
        }
    }

    @Test
    void withConnectionsToSpareTheStalledRequestsAreSentOnTime() throws Exception {
        try (TestServer server = TestServer.hello()) {
            server.stallOnce(STALLED_REQUEST, STALL_MS);
            LoadSpec spec = LoadSpec.of(server.uri("/hello"), new LoadModel.OpenLoop(200, LoadModel.InterArrival.CONSTANT))
                    .toBuilder().warmupMs(500).durationMs(3_000).build();

            RunSummary summary = Generator.run(spec, null, new PrintStream(new ByteArrayOutputStream()));

            assertThat(summary.sent()).isEqualTo(600);
            assertThat(summary.errorCount()).isZero();
            // Only the one stalled request waited; the open loop opened a new connection for the others.
            assertThat(summary.responseTime().maxMs()).isGreaterThanOrEqualTo(STALL_MS);
            assertThat(summary.responseTime().p99Ms()).isLessThan(0.5 * STALL_MS);
            assertThat(summary.connectionsOpened()).isGreaterThan(1);
        }
    }
}
