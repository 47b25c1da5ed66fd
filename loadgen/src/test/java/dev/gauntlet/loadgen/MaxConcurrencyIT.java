package dev.gauntlet.loadgen;

import dev.gauntlet.api.ErrorClass;
import dev.gauntlet.api.Json;
import dev.gauntlet.api.LoadModel;
import dev.gauntlet.api.LoadSpec;
import dev.gauntlet.api.RunDirectory;
import dev.gauntlet.api.RunSummary;
import dev.gauntlet.api.Verdict;
import dev.gauntlet.loadgen.run.Generator;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

@Tag("alone") // the burst must be held within a phase that outlasts a timed stall of the acceptor
@Timeout(60)
class MaxConcurrencyIT {

    @Test
    void opensAndHoldsNRequestsAndAsksTheServerHowManyItStarted(@TempDir Path dir) throws Exception {
        try (TestServer server = TestServer.hello()) {
            LoadSpec spec = LoadSpec.of(server.uri("/hello?wait=60000"), new LoadModel.MaxConcurrency(200))
                    .toBuilder().warmupMs(500).durationMs(1_000).adminUrl(server.startAdmin()).build();
            // Every request is held, the warm-up's too, as a long wait would hold them.
            server.stall();

            RunSummary summary = Generator.run(spec, dir, new PrintStream(new ByteArrayOutputStream()));
            assertThat(Json.json().readValue(new RunDirectory(dir).summary().toFile(), RunSummary.class)).isEqualTo(summary);

            RunSummary.Concurrency held = summary.concurrency();
            assertThat(held.connected()).isEqualTo(200);
            assertThat(held.held()).isEqualTo(200);
            assertThat(summary.sent()).isEqualTo(200);
            assertThat(summary.errorCount()).isZero();
            assertThat(held.serverStarted()).isEqualTo(200);
            assertThat(held.serverAtEnd().inFlight()).isGreaterThanOrEqualTo(200);
            // No schedule to keep: the lag is how long the connections took to open, never a saturation.
            assertThat(summary.verdict()).isEqualTo(Verdict.OK);
        }
    }

    /**
     * The 2016 case asks how many requests a server starts; a connect that outlasted its timeout while the target's
     * acceptor stalled (or the generator was busy) does not answer it. The target here accepts nothing for 1 s from
     * the warm-up's request on, its backlog holding 32, so the burst's other connects time out (200 ms) again and
     * again: each is tried anew, and once the target accepts, every request is held, none failed.
     */
    @Test
    void connectsThatTimeOutInTheBurstAreTriedAgainUntilTheTargetTakesEveryRequest(@TempDir Path dir) throws Exception {
        try (TestServer server = TestServer.helloWithBacklog(32)) {
            LoadSpec spec = LoadSpec.of(server.uri("/hello?wait=60000"), new LoadModel.MaxConcurrency(200))
                    .toBuilder().warmupMs(300).durationMs(5_000).connectTimeoutMs(200).adminUrl(server.startAdmin()).build();
            server.stall();
            server.pauseAcceptsAtFirstRequest(1_000);

            RunSummary summary = Generator.run(spec, dir, new PrintStream(new ByteArrayOutputStream()));

            RunSummary.Concurrency held = summary.concurrency();
            assertThat(held.connectRetries()).as("connects tried again").isPositive();
            assertThat(held.held()).as("%s, errors %s", held, summary.errors()).isEqualTo(200);
            assertThat(held.serverStarted()).isEqualTo(200);
            assertThat(summary.errorCount()).isZero();
        }
    }

    /** A connect refused is the target's answer, not a slow connect: it fails, and is not tried again. */
    @Test
    void aRefusedBurstFailsAndIsNotRetried(@TempDir Path dir) throws Exception {
        try (TestServer server = new TestServer(TestServer.Behaviour.REFUSE)) {
            LoadSpec spec = LoadSpec.of(server.uri("/hello?wait=60000"), new LoadModel.MaxConcurrency(50))
                    .toBuilder().warmupMs(300).durationMs(1_000).connectTimeoutMs(200).build();

            RunSummary summary = Generator.run(spec, dir, new PrintStream(new ByteArrayOutputStream()));

            assertThat(summary.concurrency().connectRetries()).isZero();
            assertThat(summary.concurrency().held()).isZero();
            assertThat(summary.errors()).containsKey(ErrorClass.REFUSED);
        }
    }
}
