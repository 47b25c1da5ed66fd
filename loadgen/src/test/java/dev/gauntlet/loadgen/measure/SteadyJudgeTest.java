package dev.gauntlet.loadgen.measure;

import dev.gauntlet.api.LoadModel;
import dev.gauntlet.api.LoadSpec;
import dev.gauntlet.api.RunSummary;
import dev.gauntlet.api.SteadyRule;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The warm-up's agreement rule on windows whose answer is known. */
class SteadyJudgeTest {
    private static final SteadyRule RULE = new SteadyRule(30_000, 3, 10);
    private static final long SECOND_NS = 1_000_000_000L;

    @Test
    void sixFlatWindowsWithAnIdleJitAgree() {
        assertThat(SteadyJudge.disagreement(windows(8_400, 8_600, 8_500, 8_450, 8_550, 8_500), RULE, false)).isNull();
    }

    @Test
    void aPlateauWhileTheTargetsCompilersAreStarvedIsNotSettled() {
        // spring-mvc-sync on one CPU: a flat 8,500/s with 700 methods queued for its JIT, its compile time still.
        List<RunSummary.Steadiness.Window> flat = windows(8_400, 8_600, 8_500, 8_450, 8_550, 8_500).stream()
                .map(w -> new RunSummary.Steadiness.Window(w.completedPerSec(), 5, 9, Double.NaN, 0.2, 1, 0, 700, 0, 0))
                .toList();

        assertThat(SteadyJudge.disagreement(flat, RULE, false))
                .isEqualTo("the target's JIT had up to 700 methods queued in the last 3 s");
    }

    @Test
    void aSlowClimbIsNotAPlateau() {
        // Each window within ±10 % of the last three's mean, yet that mean 7 % above the three before.
        assertThat(SteadyJudge.disagreement(windows(9_000, 9_200, 9_400, 9_600, 9_800, 10_000), RULE, false))
                .startsWith("completed/s moved from a mean of 9,200 to 9,800 over the last 6 s");
    }

    @Test
    void fewerWindowsThanTwiceTheRulesDoNotAgree() {
        assertThat(SteadyJudge.disagreement(windows(8_500, 8_500, 8_500), RULE, false))
                .isEqualTo("3 windows judged, the rule needs 6");
    }

    @Test
    void anOpenLoopsTargetFallingBehindTheRateEndsTheWarmUpUnsettled() {
        LoadSpec spec = LoadSpec.of(URI.create("http://127.0.0.1:1/hello"),
                new LoadModel.OpenLoop(1_000, LoadModel.InterArrival.EXPONENTIAL)).toBuilder()
                .warmupMs(1_000).steady(new SteadyRule(30_000, 2, 10)).build();
        SteadyJudge behind = new SteadyJudge(spec, 0, () -> null);
        SteadyJudge keepingUp = new SteadyJudge(spec, 0, () -> null);
        for (int second = 0; second < 4; second++) {
            // 850 answered a second of the 1,000 offered: under 90 %, whatever their latency does.
            behind.warmupWindow(answers(850, 5 + 100 * second), LatencyRecorder.newHistogram(), second * SECOND_NS,
                    (second + 1) * SECOND_NS);
            keepingUp.warmupWindow(answers(950, 5 + 100 * second), LatencyRecorder.newHistogram(), second * SECOND_NS,
                    (second + 1) * SECOND_NS);
        }

        assertThat(behind.fallingBehind()).isTrue();
        assertThat(behind.result(4_000).fellBehind()).isTrue();
        assertThat(keepingUp.fallingBehind()).isFalse();
        assertThat(keepingUp.settled()).as("its median climbs").isFalse();
    }

    private static LatencyRecorder.Warmup answers(int count, long latencyMs) {
        LatencyRecorder.Warmup window = new LatencyRecorder.Warmup(LatencyRecorder.newHistogram(), LatencyRecorder.newHistogram());
        window.response().recordValueWithCount(latencyMs * 1_000_000, count);
        return window;
    }

    private static List<RunSummary.Steadiness.Window> windows(double... perSec) {
        return java.util.Arrays.stream(perSec)
                .mapToObj(rate -> new RunSummary.Steadiness.Window(rate, 5, 9, Double.NaN, 0.2, 1, 0, 2, 0, 0)).toList();
    }
}
