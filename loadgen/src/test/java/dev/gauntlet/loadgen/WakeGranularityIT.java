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
 * The open loop's wake granularity on a real socket: 400 requests/s at constant gaps of 2.5 ms.
 * At a granularity of 5 ms every wake sends the two or so then due, each late by up to 5 ms and
 * still timed from its intended start; at 0 each start gets its own wake.
 */
@Tag("alone") // asserts the loop's lateness
@Timeout(60)
class WakeGranularityIT {
    private static final LoadModel RATE = new LoadModel.OpenLoop(400, LoadModel.InterArrival.CONSTANT);

    @Test
    void aCoarseGranularitySendsByTheBatchAndTheVerdictCountsItAsTheLoops() throws Exception {
        RunSummary summary = run(5_000L);

        assertThat(summary.sent()).isEqualTo(800);
        assertThat(summary.wakeGranularityMs()).isEqualTo(5.0);
        // Uniform over 0-5 ms by design: the median is far beyond a wake per start's.
        assertThat(summary.loopLateness().p50Ms()).isGreaterThanOrEqualTo(1.0);
        assertThat(summary.responseTime().p50Ms()).isGreaterThanOrEqualTo(1.0);
        // Lateness the loop chose is neither the generator's failing nor the platform's noise.
        assertThat(summary.verdict()).as("%s", summary.evidence()).isIn(Verdict.OK, Verdict.PLATFORM_NOISY);
        assertThat(summary.evidence()).noneMatch(e -> e.contains("its loop came to the intended starts late"));
    }

    @Test
    void aGranularityOfZeroWakesForEachStart() throws Exception {
        RunSummary summary = run(0L);

        assertThat(summary.sent()).isEqualTo(800);
        assertThat(summary.wakeGranularityMs()).isZero();
        assertThat(summary.loopLateness().p50Ms()).isLessThan(1.0);
    }

    @Test
    void byDefaultTheGranularityIsThePlatformsWakeUpP99AndAMillisecondAtMost() throws Exception {
        RunSummary summary = run(null);

        assertThat(summary.sent()).isEqualTo(800);
        assertThat(summary.wakeGranularityMs()).isGreaterThan(0).isLessThanOrEqualTo(1.0);
    }

    private static RunSummary run(Long wakeGranularityUs) throws Exception {
        try (TestServer server = TestServer.hello()) {
            LoadSpec spec = LoadSpec.of(server.uri("/hello"), RATE).toBuilder().warmupMs(500).durationMs(2_000)
                    .wakeGranularityUs(wakeGranularityUs).build();
            return Generator.run(spec, null, new PrintStream(new ByteArrayOutputStream()));
        }
    }
}
