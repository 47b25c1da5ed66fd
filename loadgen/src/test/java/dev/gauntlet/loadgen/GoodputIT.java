package dev.gauntlet.loadgen;

import dev.gauntlet.api.LoadModel;
import dev.gauntlet.api.LoadSpec;
import dev.gauntlet.api.RunSummary;
import dev.gauntlet.loadgen.run.Generator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * An open loop over a fixed pool the target cannot keep up with: 400/s offered to 4 connections of a target that
 * answers each in 50 ms (80/s at most). The warm-up's backlog fills the pool all through the measured phase, so no
 * measured request is sent in it; the target still answered up to 80/s, and the run says so beside its rate of 0. The
 * hard cap ends the run soon after the phase rather than waiting out the backlog.
 */
@Timeout(60)
class GoodputIT {

    @Test
    void anOverloadedOpenLoopReportsWhatTheTargetAnsweredBehindTheBacklog(@TempDir Path dir) throws Exception {
        try (TestServer server = TestServer.hello()) {
            server.answerAfter(50);
            LoadSpec spec = LoadSpec.of(server.uri("/hello"),
                            LoadModel.OpenLoop.fixedPool(400, LoadModel.InterArrival.CONSTANT, 4)).toBuilder()
                    .warmupMs(1_000).durationMs(2_000).hardCapMs(4_000).build();
            ByteArrayOutputStream progress = new ByteArrayOutputStream();

            RunSummary summary = Generator.run(spec, dir, new PrintStream(progress, true, StandardCharsets.UTF_8));

            assertThat(summary.achievedRatePerSec()).as("no measured request got through the backlog in the phase").isZero();
            // 4 connections × 20/s each at most; a loaded machine's sleeps overshoot their 50 ms.
            assertThat(summary.goodputPerSec()).isBetween(20.0, 85.0);
            assertThat(summary.evidence()).anySatisfy(e -> assertThat(e).contains("the warm-up's backlog included"));
            assertThat(progress.toString(StandardCharsets.UTF_8)).containsPattern("sent 0  completed 0 .* answered [1-9]");
        }
    }
}
